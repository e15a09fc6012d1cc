"""Strategies, brute-force oracles and simulators for checking :mod:`fltheory.limits`.

Oracles here never call the code they check: they enumerate all 2^m availability sets (exact
rationals where it matters) or simulate the algorithms round by round with seeded streams from
:func:`fltheory.rng.generator`.
"""

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st
from scipy.signal import fftconvolve
from scipy.stats import binom

from fltheory.limits.aggregation import Aggregation
from fltheory.rng import generator

#: Probabilities at the edges of what Proposition 1 must handle.
EXTREME_PROBABILITIES = (1e-6, 1.0 - 1e-6, 1e-3, 0.5, 0.999)


def probabilities(*, lower: float = 1e-6, upper: float = 1.0 - 1e-6) -> st.SearchStrategy[float]:
    """One link probability: extremes mixed with uniform draws in [lower, upper]."""
    edges = [v for v in EXTREME_PROBABILITIES if lower <= v <= upper]
    return st.one_of(st.sampled_from(edges), st.floats(lower, upper))


def probability_vectors(
    min_size: int = 1, max_size: int = 12, *, lower: float = 1e-6, upper: float = 1.0 - 1e-6
) -> st.SearchStrategy[np.ndarray]:
    """Vectors of link probabilities (each entry from :func:`probabilities`).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(probability_vectors(max_size=4))
    ... def test(p):
    ...     assert p.size <= 4 and ((0.0 < p) & (p < 1.0)).all()
    >>> test()
    """
    return st.lists(
        probabilities(lower=lower, upper=upper), min_size=min_size, max_size=max_size
    ).map(np.array)


def client_points(m: int, d: int) -> st.SearchStrategy[np.ndarray]:
    """An m×d matrix of client optima u_k with entries in [−10, 10]."""
    entries = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
    return st.lists(entries, min_size=m * d, max_size=m * d).map(
        lambda xs: np.array(xs).reshape(m, d)
    )


def aggregations(m: int) -> st.SearchStrategy[Aggregation]:
    """Aggregation rules with positive q (unnormalised or normalised) and a server step.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(aggregations(3))
    ... def test(aggregation):
    ...     assert aggregation.server_lr > 0.0 and aggregation.weights_for(3).sum() > 0.0
    >>> test()
    """
    weights = st.lists(st.floats(0.05, 1.0), min_size=m, max_size=m).map(np.array)
    return st.builds(
        Aggregation, q=weights, normalised=st.booleans(), server_lr=st.floats(0.2, 1.0)
    )


