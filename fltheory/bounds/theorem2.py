"""Theorem 2 of CA-Fed (ToN): the optimisation-error bound ε̄_opt(q) of eq. 13.

Reading of eq. 13. The main text prints ((½qᵀΣq + v)/πᵀq + ψ + φ/ln(1/λ)) without a
denominator; the appendix version divides it by Σ_{t≤T} η_t. The proof ends with
(πᵀq)(Σ_{t≤T} η_t)·E[F_B(w̄_T) − F_B*] ≤ 2C₁/ln(1/λ) + C₂ + C₃ (eqs. 185–187) and divides by
both factors, so the appendix version is the one proved and the one implemented here:

    ε̄_opt(q) = ((½qᵀΣq + v)/πᵀq + ψ + φ/ln(1/λ(P))) / Σ_{t=1}^T η_t,

with Σ = diag(2(E+1)π_kσ_k²Ση_t²) (176), v = 2diam(W)²/E + (MQ/4)Σ(η_t² + 1/t²) (177),
ψ = (4L(1+EQ)Γ + 2E²G²)Ση_t² + H Σ_{t=1}^{T_P−1} η_t (178), φ = 2EDGQ Σ ln(2C_P H t)η²_{t−J_t}
(179), J_t of eq. 132 and Q = Σ_k q_k. (The check C₃/πᵀq + C₂/πᵀq + 2C₁/(πᵀq ln(1/λ))
reproduces exactly these pieces.)

Infinite series are evaluated with certified tails (:mod:`fltheory.bounds.series`); finite sums
longer than 10⁷ terms are bracketed by integrals (upper for the burn-in sum, lower for the
denominator). Everything that can overflow (M = 2^N, C_P) is carried in log space.

Vacuity: a bound is flagged vacuous when it is at least the trivial bound
min(D·diam(W), L·diam(W)²/2, H) on F_B(w) − F_B* over W (Lemma 12 with w_B* ∈ W; L-smoothness
with ∇F_B(w_B*) = 0; eq. 8 averaged with weights p).

Doubt (not corrected here): step (141)→(142) uses J_t ≤ ln(2C_P H t)/ln(1/λ), but J_t of
eq. 132 rounds up and is at least T_P, so it can exceed that ratio by up to 1 (or more when
T_P dominates).
"""

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fltheory import checks
from fltheory.bounds.result import BoundResult, mark_vacuous, safe_exp, safe_log
from fltheory.bounds.series import (
    N_PARTIAL,
    SeriesValue,
    finite_sum,
    sum_eta_squared,
    sum_inverse_squares,
    sum_log_delayed,
)
from fltheory.markov.constants import ChainConstants
from fltheory.problems.constants import ProblemConstants
from fltheory.problems.setup import ProblemSetup
from fltheory.problems.steps import StepSizes


@dataclass(frozen=True, eq=False)
class Theorem2Parts:
    """The q-independent pieces of eq. 13 (for fixed Q = Σq_k), with their provenance."""

    sigma_diag: np.ndarray
    log_v: float
    log_v_markov: float
    v_diam: float
    psi_gamma: float
    psi_grad: float
    psi_burnin: float
    log_phi_over_log: float
    phi_sign: float
    log_inv_lam: float
    denominator: float
    series: dict[str, SeriesValue]
    T_P: int
    conditions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    trivial: float = math.inf

    @property
    def psi(self) -> float:
        return self.psi_gamma + self.psi_grad + self.psi_burnin


def _check_conditions(
    constants: ProblemConstants,
    chain: ChainConstants,
    E: int,
    Q: float,
    steps: StepSizes,
    T: int,
    T_P: int,
) -> tuple[list[str], list[str]]:
    conditions = list(constants.notes)
    warnings: list[str] = []
    eta_max = 1.0 / (2.0 * constants.L * (1.0 + 2.0 * E * Q))
    if steps.eta1 > eta_max:
        conditions.append(
            f"eq. 12: η₁ ≤ 1/(2L(1+2EQ)) = {eta_max:.6g} fails (η₁ = {steps.eta1:.6g})"
        )
    if steps.power is None:
        conditions.append("eq. 12: Σ η_t = ∞ fails (explicit schedule, zero after its end)")
        warnings.append(
            "zero-tail schedule: bound (13) for this T still holds, its proof only uses η_1..η_T"
        )
        if T > steps.n_head:
            conditions.append(f"T = {T} exceeds the {steps.n_head} explicit step sizes")
    else:
        if steps.power > 1.0:
            conditions.append(f"eq. 12: Σ η_t = ∞ fails (tail power a = {steps.power:g} > 1)")
        if steps.power <= 0.5:
            conditions.append(f"eq. 12: Σ ln(t)η_t² < ∞ fails (tail power a = {steps.power:g} ≤ ½)")
    if not steps.nonincreasing():
        conditions.append("the step size must not increase (diminishing η_t, eqs. 141, 154)")
    if T < T_P:
        conditions.append(f"T ≥ T_P fails (T = {T}, T_P = {T_P})")
    if not chain.lam < 1.0:
        conditions.append(f"Assumption 1: λ(P) = {chain.lam:g} is not < 1 (chain does not mix)")
    if chain.log_C_P is None:
        conditions.append("C_P unknown (Jordan structure not determined): J_t and φ undefined")
    return conditions, warnings


