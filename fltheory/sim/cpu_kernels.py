"""Compiled kernels (numba) for the plain-SGD local step: minibatch rows and logistic steps.

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
Softmax regression keeps torch's batched matmuls, faster than a compiled loop at P = 610.
``cache=False``: the kernels compile in each process on their first call (about a second each;
the benchmark prints it).

:data:`AVAILABLE` is False where numba is not installed; the problems then keep the torch path.
"""

from typing import Any

import numpy as np

try:
    import numba
except ImportError:  # pragma: no cover - numba is a dependency; the torch path covers its absence
    numba = None

#: Whether the compiled kernels can run here.
AVAILABLE = numba is not None

_HIGH = np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)


def _jit(fn: Any) -> Any:
    if numba is None:  # pragma: no cover
        return fn
    return numba.njit(cache=False, fastmath={"reassoc", "contract"}, nogil=True)(fn)


@_jit
def sample_rows(words, slot, rr, kk, counts, offsets, steps, batch):  # pragma: no cover
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


@_jit
def logistic_sgd(theta, rows, xy, lr, ridge):  # pragma: no cover
    """(M, d + 1) parameters after E plain SGD steps of binary logistic regression from
    ``theta`` (M, d + 1), step j of pair m on samples ``rows[m, j]`` (rows of ``xy`` (S, d + 2),
    [x, 1, y] per sample); the arithmetic in theta's dtype.

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
    xt = np.empty((p + 1, batch), dtype=out.dtype)  # the minibatch, features by samples
    r = np.empty(batch, dtype=out.dtype)
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
                    r[i] += xt[f, i] * vf
            for i in range(batch):
                r[i] = one / (one + np.exp(-r[i])) - xt[p, i]
            for f in range(p):
                g = zero
                for i in range(batch):
                    g += r[i] * xt[f, i]
                vec[f] = beta * vec[f] - alpha * g
    return out
