"""Compiled kernels (numba) for the plain-SGD local step of logistic regression on CPU.

:func:`sample_rows` turns a small :class:`~fltheory.sim.batches.BatchPlan`'s raw words into
the sample rows of the participating (repetition, client) pairs only — the multiply-shift of
:func:`~fltheory.sim.batches.draw_indices`, the same numbers — instead of a whole block of
indices for every pair. :func:`logistic_sgd` runs E plain SGD steps of binary logistic
regression for M pairs in one call, reading the samples straight from the problem's [x, 1, y]
matrix: the torch path's steps (:meth:`LogisticRegression.local_sgd
<fltheory.sim.models.LogisticRegression.local_sgd>`, θ ← (1 − lr·ridge)·θ − (lr/B)·Σ_i r_i x_i)
with sums in another order, so the two agree to rounding (the tests hold them to 1e-5 in
float32). The kernels may reassociate sums and contract multiply-adds (numba's ``fastmath``
flags ``reassoc`` and ``contract`` only: no assumption that values are finite); a machine with
other vector units may round differently, one machine gives the same bytes every run.
Softmax regression keeps torch's batched matmuls (a compiled loop was about 2x slower at
P = 610, and its rows alone gained nothing measurable).
:class:`~fltheory.sim.problems.DataProblem` picks these kernels by itself (``compiled``).

Numba is imported, and the kernels compiled, on the first call of a kernel, so importing the
simulator stays cheap. ``cache=True``: the first process on a machine compiles (about 2 s, the
benchmark prints it) and writes numba's cache (``__pycache__`` beside this module, or numba's
user cache where that is read-only); later processes load it (about 0.5 s with numba's import,
measured here). Numba recompiles when this file changes.

:data:`AVAILABLE` is False where numba is not installed; the problems then keep the torch path
(the kernels still run, as plain Python).
"""

import functools
import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np

#: Whether numba is installed (the compiled kernels can run here).
AVAILABLE = importlib.util.find_spec("numba") is not None

_HIGH = np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)

#: name -> the kernel that runs: numba's compiled function (plain Python without numba).
_RUN: dict[str, Callable[..., Any]] = {}
_PYTHON: dict[str, Callable[..., Any]] = {}


def _compile() -> None:
    """Compile every kernel (in definition order: a kernel calls the private name of one
    defined before it, rebound here to its compiled version)."""
    import numba

    for name, fn in _PYTHON.items():
        compiled = numba.njit(cache=True, fastmath={"reassoc", "contract"}, nogil=True)(fn)
        globals()[name] = _RUN[name] = compiled


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


def _sample_rows(words, slot, rr, kk, counts, offsets, steps, batch):  # pragma: no cover
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

#: exp's argument range in :func:`exp32` (2^k stays a normal float32).
_EXP_LO, _EXP_HI = np.float32(-87.0), np.float32(88.0)
_LOG2E, _LN2_HI, _LN2_LO = (
    np.float32(1.4426950408889634),
    np.float32(0.693359375),
    np.float32(-2.12194440e-4),
)
#: Cephes ``expf``'s polynomial for exp(x) on |x| <= ln(2)/2 (degree 7, x² and x folded in).
_EXP_POLY = (
    np.float32(1.9875691500e-4),
    np.float32(1.3981999507e-3),
    np.float32(8.3334519073e-3),
    np.float32(4.1665795894e-2),
    np.float32(1.6666665459e-1),
    np.float32(5.0000001201e-1),
)


def _exp32(v, out, bits):  # pragma: no cover
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


def _logistic_sgd(theta, rows, xy, lr, ridge):  # pragma: no cover
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