def theorem2_parts(
    constants: ProblemConstants,
    chain: ChainConstants,
    local_steps: int,
    Q: float,
    steps: StepSizes,
    rounds: int,
    *,
    use_safe_T_P: bool = False,
    n_partial: int = N_PARTIAL,
) -> Theorem2Parts:
    """All q-independent pieces of eq. 13 for ‖q‖₁ = Q, E = ``local_steps``, T = ``rounds``.

    >>> from fltheory.markov.product import ProductChain
    >>> pi = np.array([0.9, 0.5])
    >>> consts = ProblemConstants(2.0, 0.5, 0.3, 4.0, 4.1, 5.0, 2.0, 0.5, [0.5, 0.5], pi)
    >>> chain = ProductChain(pi, [0.1, 0.5]).constants()
    >>> parts = theorem2_parts(consts, chain, 2, 1.0, StepSizes.power_law(0.01, 1.0), 50)
    >>> parts.T_P, parts.v_diam  # T_P = 0 for product chains; v_diam = 2·diameter²/E
    (0, 4.0)
    """
    E = checks.positive_integer(local_steps, "local_steps")
    T = checks.positive_integer(rounds, "rounds")
    Q = checks.positive(Q, "Q")
    T_P = int(chain.T_P_safe if use_safe_T_P else chain.T_P)
    conditions, warnings = _check_conditions(constants, chain, E, Q, steps, T, T_P)

    s2 = sum_eta_squared(steps, n_partial)
    inv_sq = sum_inverse_squares(n_partial)
    series = {"sum_eta_sq": s2, "sum_inv_t_sq": inv_sq}
    S2 = s2.upper
    S3 = S2 + inv_sq.upper

    sigma_diag = 2.0 * (E + 1) * constants.pi * constants.sigma**2 * S2
    v_diam = 2.0 * constants.diameter**2 / E
    log_v_markov = chain.log_n_states + math.log(Q / 4.0) + safe_log(S3)
    log_v = float(np.logaddexp(safe_log(v_diam), log_v_markov))

    psi_gamma = 4.0 * constants.L * (1.0 + E * Q) * constants.Gamma * S2
    psi_grad = 2.0 * E**2 * constants.G**2 * S2
    psi_burnin = constants.H * finite_sum(steps, T_P - 1)[1]

    log_inv_lam = -math.log(chain.lam) if 0.0 < chain.lam < 1.0 else 0.0
    log_phi_over_log, phi_sign = math.inf, 1.0
    if chain.log_C_P is not None and log_inv_lam > 0.0:
        log_K = math.log(2.0) + chain.log_C_P + math.log(constants.H)
        delayed = sum_log_delayed(steps, log_K, log_inv_lam, T_P, n_partial=n_partial)
        series["sum_log_delayed"] = delayed
        warnings.extend(delayed.notes)
        phi_series = delayed.upper
        phi_sign = 1.0 if phi_series >= 0.0 else -1.0
        log_phi_over_log = (
            math.log(2.0 * E * constants.D * constants.G * Q)
            + safe_log(abs(phi_series))
            - math.log(log_inv_lam)
        )

    denominator = finite_sum(steps, T)[0]
    trivial = min(
        constants.D * constants.diameter, 0.5 * constants.L * constants.diameter**2, constants.H
    )
    return Theorem2Parts(
        sigma_diag=sigma_diag,
        log_v=log_v,
        log_v_markov=log_v_markov,
        v_diam=v_diam,
        psi_gamma=psi_gamma,
        psi_grad=psi_grad,
        psi_burnin=psi_burnin,
        log_phi_over_log=log_phi_over_log,
        phi_sign=phi_sign,
        log_inv_lam=log_inv_lam,
        denominator=denominator,
        series=series,
        T_P=T_P,
        conditions=conditions,
        warnings=warnings,
        trivial=trivial,
    )


