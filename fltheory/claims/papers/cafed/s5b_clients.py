"""CA-Fed (ToN) §V-B: (d) the hitting time max_k 1/((1 − λ_k)π_k) of the slowest chain (and its
value 100 for the population), (e) clusters (λ(P) falls only if every client of c̄ = argmax λ_c
is excluded), and Fig. 4a (the estimation errors of π_k and λ_k, Monte Carlo).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.papers.cafed._chains import clients_params, two_state_exact
from fltheory.claims.papers.cafed._clusters import SEC5E_SPACE, sec5e_margin
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _hitting(inst: Instance, exact: bool = False) -> Any:
    from fltheory.markov import ProductChain

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    with np.errstate(over="ignore", divide="ignore"):
        code = ProductChain(pi, l2).hitting_time
    worst = Fraction(0)
    for x, y in zip(pi, l2, strict=True):
        X = two_state_exact(Fraction(float(x)), Fraction(float(y)))
        # first-step analysis from "inactive": h = 1 + P₀₀·h, so h = 1/(1 − P₀₀)
        worst = max(worst, 1 / (1 - X[0][0]))
    if not math.isfinite(code):
        if worst > Fraction(np.finfo(float).max):
            raise NumericalError("the hitting time overflows a double")
        return -1.0
    rel = abs(Fraction(code) - worst) / worst
    return Fraction(1, 10**12) - rel if exact else float(1e-12 - rel)


register_claim(
    "cafed:hitting-time",
    "§V-B(d)",
    "max_k 1/((1 − λ_k)π_k) is the expected hitting time of the slowest chain",
    (349, 349),
    "for independent two-state clients, max_k 1/((1 − λ₂,k)π_k) is the largest expected time "
    "an inactive client waits before its next active round (first-step analysis of eq. 236)",
    space=Space(clients_params(8)),
    margin=_hitting,
    exact=lambda i: (Fraction(_hitting(i, True)), "first-step analysis in exact rationals"),
    tolerance=0.0,
    budget=800,
    expected="holds",
    notes="Code path ProductChain.hitting_time; oracle: E₀[τ_active] = 1/(1 − P₀₀) solved "
    "exactly for each client's rational eq.-236 matrix; margin 1e-12 − relative difference. "
    "'Hitting time' read as the wait from inactive to active (the expected return time to the "
    "active state is 1/π, a different quantity). π → 0 makes it unbounded (1e12 at π = 1e-12).",
)


def _hitting_population(inst: Instance) -> float:
    from fltheory.markov.population import ca_fed_population

    pop = ca_fed_population(
        n=int(inst["n"]), seed=int(inst["seed"]), split="random" if int(inst["split"]) else "blocks"
    )
    return 1e-12 - abs(pop.chain().hitting_time / 100.0 - 1.0)


register_claim(
    "cafed:hitting-time-population",
    "§V-B(d)",
    "max_k 1/((1 − λ_k)π_k) = 100 for the population",
    (349, 349),
    "for the population of §V-A(a) with g = 0.4, ν = 0.9, ε = 10⁻², max_k 1/((1 − λ_k)π_k) = 100",
    space=Space([Integer("n", 4, 2000), Integer("seed", 0, 10**6), Integer("split", 0, 1)]),
    margin=_hitting_population,
    tolerance=0.0,
    budget=300,
    expected="holds",
    notes="Attained by the less available, correlated clients: 1/((1 − 0.9)·0.1) = 100 "
    "(1 + 3e-16 in floats); a weakly correlated client would need λ₂ ≥ 0.9 from N(0, 10⁻⁴). "
    "Margin 1e-12 − relative difference. No exact margin needed (one float formula).",
)

register_claim(
    "cafed:sec5e-cluster",
    "§V-B(e)",
    "λ(P) falls only if all clients of c̄ = argmax λ_c are excluded",
    (351, 353),
    "with clusters of clients sharing independent two-state chains, excluding clients lowers "
    "λ(P) only if every client of every cluster attaining max_c |λ_c| is excluded; and λ(P′) "
    "is the product chain's over the clusters that keep a client",
    space=SEC5E_SPACE,
    margin=sec5e_margin,
    tolerance=0.0,
    budget=300,
    expected="holds",
    notes="Clients 0..C−1 seed the C clusters, N more are assigned by 'assign'; a client is "
    "excluded when its 'ex' entry is < ½. Code path ClusteredChain.exclude(...).lam; oracle: "
    "numpy eigenvalues of the dense Kronecker matrix of the clusters that keep a client. "
    "Margin 1e-9 − |Δλ| (library vs dense, before and after), and, when a client of an "
    "argmax cluster is kept, 1e-9 − |λ(P) − λ(P′)|. No exact margin (floats compare the same "
    "closed form); ties in |λ_c| (e.g. λ_c = ±½) are in the space.",
)


FIG4A_GRID = np.round(10.0 ** np.arange(1.0, 4.01, 0.5)).astype(int)  # t′ = 10 … 10⁴
FIG4A_REPS = 8
FIG4A_Z = 5.0


def _fig4a_errors(inst: Instance, reps: int, stream: str) -> tuple[np.ndarray, np.ndarray]:
    """Per replication and t′ of the grid: (mean_k |π̂ − π|, mean_k |λ̂ − λ|), shape (reps, 7)."""
    from fltheory.markov import ProductChain
    from fltheory.markov.estimators import BetaPrior, Priors, estimate_availability
    from fltheory.markov.population import ca_fed_population
    from fltheory.rng import generator

    seed = int(inst["seed"])
    a = float(inst["prior"])
    pop = ca_fed_population(100, 0.4, 0.9, 1e-2, seed=seed)
    chain = ProductChain(np.tile(pop.pi, reps), np.tile(pop.lambda2, reps))
    trace = chain.sample(int(FIG4A_GRID[-1]), generator(seed, stream))
    prior = BetaPrior(a, a)
    priors = Priors(pi=prior, up=prior, down=prior)
    err_pi, err_lam = [], []
    for t in FIG4A_GRID:  # the estimates after t′ observations (prefix of the trace)
        est = estimate_availability(trace[:t], priors)
        err_pi.append(np.abs(est.pi - chain.client_availability).reshape(reps, -1).mean(axis=1))
        err_lam.append(np.abs(est.lambda2 - chain.lambda2).reshape(reps, -1).mean(axis=1))
    return np.array(err_pi).T, np.array(err_lam).T


def _band(x: np.ndarray) -> np.ndarray:
    """mean + z·SE over replications (axis 0): negative only when significantly negative."""
    return x.mean(axis=0) + FIG4A_Z * x.std(axis=0, ddof=1) / math.sqrt(x.shape[0])


def _fig4a_lambda_exceeds(inst: Instance, reps: int = FIG4A_REPS, stream: str = "fig4a") -> float:
    e_pi, e_lam = _fig4a_errors(inst, reps, stream)
    return float(np.min(_band(e_lam - e_pi)))


def _fig4a_decreasing(inst: Instance, reps: int = FIG4A_REPS, stream: str = "fig4a") -> float:
    e_pi, e_lam = _fig4a_errors(inst, reps, stream)
    drops = [e[:, :-1] - e[:, 1:] for e in (e_pi, e_lam)]
    return float(min(np.min(_band(d)) for d in drops))


def _fig4a_space() -> Space:
    return Space(
        [
            Integer("seed", 0, 10**6),
            Real("prior", 0.1, 20.0, closed=(True, True), special=(1.0,)),
        ]
    )


_FIG4A_NOTES = (
    "Monte Carlo: the paper's population (N = 100, g = 0.4, ν = 0.9, ε = 10⁻²), "
    f"{FIG4A_REPS} independent replications of each client's chain over t′ = 10⁴ rounds from "
    "stationarity (ProductChain.sample), estimate_availability on the first t′ rounds with "
    "Beta(a, a) priors on π and on "
    "both transition probabilities (the paper leaves n_k, m_k unstated; a ∈ [0.1, 20]), errors "
    "at t′ ∈ {10, 10^1.5, …, 10⁴}. Band: a violation must be significant, mean + 5·SE < 0 "
    "over the replications. 'Exact' re-evaluation: an independent Monte Carlo (another stream) "
    f"with {4 * FIG4A_REPS} replications. Budget 10 (0.15–0.4 s per evaluation). "
)

register_claim(
    "cafed:fig4a-estimation-errors-lambda-exceeds-pi",
    "§V-B(d), Fig. 4a",
    "the estimation error for λ_k is larger than that for π_k",
    (349, 349),
    "at every t′ of Fig. 4a, mean_k |λ̂_k − λ_k| > mean_k |π̂_k − π_k| (in expectation)",
    space=_fig4a_space(),
    margin=_fig4a_lambda_exceeds,
    exact=lambda i: (
        Fraction(_fig4a_lambda_exceeds(i, 4 * FIG4A_REPS, "fig4a/confirm")),
        f"independent Monte Carlo, {4 * FIG4A_REPS} replications, z = 5",
    ),
    tolerance=0.0,
    budget=10,
    expected="holds",
    notes=_FIG4A_NOTES + "Margin: min over t′ of the band of err_λ − err_π.",
)

register_claim(
    "cafed:fig4a-estimation-errors-decreasing",
    "§V-B(d), Fig. 4a",
    "both errors decrease with the number of observations t′",
    (349, 349),
    "mean_k |π̂_k − π_k| and mean_k |λ̂_k − λ_k| decrease (in expectation) from each t′ of "
    "Fig. 4a to the next",
    space=_fig4a_space(),
    margin=_fig4a_decreasing,
    exact=lambda i: (
        Fraction(_fig4a_decreasing(i, 4 * FIG4A_REPS, "fig4a/confirm")),
        f"independent Monte Carlo, {4 * FIG4A_REPS} replications, z = 5",
    ),
    tolerance=0.0,
    budget=10,
    expected="holds",
    notes=_FIG4A_NOTES + "Margin: min over consecutive t′ and both errors of the band of "
    "err(t′ᵢ) − err(t′ᵢ₊₁).",
)
