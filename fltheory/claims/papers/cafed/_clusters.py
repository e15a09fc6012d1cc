"""CA-Fed clusters of clients sharing independent two-state chains (registers nothing): the
margin of ToN §V-B(e) (INFOCOM §VI-B) — excluding clients lowers λ(P) only if every client of a
cluster attaining max_c |λ_c| is excluded — with its instance space, shared by the journal's
claim (``s5b_clients``) and the INFOCOM copy's (``cafed_infocom``); :func:`dense_lam` (λ(P) of
⊗ₖ Pₖ from dense eigenvalues, eqs. 229, 236) is also Guideline B's oracle.

>>> import numpy as np
>>> round(dense_lam(np.array([0.5, 0.5]), np.array([0.2, 0.6])), 12)
0.8
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fltheory.claims.papers.cafed._chains import lambda2_low
from fltheory.claims.space import Instance, Integer, Real, Space


def _cluster_setup(inst: Instance) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(ClusteredChain, π_c, λ_c, assignment, excluded mask)."""
    from fltheory.markov import ClusteredChain

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    C = pi.size
    rest = np.asarray(inst["assign"], dtype=float)
    assignment = np.concatenate([np.arange(C), np.minimum((rest * C).astype(int), C - 1)])
    excluded = np.concatenate(
        [np.asarray(inst["ex_first"]) < 0.5, np.asarray(inst["ex_rest"]) < 0.5]
    )
    return ClusteredChain(pi, l2, assignment), pi, l2, assignment, excluded


def dense_lam(pi: np.ndarray, l2: np.ndarray) -> float:
    """λ(P) of ⊗ₖ Pₖ from numpy's eigenvalues of the dense Kronecker matrix (eq. 236 factors)."""
    P = np.ones((1, 1))
    for x, y in zip(pi, l2, strict=True):
        a = 1.0 - y
        P = np.kron(P, np.array([[1.0 - a * x, a * x], [a * (1.0 - x), 1.0 - a * (1.0 - x)]]))
    eig = np.linalg.eigvals(P)
    eig = np.delete(eig, np.argmin(np.abs(eig - 1.0)))
    return (float(np.max(np.abs(eig))) + 1.0) / 2.0 if eig.size else 0.5


def sec5e_margin(inst: Instance) -> float:
    chain, pi, l2, assignment, excluded = _cluster_setup(inst)
    reduced = chain.exclude(excluded)  # InputError when every client is excluded
    kept = np.unique(assignment[~excluded])
    lam_full = dense_lam(pi, l2)
    lam_red = dense_lam(pi[kept], l2[kept])
    consistency = 1e-9 - max(abs(chain.lam - lam_full), abs(reduced.lam - lam_red))
    top = np.abs(l2) == np.max(np.abs(l2))
    if np.isin(np.flatnonzero(top), kept).any():  # some client of c̄ = argmax |λ_c| is kept
        return min(consistency, 1e-9 - abs(lam_full - reduced.lam))
    return consistency


#: Clusters of clients sharing independent two-state chains (also the INFOCOM copy's §VI-B).
SEC5E_SPACE = Space(
    [
        Integer("C", 1, 6),
        Real("pi", 0.0, 1.0, size="C", special=(0.5, 0.1, 0.9)),
        Real("l2", lambda2_low, 1.0, size="C", closed=(True, False), special=(0.0, 0.5, 0.9)),
        Integer("N", 0, 12),
        Real("assign", 0.0, 1.0, size="N", closed=(True, False)),
        Real("ex_first", 0.0, 1.0, size="C", closed=(True, True)),
        Real("ex_rest", 0.0, 1.0, size="N", closed=(True, True)),
    ]
)