def evaluate(parts: Theorem2Parts, pi: np.ndarray, q: np.ndarray) -> BoundResult:
    """ε̄_opt(q) of eq. 13 from precomputed parts."""
    quad = 0.5 * float(np.sum(parts.sigma_diag * q * q))
    pi_q = float(pi @ q)
    log_fraction = float(np.logaddexp(safe_log(quad), parts.log_v)) - math.log(pi_q)
    log_psi = safe_log(parts.psi)
    log_pos = float(np.logaddexp(log_fraction, log_psi))
    warnings = list(parts.warnings)
    conditions = list(parts.conditions)
    if parts.phi_sign >= 0.0:
        log_num = float(np.logaddexp(log_pos, parts.log_phi_over_log))
    else:
        # φ < 0 (2C_PH < 1): the proof's step (141)→(142), J_t ≤ ln(2C_PHt)/ln(1/λ), fails for
        # small t, and eq. 13 can fall below the true error (`fltheory check
        # cafed:thm2-eq13-printed-appendix` finds such instances; cafed:thm2-eq13-proved holds).
        warnings.append(
            "φ < 0 (2·C_P·H < 1): eq. 13 subtracts |φ|/ln(1/λ), a step the proof does not "
            "justify here, so the bound may be below the true error (cafed:thm2-eq13-proved "
            "is the valid form)"
        )
        ratio = math.exp(parts.log_phi_over_log - log_pos)
        if ratio >= 1.0:
            conditions.append(
                "eq. 13 is ≤ 0 here (negative φ outweighs the other terms), so it bounds "
                "nothing: the optimisation error is positive"
            )
            log_num = -math.inf
        else:
            log_num = log_pos + math.log1p(-ratio)
    log_value = log_num - safe_log(parts.denominator)

    terms: dict[str, float] = {}
    log_terms = {
        "fraction": log_fraction,
        "quad_form": safe_log(quad),
        "v": parts.log_v,
        "v_diam": safe_log(parts.v_diam),
        "v_markov": parts.log_v_markov,
        "psi": log_psi,
        "psi_gamma": safe_log(parts.psi_gamma),
        "psi_grad": safe_log(parts.psi_grad),
        "psi_burnin": safe_log(parts.psi_burnin),
        "phi_over_log": parts.log_phi_over_log,
        "numerator": log_num,
        "denominator": safe_log(parts.denominator),
        "pi_q": math.log(pi_q),
        "log_inv_lambda": safe_log(parts.log_inv_lam),
    }
    for name, log_x in log_terms.items():
        terms[name] = safe_exp(log_x)
    if parts.phi_sign < 0.0:
        terms["phi_over_log"] = -terms["phi_over_log"]
    for name, s in parts.series.items():
        terms[f"{name}.partial"] = s.partial
        terms[f"{name}.tail"] = s.tail
    dominant = max(("fraction", "psi", "phi_over_log"), key=lambda k: log_terms[k])
    result = BoundResult.from_log(
        log_value,
        "eq. 13",
        terms=terms,
        log_terms=log_terms,
        conditions=conditions,
        warnings=warnings,
        details={
            "dominant_term": dominant,
            "T_P": parts.T_P,
            "series": {k: s.to_dict() for k, s in parts.series.items()},
        },
    )
    mark_vacuous(result, parts.trivial)
    return result


def optimization_error_bound(
    constants: ProblemConstants,
    chain: ChainConstants,
    q: Any,
    local_steps: int,
    steps: StepSizes,
    rounds: int,
    *,
    use_safe_T_P: bool = False,
    n_partial: int = N_PARTIAL,
) -> BoundResult:
    """E[F_B(w̄_T) − F_B*] ≤ ε̄_opt(q) (Theorem 2, eq. 13), with Q = Σ_k q_k, E = ``local_steps``
    and T = ``rounds``.

    ``use_safe_T_P`` takes the chain's ``T_P_safe`` instead of ``T_P`` (eq. 157). The result's
    ``conditions`` lists the hypotheses (eq. 12, T ≥ T_P, Assumptions 1–2) that fail.

    >>> from fltheory.markov.product import ProductChain
    >>> pi = np.array([0.9, 0.5])
    >>> consts = ProblemConstants(2.0, 0.5, 0.3, 4.0, 4.1, 5.0, 2.0, 0.5, [0.5, 0.5], pi)
    >>> chain = ProductChain(pi, [0.1, 0.5]).constants()
    >>> steps = StepSizes.power_law(0.01, 1.0)
    >>> res = optimization_error_bound(consts, chain, [0.5, 0.5], 2, steps, 50)
    >>> res.equation, res.conditions
    ('eq. 13', [])
    """
    q_arr = checks.aggregation_weights(q, constants.pi)
    parts = theorem2_parts(
        constants,
        chain,
        local_steps,
        float(q_arr.sum()),
        steps,
        rounds,
        use_safe_T_P=use_safe_T_P,
        n_partial=n_partial,
    )
    result = evaluate(parts, constants.pi, q_arr)
    result.details["steps"] = steps.to_dict()
    return result


def opt_bound_coefficients(setup: ProblemSetup) -> tuple[np.ndarray, float, float, float]:
    """(sigma_diag, v, const, denominator) with, for ‖q‖₁ = setup.Q,
    ε̄_opt(q) = ((½qᵀdiag(sigma_diag)q + v)/πᵀq + const)/denominator (eq. 13),
    const = ψ + φ/ln(1/λ). v or const is inf when it overflows or is undefined.

    >>> from pathlib import Path
    >>> from fltheory.problems.config import load_problem_config
    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> sigma_diag, v, const, denominator = opt_bound_coefficients(
    ...     load_problem_config(examples / "quadratic_small.toml"))
    >>> sigma_diag.shape, v > 0.0, denominator > 0.0
    ((5,), True, True)
    """
    parts = theorem2_parts(
        setup.constants, setup.chain, setup.local_steps, setup.Q, setup.steps, setup.rounds
    )
    const = parts.psi + parts.phi_sign * safe_exp(parts.log_phi_over_log)
    return parts.sigma_diag.copy(), safe_exp(parts.log_v), const, parts.denominator
