"""Compiled kernels (numba) for the CPU local steps and evaluation of linear models.

Coverage — what runs compiled, chosen by :class:`~fltheory.sim.problems.DataProblem` itself
(numba installed, CPU, ``compiled`` True):

* :func:`logistic_sgd` (with :func:`sample_rows`): plain SGD of binary logistic regression in
  float32, E minibatch steps drawn with replacement (the engine's plain path). A small
  :class:`~fltheory.sim.batches.BatchPlan`'s raw words become the sample rows of the
  participating pairs only — the multiply-shift of :func:`~fltheory.sim.batches.draw_indices`,
  the same numbers. Steps: θ ← (1 − lr·ridge)·θ − (lr/B)·Σ_i r_i x_i, the torch path's
  (:meth:`LogisticRegression.local_sgd <fltheory.sim.models.LogisticRegression.local_sgd>`).
* :func:`linear_local`: the authors' mechanics (:mod:`fltheory.sim.local_opt`) for softmax
  and binary logistic regression, float32 or float64 — local epochs (ragged: each client its
  own ⌈n_k/B⌉ steps per epoch, the shuffles made in the kernel by :func:`epoch_orders`' rule),
  SGD momentum and weight decay with the persistent per-client buffers updated in place,
  gradient corrections (SCAFFOLD), with-replacement minibatches or full local batches; every
  (repetition, client) pair of every seed in one call; its minibatch copy, softmax residuals
  and momentum step are LLVM IR (:mod:`fltheory.sim.kernel_ir`). Its torch twin is
  :meth:`LocalRunner._torch <fltheory.sim.local_opt.LocalRunner._torch>` (kept for CUDA,
  other models, and as the reference the tests hold it to).
* :func:`linear_eval`: the objective, accuracy and per-client accuracy of R global softmax or
  logistic models (the engine's evaluation), both accuracy rules of
  :data:`~fltheory.sim.problems.Scoring` but the authors' for binary models.

Everything else (CNNs, quadratics, CUDA) runs on torch. ``DataProblem.compiled = False``
forces the torch path for every kernel of a problem (what the tests and
``benchmarks/bench_authors_mechanics.py`` compare against).

The kernels compute the torch path's numbers with sums in another order, so the two agree to
rounding (the tests hold them to stated tolerances: about 1e-5 relative in float32, 1e-10 in
float64). They may reassociate sums and contract multiply-adds (numba's ``fastmath`` flags
``reassoc`` and ``contract`` only: no assumption that values are finite); a machine with other
vector units may round differently, one machine gives the same bytes every run.

Numba is imported, and the kernels compiled, on the first call of a kernel, so importing the
simulator stays cheap. ``cache=True``: the first process on a machine compiles (seconds) and
writes numba's cache (``__pycache__`` beside this module, or numba's user cache where that is
read-only); later processes load it (about 0.5 s with numba's import, measured here). Numba
recompiles when this file changes.

:data:`AVAILABLE` is False where numba is not installed; the problems then keep the torch path
(the kernels still run, as plain Python).
"""

import functools
import importlib.util
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from fltheory.sim import kernel_ir

#: Whether numba is installed (the compiled kernels can run here).
AVAILABLE = importlib.util.find_spec("numba") is not None

_HIGH = np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)

#: name -> the kernel that runs: numba's compiled function (plain Python without numba).
_RUN: dict[str, Callable[..., Any]] = {}
_PYTHON: dict[str, Callable[..., Any]] = {}


def _prefetch(a: Any, row: Any, col: Any) -> None:  # pragma: no cover
    """Hint that ``a[row, col]`` will be read soon (compiled: the CPU's prefetch instruction,
    from :func:`fltheory.sim.kernel_ir.intrinsics`; plain Python: nothing)."""


#: Helpers inlined into the kernels that call them (small loops on the hot path).
_INLINE = (
    "_scores",
    "_residuals",
    "_accumulate",
    "_gather_row",
    "_softmax_lanes",
    "_momentum_step",
)


def _compile() -> None:
    """Compile every kernel (in definition order: a kernel calls the private name of one
    defined before it, rebound here to its compiled version)."""
    import numba

    written_in_ir = kernel_ir.intrinsics()
    globals().update(written_in_ir)
    for name, fn in _PYTHON.items():
        if name in written_in_ir:
            continue
        inline: Literal["always", "never"] = "always" if name in _INLINE else "never"
        compiled = numba.njit(
            cache=True, fastmath={"reassoc", "contract"}, nogil=True, inline=inline
        )(fn)
        globals()[name] = _RUN[name] = compiled


