"""Hypothesis strategies for aggregation-weight problems (14) and (212): (π, α, s, v, Q).

Magnitudes are drawn log-uniformly so that both regimes of problem (212) appear: v ≫ sQ²
(θ* > 0, the least available clients are excluded) and v ≪ sQ² (every client active).
"""

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

#: How s = diag(Σ) is drawn: independent, one common value, ∝ π (equal σ_k in eq. 13:
#: Σ_kk = 2(E+1)σ_k²π_kΣηₜ²), or independent with some exact zeros.
S_MODES = ("random", "equal", "proportional", "with_zeros")


@dataclass(frozen=True)
class WeightInstance:
    """One instance: availabilities, target weights, diag(Σ), v and the total weight Q."""

    pi: np.ndarray
    alpha: np.ndarray
    s: np.ndarray
    v: float
    Q: float

    @property
    def n(self) -> int:
        return int(self.pi.size)


def _log_uniform(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(np.log(lo), np.log(hi)).map(lambda x: float(np.exp(x)))


@st.composite
def weight_instances(
    draw: st.DrawFn,
    min_clients: int = 1,
    max_clients: int = 8,
    s_mode: str = "random",
    min_pi: float = 0.02,
) -> WeightInstance:
    """A random (π, α, s, v, Q) instance; α > 0 on the simplex, π ∈ [min_pi, 1].

    >>> from hypothesis import given, settings
    >>> from fltheory.optimize import solve_closed_form
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(weight_instances())
    ... def test(inst):
    ...     q = solve_closed_form(inst.pi, inst.s, inst.v, inst.Q).q  # problem (212)
    ...     assert abs(q.sum() - inst.Q) <= 1e-9 * inst.Q
    >>> test()
    """
    if s_mode not in S_MODES:
        raise ValueError(f"s_mode must be one of {S_MODES}")
    n = draw(st.integers(min_clients, max_clients))
    pi = np.array(draw(st.lists(st.floats(min_pi, 1.0), min_size=n, max_size=n)))
    raw_alpha = np.array(draw(st.lists(st.floats(0.01, 1.0), min_size=n, max_size=n)))
    if s_mode == "equal":
        s = np.full(n, draw(_log_uniform(1e-2, 1e2)))
    elif s_mode == "proportional":
        s = draw(_log_uniform(1e-2, 1e2)) * pi
    else:
        s = np.array(draw(st.lists(_log_uniform(1e-2, 1e2), min_size=n, max_size=n)))
        if s_mode == "with_zeros":
            zeros = draw(st.lists(st.booleans(), min_size=n, max_size=n))
            s = np.where(zeros, 0.0, s)
    v = draw(_log_uniform(1e-3, 1e3))
    Q = draw(_log_uniform(0.1, 10.0))
    return WeightInstance(pi=pi, alpha=raw_alpha / raw_alpha.sum(), s=s, v=v, Q=Q)


def simplex_reference_minimum(
    f, n: int, Q: float, seed: int, starts: int = 8, lower: float = 0.0
) -> np.ndarray:
    """Brute-force reference: best SLSQP local minimum of f on {q ≥ lower, Σq = Q}.

    Starts: the uniform point, each vertex-biased point, and random Dirichlet points from
    :func:`fltheory.rng.generator`. Independent of fltheory's solvers; for tests only.
    """
    from scipy.optimize import minimize

    from fltheory.rng import generator

    rng = generator(seed, "simplex-reference")
    x0s = [np.full(n, Q / n)]
    x0s += [Q * (0.5 * np.eye(n)[k] + 0.5 / n) for k in range(min(n, starts))]
    x0s += [Q * rng.dirichlet(np.ones(n)) for _ in range(starts)]
    best_x, best_f = None, np.inf
    for x0 in x0s:
        res = minimize(
            f,
            np.maximum(x0, lower),
            method="SLSQP",
            bounds=[(lower, Q)] * n,
            constraints=[{"type": "eq", "fun": lambda q: q.sum() - Q}],
            options={"ftol": 1e-15, "maxiter": 2000},
        )
        if np.isfinite(res.fun) and res.fun < best_f:
            best_x, best_f = res.x, float(res.fun)
    if best_x is None:
        raise RuntimeError("no SLSQP start converged")
    return np.asarray(best_x)