@st.composite
def two_state_clients(draw: st.DrawFn, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(π, λ₂) for n two-state clients inside the admissible range of CA-Fed eq. 236."""
    pi = np.array([draw(st.floats(0.05, 0.95)) for _ in range(n)])
    lower = 1.0 - 1.0 / np.maximum(pi, 1.0 - pi)
    frac = np.array([draw(st.floats(0.0, 0.95)) for _ in range(n)])
    return pi, lower + frac * (0.95 - lower)


def availability_sets(m: int) -> np.ndarray:
    """All 2^m availability sets as a 2^m × m 0/1 matrix."""
    return np.array(list(itertools.product((0, 1), repeat=m)), dtype=np.int8)


def set_probabilities(p: np.ndarray) -> np.ndarray:
    """P(A = S) for every row S of :func:`availability_sets` (float, all terms positive)."""
    sets = availability_sets(p.size)
    return np.prod(np.where(sets == 1, p, 1.0 - p), axis=1)


def fedavg_weights_enumeration(p: list[Fraction]) -> list[Fraction]:
    """E[1{i∈A}/|A| | A ≠ ∅] exactly, summing over all 2^m sets (the definition)."""
    m = len(p)
    totals = [Fraction(0)] * m
    p_any = Fraction(0)
    for bits in itertools.product((0, 1), repeat=m):
        size = sum(bits)
        if size == 0:
            continue
        prob = Fraction(1)
        for b, v in zip(bits, p, strict=True):
            prob *= v if b else 1 - v
        p_any += prob
        for i, b in enumerate(bits):
            if b:
                totals[i] += prob / size
    return [t / p_any for t in totals]


def fedavg_weights_literal(p: list[Fraction]) -> list[Fraction]:
    """Proposition 1 exactly as printed, the inner sum over explicit (j−1)-subsets."""
    m = len(p)
    none = Fraction(1)
    for v in p:
        none *= 1 - v
    weights = []
    for i in range(m):
        rest = p[:i] + p[i + 1 :]
        bracket = Fraction(1)
        for j in range(2, m + 1):
            inner = Fraction(0)
            for subset in itertools.combinations(rest, j - 1):
                term = Fraction(1)
                for v in subset:
                    term *= v
                inner += term
            bracket += Fraction((-1) ** (j + 1), j) * inner
        weights.append(p[i] * bracket / (1 - none))
    return weights


def two_group_weights(n0: int, p0: float, n1: int, p1: float) -> tuple[float, float]:
    """Proposition 1 weights when n0 clients have p0 and n1 have p1 (the paper's Section VI).

    K_i = |A ∖ {i}| is a sum of two binomials; its pmf is their convolution (FFT), and
    w = p E[1/(1 + K)]/P(A ≠ ∅) for a client of either group. Independent of the quadrature.
    """

    def harmonic(n_same: int, p_same: float, n_other: int, p_other: float) -> float:
        pmf = fftconvolve(
            binom.pmf(np.arange(n_same), n_same - 1, p_same),
            binom.pmf(np.arange(n_other + 1), n_other, p_other),
        )
        pmf = np.clip(pmf, 0.0, None)
        return float(pmf @ (1.0 / np.arange(1, pmf.size + 1)))

    p_any = -np.expm1(n0 * np.log1p(-p0) + n1 * np.log1p(-p1))
    w0 = p0 * harmonic(n0, p0, n1, p1) / p_any
    w1 = p1 * harmonic(n1, p1, n0, p0) / p_any if n1 else 0.0
    return w0, w1


def expected_coefficients_enumeration(p: np.ndarray, aggregation: Aggregation) -> np.ndarray:
    """η̄ E[c_k(A)] by summing over all 2^m sets (float)."""
    sets = availability_sets(p.size)
    return set_probabilities(p) @ aggregation.coefficients(sets)


def mixing_enumeration(p: np.ndarray) -> np.ndarray:
    """E[W] for FedPBC's mixing matrix, built set by set."""
    m = p.size
    out = np.zeros((m, m))
    for bits, prob in zip(availability_sets(m), set_probabilities(p), strict=True):
        W = mixing_matrix(bits.astype(bool))
        out += prob * W
    return out


def mixing_matrix(active: np.ndarray) -> np.ndarray:
    """W for one active set (FedPBC Section IV): 1/|A| on A × A, identity elsewhere."""
    W = np.eye(active.size)
    if active.any():
        W[np.ix_(active, active)] = 1.0 / active.sum()
    return W


def lemma2_exact(p: np.ndarray, B: np.ndarray, t: int) -> float:
    """E‖B(W_1⋯W_t − J)‖_F² exactly: S ← E[W S W] t times from S = I − J, then tr(B S Bᵀ)."""
    m = p.size
    mats = [mixing_matrix(bits.astype(bool)) for bits in availability_sets(m)]
    probs = set_probabilities(p)
    S = np.eye(m) - np.full((m, m), 1.0 / m)
    for _ in range(t):
        S = sum(pr * W @ S @ W for pr, W in zip(probs, mats, strict=True))
    return float(np.trace(B @ S @ B.T))


def lemma2_monte_carlo(
    p: np.ndarray, B: np.ndarray, t: int, runs: int, seed: int
) -> tuple[float, float]:
    """(mean, standard error) of ‖B(W_1⋯W_t − J)‖_F² over independent runs."""
    rng = generator(seed, "limits.lemma2")
    m = p.size
    values = np.empty(runs)
    for r in range(runs):
        product = np.eye(m)
        for _ in range(t):
            product = product @ mixing_matrix(rng.random(m) < p)
        values[r] = np.sum((B @ (product - 1.0 / m)) ** 2)
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(runs))


def simulate_isotropic(
    sample_sets,
    u: np.ndarray,
    aggregation: Aggregation,
    gains: np.ndarray,
    *,
    rounds: int,
    burn_in: int,
    runs: int,
    center: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Run x ← x + Σ_k γ_k η̄ c_k(A)(u_k − x) for ``runs`` independent copies from x = 0.

    ``sample_sets(t)`` returns the runs × N 0/1 availability matrix of round t. Returns the
    per-run time averages of x_t (runs × d) and of ‖x_t − center‖², both over t ≥ burn_in.
    """
    x = np.zeros((runs, u.shape[1]))
    mean = np.zeros_like(x)
    square = np.zeros(runs)
    for t in range(rounds):
        if t >= burn_in:
            mean += x
            square += np.sum((x - center) ** 2, axis=1)
        effect = aggregation.coefficients(sample_sets(t)) * gains
        x = x + effect @ u - effect.sum(axis=1, keepdims=True) * x
    kept = rounds - burn_in
    return mean / kept, square / kept


def bernoulli_sampler(p: np.ndarray, runs: int, seed: int):
    """Independent links: round t's sets for all runs."""
    rng = generator(seed, "limits.bernoulli-sets")
    return lambda _t: (rng.random((runs, p.size)) < p).astype(np.int8)


def markov_sampler(P: np.ndarray, active: np.ndarray, runs: int, seed: int):
    """A chain started from its stationary law (given as the first left eigenvector)."""
    rng = generator(seed, "limits.markov-sets")
    values, vectors = np.linalg.eig(P.T)
    pi = np.real(vectors[:, np.argmin(np.abs(values - 1.0))])
    pi = pi / pi.sum()
    cumulative = np.cumsum(P, axis=1)
    state = rng.choice(P.shape[0], size=runs, p=pi)

    def sample(_t: int) -> np.ndarray:
        nonlocal state
        sets = active[state]
        draws = rng.random(runs)[:, None]
        state = np.minimum((cumulative[state] < draws).sum(axis=1), P.shape[0] - 1)
        return sets

    return sample


def simulate_fedpbc(
    p: np.ndarray, u: np.ndarray, gamma: float, *, rounds: int, burn_in: int, runs: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2 on F_i = ½‖x − u_i‖²: per-run time averages of x̄ and of the PS model."""
    rng = generator(seed, "limits.fedpbc")
    m, d = u.shape
    clients = np.zeros((runs, m, d))
    server = np.zeros((runs, d))
    avg_bar = np.zeros((runs, d))
    avg_server = np.zeros((runs, d))
    for t in range(rounds):
        local = (1.0 - gamma) * clients + gamma * u[None]
        active = rng.random((runs, m)) < p
        count = active.sum(axis=1)
        pooled = np.einsum("rm,rmd->rd", active, local) / np.maximum(count, 1)[:, None]
        server = np.where(count[:, None] > 0, pooled, server)
        clients = np.where(active[:, :, None], server[:, None, :], local)
        if t >= burn_in:
            avg_bar += clients.mean(axis=1)
            avg_server += server
    kept = rounds - burn_in
    return avg_bar / kept, avg_server / kept