def _inner(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A private helper the kernels call: compiled with them (its name rebound by
    :func:`_compile`), plain Python without numba."""
    _PYTHON[fn.__name__] = fn
    return fn


def _kernel(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The public kernel of ``_name``: compiled on first use where numba is installed."""
    _PYTHON[fn.__name__] = fn

    @functools.wraps(fn)
    def run(*args: Any) -> Any:
        if not AVAILABLE:
            return fn(*args)
        if not _RUN:
            _compile()
        return _RUN[fn.__name__](*args)

    run.__name__ = run.__qualname__ = fn.__name__.removeprefix("_")
    fn.__doc__ = None  # the doctest runs once, on the public name
    return run


def _sample_rows(
    words: np.ndarray,
    slot: int,
    rr: np.ndarray,
    kk: np.ndarray,
    counts: np.ndarray,
    offsets: np.ndarray,
    steps: int,
    batch: int,
) -> np.ndarray:  # pragma: no cover
    """(M, steps, batch) sample rows of pairs (rr[m], kk[m]) at round ``slot`` of a block of
    raw words (R, BLOCK, half): row offsets[k] + index, entry (j, k, i) of the round's
    (E, N, B) indices being h·n_k >> 32, h the high word of raw[p] (p < half) or the low word
    of raw[p − half], p = (j·N + k)·B + i (:func:`~fltheory.sim.batches.words_to_indices`).

    >>> import numpy as np
    >>> raw = np.array([[[(3 << 32) + 5]]], dtype=np.uint64)
    >>> one = np.zeros(1, dtype=np.int64)
    >>> sample_rows(raw, 0, one, one, np.array([2**31]), np.array([10]), 1, 2).tolist()
    [[[11, 12]]]
    """
    n = counts.shape[0]
    half = words.shape[2]
    out = np.empty((rr.shape[0], steps, batch), dtype=np.int64)
    for m in range(rr.shape[0]):
        k = kk[m]
        raw = words[rr[m], slot]
        n_k = np.uint64(counts[k])
        start = offsets[k]
        for j in range(steps):
            base = (j * n + k) * batch
            for i in range(batch):
                p = base + i
                h = raw[p] >> _HIGH if p < half else raw[p - half] & _LOW
                out[m, j, i] = start + np.int64((h * n_k) >> _HIGH)
    return out


sample_rows = _kernel(_sample_rows)

#: Cephes ``expf``'s constants (:mod:`fltheory.sim.kernel_ir`, which inlines the same steps) in
#: float32: exp's argument range, ln 2 in two parts, log2(e), the polynomial.
_EXP_LO, _EXP_HI = np.float32(kernel_ir.EXP_LO), np.float32(kernel_ir.EXP_HI)
_LOG2E, _LN2_HI, _LN2_LO = (
    np.float32(c) for c in (kernel_ir.LOG2E, kernel_ir.LN2_HI, kernel_ir.LN2_LO)
)
_EXP_POLY = tuple(np.float32(c) for c in kernel_ir.EXP_POLY)


def _exp32(v: np.ndarray, out: np.ndarray, bits: np.ndarray) -> None:  # pragma: no cover
    """out[i] = exp(v[i]) in float32 for v clamped to [−87, 88] (relative error below 3e-7):
    Cephes ``expf`` (exp(x)·2^k, k = round(v/ln 2), its polynomial in x = v − k·ln 2), written
    as loops the compiler vectorises (libm's exp is one call per element); ``bits`` (int32)
    holds the 2^k. NaN stays NaN.

    >>> import numpy as np
    >>> v = np.array([-100.0, -1.0, 0.0, 0.5, 30.0], dtype=np.float32)
    >>> out, bits = np.empty_like(v), np.empty(v.size, dtype=np.int32)
    >>> exp32(v, out, bits)
    >>> bool(np.allclose(out, np.exp(np.maximum(v, -87.0)), rtol=3e-7, atol=0))
    True
    """
    p0, p1, p2, p3, p4, p5 = _EXP_POLY
    for i in range(v.shape[0]):
        x = min(max(v[i], _EXP_LO), _EXP_HI)
        k = np.floor(x * _LOG2E + np.float32(0.5))
        x = x - k * _LN2_HI - k * _LN2_LO
        y = ((((p0 * x + p1) * x + p2) * x + p3) * x + p4) * x + p5
        out[i] = y * x * x + x + np.float32(1.0)
        bits[i] = (np.int32(k) + np.int32(127)) << np.int32(23)
    scale = bits.view(np.float32)
    for i in range(v.shape[0]):
        out[i] *= scale[i]


exp32 = _kernel(_exp32)


def _logistic_sgd(
    theta: np.ndarray,
    rows: np.ndarray,
    xy: np.ndarray,
    lr: float,
    ridge: float,
) -> np.ndarray:  # pragma: no cover
    """(M, d + 1) parameters after E plain SGD steps of binary logistic regression from
    ``theta`` (M, d + 1), step j of pair m on samples ``rows[m, j]`` (rows of ``xy`` (S, d + 2),
    [x, 1, y] per sample); the arithmetic in theta's dtype (float32: σ through :func:`exp32`).

    >>> import numpy as np
    >>> xy = np.array([[2.0, 1.0, 1.0]])  # x = 2, label 1
    >>> th = logistic_sgd(np.zeros((1, 2)), np.zeros((1, 1, 1), dtype=np.int64), xy, 1.0, 0.0)
    >>> th.tolist()  # r = σ(0) − 1 = −0.5, θ ← θ − r·[x, 1]
    [[1.0, 0.5]]
    """
    m_rows, p = theta.shape
    steps, batch = rows.shape[1], rows.shape[2]
    out = theta.copy()
    one = np.ones(1, out.dtype)[0]  # constants in theta's dtype
    zero = one - one
    single = out.itemsize == 4
    xt = np.empty((p + 1, batch), dtype=out.dtype)  # the minibatch, features by samples
    r = np.empty(batch, dtype=out.dtype)
    e = np.empty(batch, dtype=np.float32)
    bits = np.empty(batch, dtype=np.int32)
    beta = one - one * lr * ridge
    alpha = one * lr / batch
    for m in range(m_rows):
        vec = out[m]
        for j in range(steps):
            for i in range(batch):
                x = xy[rows[m, j, i]]
                for f in range(p + 1):
                    xt[f, i] = x[f]
            r[:] = zero
            for f in range(p):
                vf = vec[f]
                for i in range(batch):
                    r[i] -= xt[f, i] * vf
            if single:  # r = −z: σ(z) = 1 / (1 + exp(−z))
                _exp32(r, e, bits)
                for i in range(batch):
                    r[i] = one / (one + e[i]) - xt[p, i]
            else:
                for i in range(batch):
                    r[i] = one / (one + np.exp(r[i])) - xt[p, i]
            for f in range(p):
                g = zero
                for i in range(batch):
                    g += r[i] * xt[f, i]
                vec[f] = beta * vec[f] - alpha * g
    return out


logistic_sgd = _kernel(_logistic_sgd)


#: Cephes ``logf``'s polynomial for log(1 + x) − x + x²/2 over x³ on √½ − 1 <= x < √2 − 1.
_LOG_POLY = (
    np.float32(7.0376836292e-2),
    np.float32(-1.1514610310e-1),
    np.float32(1.1676998740e-1),
    np.float32(-1.2420140846e-1),
    np.float32(1.4249322787e-1),
    np.float32(-1.6668057665e-1),
    np.float32(2.0000714765e-1),
    np.float32(-2.4999993993e-1),
    np.float32(3.3333331174e-1),
)
_SQRTH = np.float32(0.70710678118654752)


def _log32(v: np.ndarray, out: np.ndarray, bits: np.ndarray) -> None:  # pragma: no cover
    """out[i] = log(v[i]) in float32 for positive normal v (relative error below 3e-7 away
    from v = 1, absolute below 1e-7 near it): Cephes ``logf`` (v = m·2^e with m in [√½, √2),
    its polynomial in m − 1), loops the compiler vectorises; ``bits`` (int32) holds v's bits.
    NaN and +inf stay themselves.

    >>> import numpy as np
    >>> v = np.array([1.0, 2.0, 10.0, 1e-3, 3e5], dtype=np.float32)
    >>> out, bits = np.empty_like(v), np.empty(v.size, dtype=np.int32)
    >>> log32(v, out, bits)
    >>> bool(np.allclose(out, np.log(v.astype(np.float64)), rtol=3e-7, atol=1e-7))
    True
    """
    p0, p1, p2, p3, p4, p5, p6, p7, p8 = _LOG_POLY
    raw = v.view(np.int32)
    for i in range(v.shape[0]):
        bits[i] = (raw[i] & np.int32(-2139095041)) | np.int32(1056964608)  # mantissa, 2^-1
    mant = bits.view(np.float32)
    for i in range(v.shape[0]):
        e = np.float32(((raw[i] >> np.int32(23)) & np.int32(255)) - np.int32(126))
        x = mant[i]
        if x < _SQRTH:
            e -= np.float32(1.0)
            x = x + x - np.float32(1.0)
        else:
            x = x - np.float32(1.0)
        z = x * x
        y = (((((((p0 * x + p1) * x + p2) * x + p3) * x + p4) * x + p5) * x + p6) * x + p7) * x
        y = (y + p8) * x * z
        y += e * _LN2_LO - np.float32(0.5) * z
        r = x + y + e * _LN2_HI
        out[i] = r if v[i] == v[i] and v[i] < np.float32(np.inf) else v[i]


log32 = _kernel(_log32)


@_inner
def _shuffle(words: np.ndarray, d0: int, n: int, perm: np.ndarray) -> None:  # pragma: no cover
    """perm[:n] = a Fisher–Yates shuffle of 0..n−1 (for i = n−1, …, 1 swap i and
    j = ⌊h·(i + 1)/2³²⌋) taking its n − 1 draws h from draw ``d0`` on: draw p is the high half
    of ``words[p // 2]`` for even p, its low half for odd p."""
    for i in range(n):
        perm[i] = i
    p = d0
    for i in range(n - 1, 0, -1):
        raw = words[p >> 1]
        h = raw >> _HIGH if (p & 1) == 0 else raw & _LOW
        j = np.int64((h * np.uint64(i + 1)) >> _HIGH)
        perm[i], perm[j] = perm[j], perm[i]
        p += 1


def _epoch_orders(
    words: np.ndarray,
    lens: np.ndarray,
    draw_start: np.ndarray,
) -> np.ndarray:  # pragma: no cover
    """The concatenated shuffles of segments of lengths ``lens`` (S,), segment q from draw
    ``draw_start[q]`` of ``words`` (:func:`_shuffle`): a repetition-round's epoch orders
    (:class:`~fltheory.sim.local_opt.EpochPlan`).

    >>> import numpy as np
    >>> w = np.array([2**63], dtype=np.uint64)  # draw 0 = 2³¹: j = ⌊2³¹·2/2³²⌋ = 1 (no swap)
    >>> epoch_orders(w, np.array([2, 1]), np.array([0, 1])).tolist()
    [0, 1, 0]
    """
    out = np.empty(lens.sum(), dtype=np.int64)
    start = 0
    for q in range(lens.shape[0]):
        _shuffle(words, draw_start[q], lens[q], out[start : start + lens[q]])
        start += lens[q]
    return out


epoch_orders = _kernel(_epoch_orders)

#: Samples per block of a local step: the work arrays hold one block, a larger minibatch (or a
#: full local batch) is summed block by block.
_BLOCK = 32


@_inner
def _gather_row(
    xb: np.ndarray, xy: np.ndarray, i: int, row: int, f: int
) -> None:  # pragma: no cover
    """xb[i, :f] = xy[row, :f] (compiled: :func:`fltheory.sim.kernel_ir.intrinsics`' vector
    copy, the columns f.. of xb's row up to the vector width set to 0)."""
    for j in range(f):
        xb[i, j] = xy[row, j]


@_inner
def _momentum_step(
    w: np.ndarray, g: np.ndarray, v: np.ndarray, lr: float, mu: float, wd: float, ridge: float
) -> None:  # pragma: no cover
    """One SGD step with momentum on flat arrays whose size is a multiple of 8, in place:
    d = g + ridge·θ + wd·θ + μ·v, v ← d, θ ← θ − lr·d (compiled: a vector loop of
    :func:`fltheory.sim.kernel_ir.intrinsics`)."""
    for q in range(w.shape[0]):
        th = w[q]
        d = g[q] + ridge * th + wd * th + mu * v[q]
        v[q] = d
        w[q] = th - lr * d


@_inner
def _softmax_lanes(z: np.ndarray, i: int, cls: int, scale: float) -> None:  # pragma: no cover
    """Columns i .. i + 32/itemsize − 1 of the scores z (C, BLOCK) → softmax·``scale`` in place:
    top ≈ the max (top += max(z_c − top, 0), class by class), e_c = exp(z_c − top) (float32: on
    [−87, 88], as :func:`exp32`), z_c = e_c·(scale/Σe). Compiled: the IR of
    :func:`fltheory.sim.kernel_ir.intrinsics`."""
    for q in range(i, i + 32 // z.itemsize):
        top = z[0, q]
        for c in range(1, cls):
            top += max(z[c, q] - top, 0.0)
        total = 0.0
        for c in range(cls):
            x = z[c, q] - top
            if z.itemsize == 4:
                x = min(max(x, _EXP_LO), _EXP_HI)
            z[c, q] = np.exp(x)
            total += z[c, q]
        for c in range(cls):
            z[c, q] *= scale / total


@_inner
def _scores(
    w: np.ndarray,
    xb: np.ndarray,
    z: np.ndarray,
    nbp: int,
    cls: int,
    fp: int,
    zero: float,
) -> None:  # pragma: no cover
    """z[c, i] = w_c · x_i for the block's first ``nbp`` samples (a multiple of 4): two classes
    by four samples at a time, eight sums the compiler keeps in vector registers."""
    c = 0
    while c + 1 < cls:
        for i in range(0, nbp, 4):
            a0 = a1 = a2 = a3 = b0 = b1 = b2 = b3 = zero
            for j in range(fp):
                u, v = w[c, j], w[c + 1, j]
                x0, x1, x2, x3 = xb[i, j], xb[i + 1, j], xb[i + 2, j], xb[i + 3, j]
                a0 += u * x0
                a1 += u * x1
                a2 += u * x2
                a3 += u * x3
                b0 += v * x0
                b1 += v * x1
                b2 += v * x2
                b3 += v * x3
            z[c, i], z[c, i + 1], z[c, i + 2], z[c, i + 3] = a0, a1, a2, a3
            z[c + 1, i], z[c + 1, i + 1], z[c + 1, i + 2], z[c + 1, i + 3] = b0, b1, b2, b3
        c += 2
    if c < cls:  # an odd class count (binary logistic regression: one score)
        for i in range(0, nbp, 4):
            a0 = a1 = a2 = a3 = zero
            for j in range(fp):
                u = w[c, j]
                a0 += u * xb[i, j]
                a1 += u * xb[i + 1, j]
                a2 += u * xb[i + 2, j]
                a3 += u * xb[i + 3, j]
            z[c, i], z[c, i + 1], z[c, i + 2], z[c, i + 3] = a0, a1, a2, a3


@_inner
def _residuals(
    z: np.ndarray,
    zf: np.ndarray,
    lab: np.ndarray,
    nb: int,
    nbp: int,
    scale: float,
    work: np.ndarray,
    wf: np.ndarray,
    bits: np.ndarray,
    one: float,
) -> None:  # pragma: no cover
    """Scores z (C, BLOCK) → residuals·``scale`` in place for the block's ``nb`` samples
    (columns nb..nbp set to 0): softmax(z_i) − e_{y_i} for C ≥ 2 classes (:func:`_softmax_lanes`,
    a vector of samples at a time), σ(z_i) − y_i for C = 1 (binary logistic; ``work`` receives
    the exponentials, float32: :func:`exp32` with ``bits`` its int32 scratch, float64: numpy's
    exp; ``zf``, ``wf``: z and work flat views)."""
    cls = z.shape[0]
    if cls > 1:
        for i in range(0, nbp, 32 // z.itemsize):
            _softmax_lanes(z, i, cls, scale)
        for i in range(nb):
            z[np.int64(lab[i]), i] -= scale
    else:
        for i in range(nbp):
            z[0, i] = -z[0, i]
        if z.itemsize == 4:
            _exp32(zf, wf, bits)
        else:
            for q in range(zf.shape[0]):
                wf[q] = np.exp(zf[q])
        for i in range(nbp):
            z[0, i] = (one / (one + work[0, i]) - lab[i]) * scale
    for c in range(cls):
        for i in range(nb, nbp):
            z[c, i] = one - one


@_inner
def _accumulate(
    g: np.ndarray,
    xb: np.ndarray,
    z: np.ndarray,
    nbp: int,
    cls: int,
    fp: int,
) -> None:  # pragma: no cover
    """g_c += Σ_i z[c, i]·x_i over the block's first ``nbp`` samples (a multiple of 8): eight
    samples at a time, one pass over g per eight (sums of products in registers)."""
    for i in range(0, nbp, 8):
        for c in range(cls):
            r0, r1, r2, r3 = z[c, i], z[c, i + 1], z[c, i + 2], z[c, i + 3]
            r4, r5, r6, r7 = z[c, i + 4], z[c, i + 5], z[c, i + 6], z[c, i + 7]
            for j in range(fp):
                g[c, j] += (
                    r0 * xb[i, j] + r1 * xb[i + 1, j] + r2 * xb[i + 2, j] + r3 * xb[i + 3, j]
                ) + (r4 * xb[i + 4, j] + r5 * xb[i + 5, j] + r6 * xb[i + 6, j] + r7 * xb[i + 7, j])


def _linear_local(
    theta: np.ndarray,
    bufs: np.ndarray,
    rr: np.ndarray,
    kk: np.ndarray,
    corr: np.ndarray,
    rows: np.ndarray,
    words: np.ndarray,
    draw_start: np.ndarray,
    counts: np.ndarray,
    offsets: np.ndarray,
    epochs: int,
    batch: int,
    steps: int,
    xy: np.ndarray,
    classes: int,
    lr: float,
    mu: float,
    wd: float,
    ridge: float,
) -> np.ndarray:  # pragma: no cover
    """(M, P) parameters after one round's local work of pairs (rr[m], kk[m]) from ``theta``
    (M, P), P = C·f, for a linear model of C = ``classes`` score rows (C = 1: binary logistic
    regression) on the f inputs [x, 1] of the samples [x, 1, y] of ``xy`` (S, f + 1), client
    k's at rows offsets[k] .. offsets[k] + counts[k] − 1: minibatch SGD of the mean loss with
    torch SGD's momentum μ and weight decay λ (:mod:`fltheory.sim.local_opt`): d = g + c +
    ridge·θ + λ·θ, buf ← μ·buf + d (μ > 0), θ ← θ − η·(buf or d); c is the pair's row of
    ``corr`` (M, P) or 0 when ``corr`` has no rows; ``bufs`` (R, N, P) are the momentum
    buffers, read and written in place at (rr[m], kk[m]) (μ > 0 only). The minibatches:

    * ``epochs`` > 0: that many epochs of ⌈n_k/``batch``⌉ minibatches, the last one partial,
      each epoch's order a Fisher–Yates shuffle (:func:`_shuffle`) drawn from ``words[r]`` at
      draw ``draw_start[k, e]`` (:class:`~fltheory.sim.local_opt.EpochPlan`); ragged: each pair
      runs its client's number of steps;
    * else ``rows`` (M, E, B) when it has rows: E steps on those sample rows;
    * else ``steps`` full-batch steps on the client's whole local set.

    The arithmetic in theta's dtype (float32: exponentials through :func:`exp32`); pairs run
    client by client (a client's samples stay in cache across repetitions); a minibatch is
    copied into a padded block of :data:`_BLOCK` rows, larger ones summed block by block. The
    torch twin: :meth:`LocalRunner._torch <fltheory.sim.local_opt.LocalRunner._torch>`.

    >>> import numpy as np
    >>> xy = np.array([[2.0, 1.0, 1.0]])  # one sample [x, 1, y]: x = 2, label 1
    >>> pair, none = np.zeros(1, dtype=np.int64), np.zeros((0, 1, 1), dtype=np.int64)
    >>> th = linear_local(np.zeros((1, 2)), np.zeros((1, 1, 2)), pair, pair, np.zeros((0, 2)),
    ...     none, np.zeros((1, 1), np.uint64), np.zeros((1, 1), np.int64), np.array([1]),
    ...     np.array([0]), 0, 1, 1, xy, 1, 1.0, 0.0, 0.0, 0.0)
    >>> th.tolist()  # one full-batch step: σ(0) − 1 = −0.5, θ ← θ + 0.5·[x, 1]
    [[1.0, 0.5]]
    """
    m_rows = theta.shape[0]
    f = xy.shape[1] - 1  # features with the column of ones; the label is the last column
    fp = -(-f // 8) * 8
    dt = theta.dtype
    one = np.ones(1, dt)[0]
    zero = one - one
    cls = classes
    w = np.zeros((cls, fp), dt)
    g = np.zeros((cls, fp), dt)
    v = np.zeros((cls, fp), dt)
    cr = np.zeros((cls, fp), dt)
    xb = np.zeros((_BLOCK, fp), dt)
    z = np.zeros((cls, _BLOCK), dt)
    work = np.zeros((cls, _BLOCK), dt)
    bits = np.empty(cls * _BLOCK, np.int32)
    lab = np.zeros(_BLOCK, dt)
    out = np.empty_like(theta)
    lr_, mu_, wd_, ridge_ = one * lr, one * mu, one * wd, one * ridge
    momentum = mu > 0
    has_corr = corr.shape[0] > 0
    fixed = rows.shape[0] > 0
    wf, gf, vf, cf = w.reshape(w.size), g.reshape(g.size), v.reshape(v.size), cr.reshape(cr.size)
    zf, workf = z.reshape(z.size), work.reshape(work.size)
    line = 64 // xy.itemsize  # values per cache line
    perm = np.empty(counts[kk].max() if epochs > 0 and m_rows > 0 else 0, dtype=np.int64)
    for m in np.argsort(kk, kind="mergesort"):  # a client's pairs in a row: its data in cache
        r, k = rr[m], kk[m]
        n = counts[k]
        for c in range(cls):
            for j in range(f):
                w[c, j] = theta[m, c * f + j]
        if momentum:
            for c in range(cls):
                for j in range(f):
                    v[c, j] = bufs[r, k, c * f + j]
        if has_corr:
            for c in range(cls):
                for j in range(f):
                    cr[c, j] = corr[m, c * f + j]
        per, n_steps = 1, steps
        if epochs > 0:
            per = -(-n // batch)
            n_steps = epochs * per
        elif fixed:
            n_steps = rows.shape[1]
        for s in range(n_steps):
            b, base = n, 0
            if epochs > 0:
                ep = s // per
                pos0 = (s - ep * per) * batch
                if pos0 == 0:
                    _shuffle(words[r], draw_start[k, ep], n, perm)
                b = min(batch, n - pos0)
                base = pos0
            elif fixed:
                b = rows.shape[2]
            scale = one / b
            g[:, :] = zero
            for s0 in range(0, b, _BLOCK):
                nb = min(_BLOCK, b - s0)
                nbp = -(-nb // 8) * 8
                for i in range(nb):
                    if epochs > 0:
                        row = offsets[k] + perm[base + s0 + i]
                    elif fixed:
                        row = rows[m, s, s0 + i]
                    else:
                        row = offsets[k] + s0 + i
                    _gather_row(xb, xy, i, row, f)
                    lab[i] = xy[row, f]
                for i in range(nb, nbp):
                    for j in range(f):
                        xb[i, j] = zero
                if s0 == 0 and s + 1 < n_steps:  # the next step's rows, while this one runs
                    if epochs > 0 and pos0 + batch < n:
                        for i in range(min(batch, n - pos0 - batch)):
                            row = offsets[k] + perm[pos0 + batch + i]
                            for j in range(0, f, line):
                                _prefetch(xy, row, j)
                            _prefetch(xy, row, f)
                    elif fixed:
                        for i in range(rows.shape[2]):
                            for j in range(0, f, line):
                                _prefetch(xy, rows[m, s + 1, i], j)
                            _prefetch(xy, rows[m, s + 1, i], f)
                _scores(w, xb, z, nbp, cls, fp, zero)
                _residuals(z, zf, lab, nb, nbp, scale, work, workf, bits, one)
                _accumulate(g, xb, z, nbp, cls, fp)
            if has_corr:  # d = ((g + correction) + ridge·θ) + wd·θ over the padded rows
                for q in range(wf.shape[0]):
                    gf[q] += cf[q]
            if momentum:
                _momentum_step(wf, gf, vf, lr_, mu_, wd_, ridge_)
            else:
                for q in range(wf.shape[0]):
                    th = wf[q]
                    wf[q] = th - lr_ * (gf[q] + ridge_ * th + wd_ * th)
        for c in range(cls):
            for j in range(f):
                out[m, c * f + j] = w[c, j]
        if momentum:
            for c in range(cls):
                for j in range(f):
                    bufs[r, k, c * f + j] = v[c, j]
    return out


linear_local = _kernel(_linear_local)


def _linear_eval(
    w: np.ndarray,
    xy: np.ndarray,
    owner: np.ndarray,
    weight: np.ndarray,
    groups: int,
    classes: int,
    want_loss: bool,
    want_correct: bool,
    first_nan: bool,
) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """(loss, correct), each (R, groups) float64: Σ_i weight_i·ℓ_i and Σ_i weight_i·[correct_i]
    over the samples i of each group ``owner[i]``, for R linear models w (R, P) on the samples
    [x, 1, y] of ``xy`` (S, f + 1): ℓ = logsumexp(z) − z_y (softmax, ``classes`` ≥ 2) or
    softplus(z) − y·z (binary, ``classes`` = 1). Correct, softmax: the predicted label is y
    (argmax, ties to the first class, as :meth:`SoftmaxRegression.correct
    <fltheory.sim.models.SoftmaxRegression.correct>`: a row with a NaN score is never correct),
    or with ``first_nan`` a row with a NaN score predicts its first NaN class (``torch.max``:
    the authors' rule, :func:`~fltheory.sim.problems.authors_correct`); binary: label 1 iff
    z > 0, as :meth:`LogisticRegression.predict
    <fltheory.sim.models.LogisticRegression.predict>`. Blocks of :data:`_BLOCK` samples, every
    model's scores by :func:`_scores`, exp and log through :func:`exp32` and :func:`log32` in
    float32; sums in float64.

    >>> import numpy as np
    >>> xy = np.array([[1.0, 1.0, 1.0], [-1.0, 1.0, 0.0]])  # [x, 1, y]: x = ±1, labels 1, 0
    >>> w = np.array([[0.0, 0.0, 2.0, 0.0]])  # two classes: scores 0 and 2x
    >>> one = np.zeros(2, dtype=np.int64)
    >>> loss, ok = linear_eval(w, xy, one, np.ones(2), 1, 2, True, True, False)
    >>> ok.tolist(), bool(np.isclose(loss[0, 0], 2 * np.log1p(np.exp(-2))))
    ([[2.0]], True)
    >>> nan = np.array([[0.0, 0.0, np.nan, 0.0]])  # class 1's score NaN
    >>> [linear_eval(nan, xy, one, np.ones(2), 1, 2, False, True, rule)[1].tolist()
    ...  for rule in (False, True)]  # the model's rule: never; the authors': predicts 1
    [[[0.0]], [[1.0]]]
    """
    r_models = w.shape[0]
    f = xy.shape[1] - 1
    fp = -(-f // 8) * 8
    dt = w.dtype
    one = np.ones(1, dt)[0]
    zero = one - one
    cls = classes
    single = w.itemsize == 4
    wp = np.zeros((r_models, cls, fp), dt)
    for r in range(r_models):
        for c in range(cls):
            for j in range(f):
                wp[r, c, j] = w[r, c * f + j]
    loss = np.zeros((r_models, groups))
    correct = np.zeros((r_models, groups))
    xb = np.zeros((_BLOCK, fp), dt)
    z = np.zeros((cls, _BLOCK), dt)
    work = np.zeros((cls, _BLOCK), dt)
    zf, workf = z.reshape(z.size), work.reshape(work.size)
    bits = np.empty(cls * _BLOCK, np.int32)
    top = np.zeros(_BLOCK, dt)
    tot = np.zeros(_BLOCK, dt)
    logs = np.zeros(_BLOCK, dt)
    zy = np.zeros(_BLOCK, dt)
    ok = np.zeros(_BLOCK, np.bool_)
    nan_at = np.zeros(_BLOCK, np.int64)
    lab = np.zeros(_BLOCK, np.int64)
    labf = np.zeros(_BLOCK, dt)
    n = xy.shape[0]
    for s0 in range(0, n, _BLOCK):
        nb = min(_BLOCK, n - s0)
        nbp = -(-nb // 8) * 8
        for i in range(nb):
            for j in range(f):
                xb[i, j] = xy[s0 + i, j]
            labf[i] = xy[s0 + i, f]
            lab[i] = np.int64(labf[i])
        for i in range(nb, nbp):
            for j in range(f):
                xb[i, j] = zero
            lab[i] = 0
            labf[i] = zero
        for r in range(r_models):
            _scores(wp[r], xb, z, nbp, cls, fp, zero)
            if cls == 1:
                for i in range(nbp):
                    zy[i] = z[0, i]
                    ok[i] = (zy[i] > zero) == (labf[i] > zero)
                if want_loss:  # softplus(z) − y·z = log(1 + exp(−|z|)) + max(z, 0) − y·z
                    for i in range(nbp):
                        top[i] = -abs(zy[i])
                    if single:
                        _exp32(top, work[0], bits)
                    else:
                        for i in range(nbp):
                            work[0, i] = np.exp(top[i])
                    for i in range(nbp):
                        tot[i] = one + work[0, i]
                    if single:
                        _log32(tot, logs, bits)
                    else:
                        for i in range(nbp):
                            logs[i] = np.log(tot[i])
                    for i in range(nbp):
                        logs[i] += max(zy[i], zero) - labf[i] * zy[i]
            else:
                for i in range(nbp):
                    zy[i] = z[lab[i], i]
                    ok[i] = True
                if want_correct:  # z_y beats every earlier class strictly, every later weakly
                    for c in range(cls):
                        for i in range(nbp):
                            zc = z[c, i]
                            ok[i] &= (zy[i] > zc) | ((zy[i] == zc) & (c >= lab[i]))
                    if first_nan:  # a row's first NaN, if any, is its prediction
                        for i in range(nbp):
                            nan_at[i] = cls
                        for c in range(cls - 1, -1, -1):
                            for i in range(nbp):
                                if z[c, i] != z[c, i]:
                                    nan_at[i] = c
                        for i in range(nbp):
                            if nan_at[i] < cls:
                                ok[i] = nan_at[i] == lab[i]
                if want_loss:
                    for i in range(nbp):
                        top[i] = z[0, i]
                    for c in range(1, cls):  # ≈ the max, as in _residuals
                        for i in range(nbp):
                            top[i] += max(z[c, i] - top[i], zero)
                    for c in range(cls):
                        for i in range(nbp):
                            z[c, i] -= top[i]
                    if single:
                        _exp32(zf, workf, bits)
                    else:
                        for q in range(zf.shape[0]):
                            workf[q] = np.exp(zf[q])
                    for i in range(nbp):
                        tot[i] = work[0, i]
                    for c in range(1, cls):
                        for i in range(nbp):
                            tot[i] += work[c, i]
                    if single:
                        _log32(tot, logs, bits)
                    else:
                        for i in range(nbp):
                            logs[i] = np.log(tot[i])
                    for i in range(nbp):
                        logs[i] += top[i] - zy[i]
            for i in range(nb):
                g = owner[s0 + i]
                if want_loss:
                    loss[r, g] += weight[s0 + i] * logs[i]
                if want_correct and ok[i]:
                    correct[r, g] += weight[s0 + i]
    return loss, correct


linear_eval = _kernel(_linear_eval)
