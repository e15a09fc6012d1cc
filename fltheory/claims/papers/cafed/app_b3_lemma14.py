"""CA-Fed (ToN, 002 App. B3) — Lemma 14, eq. (133), with C₁ of eq. (134): the bound itself,
with exact expectations on Theorem 2's instances (:mod:`._chainrun`; the steps of its proof are
in :mod:`.app_b3_lemma14_proof`).

>>> from fltheory.claims import CLAIMS
>>> from fltheory.claims.papers.cafed._chainrun import BASE_INSTANCE
>>> CLAIMS.get("cafed:lemma14-eq133").margin(BASE_INSTANCE) > 0
True
"""

import math
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.space import Instance, Space
from fltheory.errors import NumericalError


# --- Lemma 14, eq. (133): the bound itself, with exact expectations ------------------------------
def _l133_run(inst: Instance) -> Any:
    from fltheory.claims.papers.cafed import _chainrun as cr

    run = cr.ChainRun(inst)
    with np.errstate(all="ignore"):
        sizes = (run.L, run.r, run.r_W, float(run.h.min()), run.eta1, float(run.p.min()))
    if not all(math.isfinite(x) and x > 0.0 for x in sizes):
        raise NumericalError("degenerate instance: L, h_k, r or η₁ under/overflows a double")
    run.check_cost()
    return run


def _l133_log_K(run: Any) -> float:
    """ln(2C_PH) with H enlarged to 1/(2C_P) where the supremum of Lemma 1 gives 2C_PH < 1 (any
    upper bound is a valid H; C₁ is meant positive)."""
    return max(float(run.log_K), 0.0)


def _l133_delays(run: Any, ts: np.ndarray) -> np.ndarray:
    from fltheory.bounds.series import delays

    return delays(ts, _l133_log_K(run), run.ell, int(run.chain.T_P))


def _l133_lhs(run: Any) -> tuple[float, float]:
    """(max over t₀ of Σ_{t=t₀}^T η_tE[Σ_{k∈A_t}q_k(F_k(w_{t−J_t,0}) − F_k(w_{t,0}))], the
    rounds with J_t < t (w_{0,0} is not defined; the first rounds are capped, J_t = t).

    Exact expectations from the moment recursion (:mod:`._chainrun`): m_t[a, k] =
    E[F_k(w_t)1{A_t = a}], and by the Markov property (w_s depends on A_1…A_{s−1} only)
    E[F_k(w_s)1{k ∈ A_t}] = Σ_b m_s[b, k]·P(k ∈ A_t | A_s = b) = Σ_b m_s[b, k][P^{t−s}·1_k]_b;
    and the size Σ_t η_tΣ_kq_k(|E[F_k(w_{t−J_t})1{k ∈ A_t}]| + |E[F_k(w_t)1{k ∈ A_t}]|) of the
    terms, the scale of the rounding error of their differences)."""
    from fltheory.claims.papers.cafed import _quadratic as quad

    res = run.moments()
    n, T = run.n, run.T
    sets = quad.active_sets(n)
    member = np.array([[1.0 if k in s else 0.0 for k in range(n)] for s in sets])
    P = np.array(quad.product_matrix(list(run.pi), list(run.lambda2)), dtype=float)
    rho = np.array(quad.product_matrix(list(run.pi), [0.0] * n)[0], dtype=float)
    g_B = 0.5 * run.h * np.sum((run.w_B[None, :] - run.u) ** 2, axis=1)  # F_k(w_B*), F_k* = 0
    m = [fk + rho[:, None] * g_B[None, :] for fk in res.fk]  # m[t − 1] = E[F_k(w_t)1{A_t = a}]
    ts = np.arange(1, T + 1)
    J = _l133_delays(run, ts)
    terms, size = [], 0.0
    for t, j in zip(ts.tolist(), J.tolist(), strict=True):
        if j >= t:
            continue
        s = t - j
        reach = np.linalg.matrix_power(P, j) @ member  # P(k ∈ A_t | A_s = b)
        delayed = np.sum(m[s - 1] * reach, axis=0)
        current = np.sum(m[t - 1] * member, axis=0)
        eta_t = float(run.eta(t))
        terms.append(eta_t * float(run.q @ (delayed - current)))
        size += eta_t * float(run.q @ (np.abs(delayed) + np.abs(current)))
    if not terms:
        return 0.0, 0.0
    suffix = np.cumsum(np.asarray(terms)[::-1])
    return float(max(0.0, suffix.max())), size


def _l133_rhs(run: Any) -> float:
    """C₁/ln(1/λ(P)) with C₁ = EDGQ(Σπ_kq_k)·Σ_{t≥1} ln(2C_PHt)η²_{t−J_t} (eq. 134), the series
    from the library (bounds.series.sum_log_delayed: certified upper value, η₀ read as η₁)."""
    from fltheory.bounds.series import sum_log_delayed
    from fltheory.problems.steps import StepSizes

    c = run.constants
    series = sum_log_delayed(
        StepSizes.power_law(run.eta1, run.a),
        _l133_log_K(run),
        run.ell,
        int(run.chain.T_P),
        n_partial=2**12,
    )
    C1 = run.E * c["D"] * c["G"] * run.Q * float(run.pi @ run.q) * series.upper
    return float(C1 / run.ell)


#: Differences of expectations below this fraction of their size are rounding noise (floats).
L133_RESOLUTION = 1e-12


def _l133_margin(inst: Instance) -> float:
    run = _l133_run(inst)
    lhs, size = _l133_lhs(run)
    rhs = _l133_rhs(run)
    noise = L133_RESOLUTION * size
    if lhs <= noise and rhs <= noise:  # both sides below what floats resolve here
        raise NumericalError("both sides of (133) below the float resolution of the expectations")
    return cq.relative_gap(rhs, lhs if lhs > noise else 0.0)


def _l133_space() -> Space:
    from fltheory.claims.papers.cafed import _chainrun as cr

    def valid(inst: Instance) -> bool:
        return float(np.dot(inst["pi"], 10.0 ** np.asarray(inst["lq"], dtype=float))) > 0.0

    return Space(cr.chain_params(n=(1, 2), T=(1, 40)), where=valid)


register_claim(
    "cafed:lemma14-eq133",
    "App. B3",
    "Lemma 14, eq. (133)",
    (972, 980),
    "for every t₀ ≤ T: Σ_{t=t₀}^T η_tE[Σ_{k∈A_t}q_k(F_k(w_{t−J_t,0}) − F_k(w_{t,0}))] ≤ "
    "C₁/ln(1/λ(P)), C₁ = EDGQ(Σπ_kq_k)(Σ_{t≥1} ln(2C_PHt)η²_{t−J_t}) (eq. 134)",
    space=_l133_space(),
    margin=_l133_margin,
    notes="Coverage of Lemma 14's statement. Exact expectations on the Theorem 2 instances "
    "of cafed_theorem2 (N ≤ 2 independent two-state clients, isotropic quadratics in "
    "d ≤ 2, E local steps of η_t = η₁t^(−a) with batch noise, W a ball the iterates never "
    "leave, T ≤ 40 rounds): the moment recursion of _cafed_chainrun gives E[F_k(w_t)"
    "1{A_t = a}], and the Markov property the delayed terms. The left side is the largest "
    "suffix sum (every t₀), over the rounds with J_t < t (w_{0,0} is undefined where J_t = "
    "t). C₁ with D, G, H of Lemma 1 (suprema over W), C_P, λ(P), T_P of the product chain "
    "and the library's certified series. No exact margin: the statement holds with a wide "
    "margin (the chain (135)–(141) is loose, and the series runs over all t ≥ 1). Where "
    "both sides are below 1e-12 of the size of the expectations they difference (e.g. "
    "L ≈ 1e-94), floats cannot decide and the instance is declined. Budget 100 (~1 s an "
    "evaluation: the moment recursion and the certified series).",
    budget=100,
    expected="holds",
    reading=Reading(
        quote="Lemma 14. Let Assumptions 1–3, and 5 hold, the local functions {F_k} be "
        "convex, and the parameter J_t ≤ t be as in Definition 1. For a diminishing "
        "step-size {η_t} satisfying Σ_t ln(t)·η_t², for any t₀ ≤ T, we have: Σ_{t=t₀}^T "
        "η_tE[Σ_{k∈A_t}q_k(F_k(w_{t−J_t,0}) − F_k(w_{t,0}))] ≤ C₁/ln(1/λ(P)) < +∞ (133)",
        hypotheses=(
            Hypothesis(
                "Assumption 1",
                "independent two-state clients (eq. 236), N ≤ 2, stationary start",
            ),
            Hypothesis(
                "Assumptions 2, 3, 5; convex F_k",
                "isotropic quadratics ½h_k‖w − "
                "u_k‖², W a ball containing every iterate, bounded batch noise",
            ),
            Hypothesis(
                "η_t diminishing with Σ ln(t)η_t² < ∞",
                "η_t = η₁t^(−a), a ∈ (½, 1], η₁ ≤ 1/(2L(1 + 2EQ))",
            ),
        ),
        interpretation="The expectation over the availability chain and the batches, "
        "exact; 'for any t₀ ≤ T' as the largest suffix sum. H is any bound of Lemma 1, eq. "
        "(8); where the supremum gives 2C_PH < 1 it is enlarged to 1/(2C_P) (with "
        "ln(2C_PHt) < 0 on the first rounds C₁ could be negative, which the paper does not "
        "intend: it treats C₁ as a positive constant). Rounds with J_t = t (the "
        "first ones) would involve w_{0,0}, which the scheme does not define, and are left "
        "out. Narrower than the paper in N ≤ 2, d ≤ 2, T ≤ 40 and quadratic F_k (the exact "
        "moment recursion).",
        alternatives="Its proof's steps: cafed:lemma14-eq142-step (refuted) and the "
        "finiteness argument cafed:lemma14-eq144-146 (refuted); the statement survives both.",
    ),
)
