"""Theorem 2 of CA-Fed (eq. 13) on exact trajectories, shared by the modules of its forms and of
the lemmas checked on the same instances (:mod:`.app_b3_theorem2`, :mod:`.app_b_theorem2`,
:mod:`.s2_theorem2`, :mod:`.s3b_theorem2`, :mod:`.app_b3_lemma15`, :mod:`.app_b2_lemmas_11_13`);
registers nothing.

Instances (:mod:`._chainrun`): N ≤ 3 independent two-state clients started in their stationary
law, isotropic quadratics in d ≤ 2 with bounded batch noise, η_t = η₁t^(−a) with η₁ up to the
eq. 12 cap, T ≤ 64 and W a ball that the iterates never leave (the projection never binds). The
left-hand sides are EXACT expectations (a moment recursion over the 2^N states, in floats; in
30-digit mpmath for the exact margins); the constants are the sup-constants over W (D, G, H
maximised, Γ exact), C_P, λ(P), T_P the library's (Lemma 16). The right-hand sides come from
:func:`fltheory.bounds.theorem2.theorem2_parts` (the code under test) and, for the exact
margins, from an independent evaluation (mpmath ζ values, correctly rounded sums and certified
tails: :func:`._chainrun.delayed_series`).

φ of eq. 179 is NEGATIVE when 2C_PH < 1 (the terms with t ≤ 1/(2C_PH) have ln(2C_PHt) < 0 and
J_t = 0), and φ/ln(1/λ) grows like 1/ln(1/λ) as λ̄₂ → 1 until the capped J_t = t take over; the
claims about that regime search it (``regime="negative-phi"``: ln(1/λ) = 10^lc·2C_PH/e,
lc ∈ (0, ½]); the others search the whole family or 2C_PH ≥ 1.

>>> pieces = code_pieces(chain_run(NEGATIVE_BOUND))
>>> pieces["phi_over_log"] < 0 < pieces["fraction"]
True
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show, signed
from fltheory.claims.finding import Hypothesis
from fltheory.claims.papers.cafed import _chainrun as cr
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._verify import verify_thm2
from fltheory.claims.space import Instance, Space
from fltheory.errors import NumericalError

#: Directly summed terms of the library's series (its tails are certified for any n).
N_PARTIAL = 2**10
#: Digits of the high-precision re-evaluation.
DPS = 30


def _valid(inst: Instance) -> bool:
    return float(np.dot(inst["pi"], 10.0 ** np.asarray(inst["lq"], dtype=float))) > 0.0


def _two_cph_at_least_one(inst: Instance) -> bool:
    """2C_PH ≥ 1 (so ln(2C_PHt) ≥ 0 for every t ≥ 1 and J_t ≥ 1: Definition 1's 'positive
    integer'); instances whose constants cannot be computed are left to the margin."""
    if not _valid(inst):
        return False
    try:
        with np.errstate(all="ignore"):
            return chain_run(inst).log_K >= 0.0
    except (ArithmeticError, ValueError, NumericalError):
        return True


#: Regimes of the instance spaces: every instance; the simplest instances with 2C_PH < 1 and
#: ln(1/λ) tied to 2C_PH/e, where φ of eq. 179 is negative (:func:`cr.negative_phi_params`);
#: 2C_PH ≥ 1 (φ ≥ 0).
REGIMES = ("all", "negative-phi", "2cph-ge-1")


def t2_space(extra: list[Any] | None = None, regime: str = "all") -> Space:
    """The instances of ``regime`` (one of :data:`REGIMES`), with the ``extra`` parameters."""
    if regime == "negative-phi":
        return Space([*cr.negative_phi_params(), *(extra or [])], where=_valid)
    if regime == "2cph-ge-1":
        params = cr.chain_params(energy=(-4.0, cr.LOG_ENERGY[1]))
        return Space([*params, *(extra or [])], where=_two_cph_at_least_one)
    return Space([*cr.chain_params(), *(extra or [])], where=_valid)


def chain_run(inst: Instance, exact: bool = False) -> cr.ChainRun:
    """The run of ``inst`` (server rate 10^leb when given), degenerate or too costly ones declined
    (NumericalError)."""
    server_lr = 10.0 ** float(inst["leb"]) if "leb" in inst else 1.0
    run = cr.ChainRun(inst, server_lr=server_lr, exact=exact)
    sizes: tuple[float, ...]
    try:
        with np.errstate(all="ignore"):
            sizes = (run.L, run.r, run.r_W, float(run.h.min()), run.eta1, float(run.p.min()))
    except ArithmeticError:
        sizes = (math.nan,)
    if not all(math.isfinite(x) and x >= 0.0 for x in sizes) or min(sizes[:5]) <= 0.0:
        raise NumericalError("degenerate instance: L, h_k, r or η₁ under/overflows a double")
    run.check_cost()
    return run


# --- the right-hand sides ------------------------------------------------------------------------
def code_pieces(run: cr.ChainRun) -> dict[str, float]:
    """Pieces of eq. 13 from the library (theorem2_parts), for q_eff = η̄q (reading R1)."""
    from fltheory.bounds.result import safe_exp
    from fltheory.bounds.theorem2 import theorem2_parts
    from fltheory.problems.steps import StepSizes

    q = run.server_lr * run.q
    parts = theorem2_parts(
        run.problem_constants(),
        run.chain,
        run.E,
        float(q.sum()),
        StepSizes.power_law(run.eta1, run.a),
        run.T,
        n_partial=N_PARTIAL,
    )
    pi_q = float(run.pi @ q)
    quad = 0.5 * float(np.sum(parts.sigma_diag * q * q))
    return {
        "fraction": (quad + safe_exp(parts.log_v)) / pi_q,
        "psi_gamma": parts.psi_gamma,
        "psi_rest": parts.psi_grad + parts.psi_burnin,
        "phi_over_log": parts.phi_sign * safe_exp(parts.log_phi_over_log),
        "denominator": parts.denominator,
        "pi_q": pi_q,
    }


def exact_pieces(run: cr.ChainRun) -> dict[str, Any]:
    """The same pieces recomputed here in mpmath (an upper bound of φ: partial + tail)."""
    import mpmath

    mp = cq.to_mp
    c = run.constants
    E, Q, T = run.E, mp(run.Q), run.T
    q = [mp(run.server_lr * x) for x in run.q]
    eta1, a = mp(run.eta1), mp(run.a)
    S2 = eta1**2 * mpmath.zeta(2 * a)
    M = 2**run.n
    pi = [mp(x) for x in run.pi]
    pi_q = sum(x * y for x, y in zip(pi, q, strict=True))
    quad = sum(
        2 * (E + 1) * pk * mp(s) ** 2 * S2 * qk * qk / 2
        for pk, s, qk in zip(pi, run.sigma, q, strict=True)
    )
    v = 2 * mp(c["diameter"]) ** 2 / E + M * Q / 4 * (S2 + mpmath.pi**2 / 6)
    DG = mp(c["D"]) * mp(c["G"])
    partial, tail = cr.delayed_series(run, "phi")
    return {
        "fraction": (quad + v) / pi_q,
        "psi_gamma": 4 * mp(run.L) * (1 + E * Q) * mp(c["Gamma"]) * S2,
        "psi_rest": 2 * E * E * mp(c["G"]) ** 2 * S2,  # T_P = 0: no burn-in sum
        "phi_over_log": 2 * E * DG * Q * (mp(partial) + mp(tail)) / mp(run.ell),
        "denominator": sum(eta1 * mp(t) ** -a for t in range(1, T + 1)),
        "pi_q": pi_q,
    }


def phi_proved(run: cr.ChainRun) -> float:
    """2EDGQ·Σ_{t=1}^T J_t·η²_{t−J_t} (η₀ := η₁): what steps (141)/(154) prove (= eq. 211's)."""
    t = np.arange(1, run.T + 1)
    J = run.delays(t)
    S = float(np.sum(J * run.eta(np.maximum(t - J, 1)) ** 2))
    c = run.constants
    return 2.0 * run.E * c["D"] * c["G"] * run.Q * S


def phi_000(run: cr.ChainRun) -> float:
    """000's φ = 2EDGQ·Σ_t ln(2C_PHt)·η_t²·J_t (upper bound: partial + certified tail)."""
    partial, tail = cr.delayed_series(run, "000")
    c = run.constants
    return 2.0 * run.E * c["D"] * c["G"] * run.Q * (partial + tail)


def _rhs(variant: str, pieces: dict[str, Any], run: cr.ChainRun) -> tuple[Any, Any]:
    """(right-hand side, its positive part) of a form of eq. 13 (or of eq. 185)."""
    f, den = pieces["fraction"], pieces["denominator"]
    psi = pieces["psi_gamma"] + pieces["psi_rest"]
    if variant == "proved":
        pos = f + 2 * pieces["psi_gamma"] + pieces["psi_rest"] + phi_proved(run)
        return pos / den, pos / den
    if variant in ("phi-main-000", "000-divided"):
        phi = phi_000(run) / run.ell
        div = den if variant == "000-divided" else 1.0
        return (f + psi + phi) / div, (f + psi + max(phi, 0.0)) / div
    num = f + psi + pieces["phi_over_log"]
    pos = f + psi + max(pieces["phi_over_log"], 0)
    if variant == "printed-main":
        return num, pos
    if variant == "eq185":
        return pieces["pi_q"] * num, pieces["pi_q"] * pos
    if variant == "lemma15":  # C₁/ln(1/λ) = (πᵀq)·φ/(2 ln(1/λ)) (eq. 148)
        c1 = pieces["pi_q"] * pieces["phi_over_log"] / 2
        return c1, abs(c1)
    return num / den, pos / den  # printed-appendix, eta-bar


def _lhs(variant: str, run: cr.ChainRun) -> Any:
    mom = run.moments()
    if variant == "lemma15":
        return _lemma15_lhs(run, mom.fb)
    if variant != "eq185":
        return mom.opt_error
    eta = [run.eta1 * t**-run.a for t in range(1, run.T + 1)]
    if run.exact:
        eta = [cq.to_mp(run.eta1) * cq.to_mp(t) ** -cq.to_mp(run.a) for t in range(1, run.T + 1)]
    pi_q = sum(
        x * y
        for x, y in zip(
            cq.to_mp(run.pi) if run.exact else run.pi,
            cq.to_mp(run.q) if run.exact else run.q,
            strict=True,
        )
    )
    return pi_q * sum(e * f for e, f in zip(eta, mom.fb, strict=True))


def _lemma15_lhs(run: cr.ChainRun, fb: list[Any]) -> Any:
    """max over t₀ ∈ [1, T] of (πᵀq)Σ_{t=t₀}^T η_t(E[F_B(w_t)] − E[F_B(w_{t−J_t})]) (eq. 147),
    w₀ read as the initial model w₁ (the rounds start at t = 1, as for η₀ := η₁)."""
    mp = cq.to_mp if run.exact else float
    pi_q = sum((mp(x) * mp(y) for x, y in zip(run.pi, run.q, strict=True)), mp(0))
    J = run.delays(np.arange(1, run.T + 1))
    terms = []
    for t in range(1, run.T + 1):
        eta = mp(run.eta1) * mp(t) ** -mp(run.a)
        back = max(t - int(J[t - 1]), 1)
        terms.append(eta * (fb[t - 1] - fb[back - 1]))
    best, suffix = terms[-1], mp(0)
    for value in reversed(terms):
        suffix = suffix + value
        best = max(best, suffix)
    return pi_q * best


def gap(rhs: Any, lhs: Any, scale: Any) -> Any:
    """(rhs − lhs)/max(|rhs|, |lhs|, |scale|); 1 for an infinite right side."""
    if rhs == math.inf:
        return 1.0
    scale = max(abs(rhs), abs(lhs), abs(scale))
    return (rhs - lhs) / scale if scale else 0.0 * scale


def _phi_split_scale(variant: str, run: cr.ChainRun, pieces: dict[str, Any]) -> float:
    """|φ⁻|/ln(1/λ) (the negative terms of eq. 179, computed here), in the units of the
    variant's right-hand side: the margin's scale is pos + φ⁺ + |φ⁻|, so that it decreases as
    an instance approaches the regime where φ < 0 wins (a direction for the local search)."""
    if variant in ("proved", "phi-main-000", "000-divided", "lemma15"):
        return 0.0
    c = run.constants
    neg = -2.0 * run.E * c["D"] * c["G"] * run.Q * cr.negative_head(run) / run.ell
    if variant == "printed-main":
        return neg
    if variant == "eq185":
        return pieces["pi_q"] * neg
    return neg / pieces["denominator"]


def t2_margins(variant: str) -> Any:
    """(margin, exact) of a form of eq. 13 (or eq. 147, 185): floats with the library's pieces, and
    mpmath with the independent ones."""

    def margin(inst: Instance) -> float:
        run = chain_run(inst)
        pieces = code_pieces(run)
        rhs, pos = _rhs(variant, pieces, run)
        neg = _phi_split_scale(variant, run, pieces)
        return float(gap(rhs, _lhs(variant, run), pos + 2.0 * neg))

    def exact(inst: Instance) -> tuple[Any, str]:
        import mpmath

        with mpmath.workdps(DPS):
            run = chain_run(inst, exact=True)
            rhs, pos = _rhs(variant, exact_pieces(run), run)
            value = gap(rhs, _lhs(variant, run), pos)
            return float(value), (
                f"mpmath {DPS} digits: exact moments, ζ(2a), certified series tails "
                "(correctly rounded float sums of the direct terms)"
            )

    return margin, exact


#: Theorem 2's bound is negative here: φ/ln(1/λ) ≈ −5.31 against ≈ 2.34 for the other terms.
NEGATIVE_BOUND: Instance = {
    **cr.BASE_INSTANCE,
    "n": 1,
    "d": 1,
    "leta": 0.0,
    "le": -3.0,
    "lk": np.zeros(1),
    "ua": np.zeros(1),
    "ub": np.zeros(1),
    "wa": 1.0,
    "alpha": np.ones(1),
    "pi": np.array([0.9]),
    "lell": -3.0,
    "lfr": np.ones(1),
    "lq": np.array([0.5]),
    "sg": np.zeros(1),
    "E": 16,
    "feta": 1.0,
    "a": 1.0,
    "T": 1,
}


T2_NOTES = (
    "Instances: N ≤ 3 two-state clients (eq. 236) started in their stationary law, ln(1/λ(P)) "
    "∈ [1e-10, ln 2] either absolute or tied to 2C_PH/e (one client attains it; signs and the "
    "others' ratios free), F_k = ½h_k‖w − u_k‖² in d ≤ 2 (κ up to 10⁶, energy scale L·r² over "
    "10⁻¹⁰…10⁶, so 2C_PH spans ~10⁻¹⁰…10⁷), bounded noise σ_k ≥ 0, q_k ∈ [10⁻³, 10³], E ≤ 100, "
    "η_t = η₁t^(−a), a ∈ (½, 1], η₁ = feta × the eq. 12 cap, 1 ≤ T ≤ 64 (T_P = 0 for product "
    "chains), W = B(0, r_W) never binding. LHS: exact expectations (moment recursion; 30-digit "
    "mpmath for the exact margin). RHS: bounds.theorem2.theorem2_parts (float margin) and an "
    "independent mpmath evaluation with certified series tails (exact margin). Instances whose "
    "series need > 2^18 direct terms are declined (skipped). Margin = (rhs − lhs)/max(|rhs|, "
    "lhs, positive part of rhs (+ 2|negative part of φ|/ln(1/λ) in the float margin, a "
    "direction for the search)). Budget 300 (each evaluation runs a 2^N-state recursion and "
    "the library's series: ~10-40 ms)."
)


#: Simple values of the parameters that shape the instance but not the mechanisms (tried
#: together first, then one by one, when a counterexample is shrunk).
_PLAIN: dict[str, Any] = {
    "d": 1,
    "ua": 0.0,
    "ub": 0.0,
    "wa": 1.0,
    "wb": 0.0,
    "lk": 0.0,
    "sg": 0.0,
    "lfr": 1.0,
    "neg": 0,
    "lq": 0.0,
    "a": 1.0,
    "feta": 1.0,
    "leta": 0.0,
    "T": 1,
    "E": 1,
    "pi": 0.5,
}


def t2_simplify(inst: Instance) -> list[Instance]:
    """Candidates for shrinking: the instance with plain values (see _PLAIN)."""
    n = int(inst["n"])

    def plain(key: str) -> Any:
        value = _PLAIN[key]
        return np.full(n, value) if np.ndim(inst[key]) else value

    keys = [k for k in _PLAIN if k in inst and not np.array_equal(inst[k], plain(k))]
    together = {**inst, **{k: plain(k) for k in keys}}
    return [together] + [{**inst, k: plain(k)} for k in keys]


# --- readings, explanations ----------------------------------------------------------------------
T2_HYPOTHESES = (
    Hypothesis(
        "Assumption 1: irreducible, aperiodic availability chain started in ρ",
        "N ≤ 3 independent two-state clients (eq. 236, the §III-D setting), λ₂ ∈ [lower "
        "end, 1), stationary start. Narrower than the paper (any chain): only product "
        "chains have C_P and T_P (eqs. 156–157) in closed form; for them T_P = 0",
    ),
    Hypothesis(
        "Assumptions 2–5 and convex F_k: W convex compact ∋ w*, w_B*, w_k*; L-smooth, "
        "μ-strongly convex F_k; E‖∇F_k(w, B) − ∇F_k(w)‖² ≤ σ_k²",
        "F_k = ½h_k‖w − u_k‖² in d ≤ 2 (isotropic per client, curvatures differing "
        "across clients, κ ≤ 10⁶), u_k and w₀ in B(0, r), noise ±σ_k, W = B(0, r_W) "
        "with r_W ≥ every iterate. Narrower than the paper: the projection never binds "
        "and F_k is isotropic — the exact expectations need iterates affine in the noise "
        "and a 2×2 moment recursion; a binding projection leaves only Monte Carlo, which "
        "cannot decide bounds this loose",
    ),
    Hypothesis("Lemma 1's D, G, H and eq. (9)'s Γ", "their least values on W (sup-constants)"),
    Hypothesis(
        "eq. (12): η_t > 0 decreasing, η₁ ≤ 1/(2L(1 + 2EQ)), Ση_t = ∞, Σ ln(t)η_t² < ∞",
        "η_t = η₁t^(−a), a ∈ (½, 1], η₁ = feta × the cap, feta ∈ (0, 1]",
    ),
    Hypothesis("T ≥ T_P, scheme (2)–(3) with η̄ = 1 (App. B, eq. 2 there)", "1 ≤ T ≤ 64, E ≤ 100"),
)
ETA0 = (
    "η₀, which φ meets when J_t = t, is read as η₁ (the sequence starts at t = 1; any larger "
    "value only raises the bound)."
)


def t2_args(run: cr.ChainRun, form: str) -> dict[str, Any]:
    """The instance of ``run`` in the paper's quantities, as exact decimals (the arguments of
    :func:`._verify.verify_thm2`); η₁ is capped at eq. (12)'s 1/(2L(1 + 2EQ)) computed
    from the decimals, so that the rounding of the float cap cannot break the hypothesis."""
    h = list(decs(run.h))
    q = list(decs(run.server_lr * run.q))
    L, Q = max(h), sum(q, Fraction(0))
    cap = 1 / (2 * L * (1 + 2 * run.E * Q))
    alpha = list(decs(run.inst["alpha"]))
    total = sum(alpha, Fraction(0))
    log_C_P = run.chain.log_C_P
    if log_C_P is None:
        raise NumericalError("C_P unknown")
    return {
        "form": form,
        "pi": list(decs(run.pi)),
        "lam2": list(decs(run.lambda2)),
        "h": h,
        "u": [list(decs(row)) for row in run.u],
        "w0": list(decs(run.w0)),
        "r_W": dec(run.r_W),
        "sigma": list(decs(run.sigma)),
        "q": q,
        "alpha": [x / total for x in alpha],
        "E": run.E,
        "eta1": min(dec(run.eta1), cap),
        "a": dec(run.a),
        "T": run.T,
        "C_P": dec(math.exp(log_C_P)),
    }


_T2_SIDES = {
    "appendix": ("[(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]/Σ_{t≤T}η_t", "eq. (13), HAL appendix"),
    "main": ("(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))", "eq. (13) as printed in the main text"),
    "000": ("(½qᵀΣq + υ)/πᵀq + ψ + φ₀₀₀/ln(1/λ(P))", "eq. (13) of the ToN copy (000)"),
    "eq185": ("2C₁/ln(1/λ(P)) + C₂ + C₃ = (πᵀq)[(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]", "eq. (185)"),
    "lemma15": ("C₁/ln(1/λ(P)) = (πᵀq)φ/(2 ln(1/λ(P)))", "eq. (147)–(148)"),
}


def t2_explain(form: str) -> Any:
    """explain(inst) for a printed form of Theorem 2: the instance in the paper's quantities,
    the constants and pieces of eq. (13), both sides (:func:`verify_thm2`, 40-digit mpmath)."""

    def explain(inst: Instance) -> Explanation:
        server_lr = 10.0 ** float(inst["leb"]) if "leb" in inst else 1.0
        run = cr.ChainRun(inst, server_lr=server_lr)
        args = t2_args(run, form)
        out = verify_thm2(**args)
        parts = out["parts"]
        n, d = len(args["pi"]), len(args["w0"])
        losses = []
        for k in range(n):
            uk = args["u"][k]
            if d == 1:
                shift = f"(w {signed(-uk[0])})²" if uk[0] else "w²"
            else:
                shift = f"‖w − {show(tuple(uk))}‖²"
            losses.append(
                Quantity(
                    f"F_{k + 1}",
                    f"loss of client {k + 1}",
                    tuple(uk),
                    f"F_{k + 1}(w) = ½·{show(args['h'][k])}·{shift}",
                )
            )
        eta1, a = args["eta1"], args["a"]
        steps = tuple(
            Step(name, "", value) for name, value in parts.items() if name not in ("capped J_t",)
        )
        lhs_name = {
            "eq185": "(πᵀq)Σ_{t≤T}η_tE[F_B(w_{t,0}) − F_B*]",
            "lemma15": "max_{t₀≤T}(πᵀq)Σ_{t=t₀}^T η_tE[F_B(w_{t,0}) − F_B(w_{t−J_t,0})]",
        }.get(form, "E[F_B(w̄_T) − F_B*]")
        rhs_name, rhs_label = _T2_SIDES[form]
        capped = parts["capped J_t"]
        note = "The right side is an upper bound (φ's series: direct terms plus a certified tail)."
        if form == "000":
            note += " 000's φ takes η_t², so η₀ never occurs."
        elif capped:
            note += f" J_t = t (capped) in {capped} of the summed rounds; " + ETA0
        else:
            note += " No J_t is capped, so the value given to η₀ plays no role."
        return Explanation(
            quantities=(
                *losses,
                Quantity("π", "stationary availability of each client", tuple(args["pi"])),
                Quantity(
                    "λ₂", "second eigenvalue of each client's chain (eq. 236)", tuple(args["lam2"])
                ),
                Quantity("q", "aggregation weights (η̄ = 1)", tuple(args["q"])),
                Quantity(
                    "σ", "batch-noise level of each client (Assumption 5)", tuple(args["sigma"])
                ),
                Quantity("α", "target importance", tuple(args["alpha"])),
                Quantity("w₀", "initial model", tuple(args["w0"])),
                Quantity("W", "the ball B(0, r_W): radius", args["r_W"]),
                Quantity("E", "local steps", args["E"]),
                Quantity("η_t", "step sizes", eta1, f"η_t = {show(eta1)}·t^(−{show(a)})"),
                Quantity("T", "rounds", args["T"]),
                Quantity(
                    "C_P", "Lemma 16's constant (eq. 156, least over eigenbases)", args["C_P"]
                ),
            ),
            steps=steps,
            lhs=Step(lhs_name, "exact (moments over the availability states)", out["lhs"]),
            relation="≤",
            rhs=Step(rhs_name, rhs_label, out["rhs"]),
            holds=bool(out["holds"]),
            verify_args=args,
            note=note,
        )

    return explain


# --- Lemma 11 (eq. 116) ---------------------------------------------------------------------------
def lemma11_sides(run: cr.ChainRun, factor: int) -> tuple[Any, Any, Any]:
    """(C_0 with factor·L(1 + EQ)Γ, max over t₀ of Σ_{t=t₀}^T η_tE[Σ_{A_t}q_k(F_k(w_t) −
    F_k(w_B*))], the positive terms of C_0), from the exact moments (mpmath when run.exact)."""
    import mpmath

    mp = cq.to_mp if run.exact else float
    c = run.constants
    E, Q = run.E, mp(run.Q)
    q = [mp(x) for x in run.q]
    pi = [mp(x) for x in run.pi]
    pi_q = sum(x * y for x, y in zip(pi, q, strict=True))
    zeta = mpmath.zeta(2 * cq.to_mp(run.a)) if run.exact else float(mpmath.zeta(2 * run.a))
    S2 = mp(run.eta1) ** 2 * zeta
    noise = sum(p * x * x * mp(s) ** 2 for p, x, s in zip(pi, q, run.sigma, strict=True))
    terms = [
        2 * mp(c["diameter"]) ** 2 / E,
        (E + 1) * noise * S2,
        2 * E * E * mp(c["G"]) ** 2 * pi_q * S2,
        factor * mp(run.L) * (1 + E * Q) * mp(c["Gamma"]) * pi_q * S2,
    ]
    sets = cq.active_sets(run.n)
    member = np.array([[1.0 if k in s else 0.0 for k in range(run.n)] for s in sets])
    per_round = []
    for t, fk in enumerate(run.moments().fk, start=1):
        eta = mp(run.eta1) * mp(t) ** (-mp(run.a)) if run.exact else run.eta1 * t**-run.a
        per_round.append(
            eta
            * sum(member[a, k] * q[k] * fk[a, k] for a in range(len(sets)) for k in range(run.n))
        )
    lhs, suffix = per_round[-1], per_round[-1] * 0
    for value in reversed(per_round):  # the worst t₀
        suffix = suffix + value
        lhs = max(lhs, suffix)
    return sum(terms[1:], terms[0]), lhs, sum(terms[1:], terms[0])


def lemma11_margins(factor: int) -> tuple[Any, Any]:
    """(margin, exact) of Lemma 11, eq. (116), with ``factor``·L(1 + EQ)Γ in C_0."""

    def margin(inst: Instance) -> float:
        rhs, lhs, pos = lemma11_sides(chain_run(inst), factor)
        return float(gap(rhs, lhs, pos))

    def exact(inst: Instance) -> tuple[Any, str]:
        import mpmath

        with mpmath.workdps(DPS):
            rhs, lhs, pos = lemma11_sides(chain_run(inst, exact=True), factor)
            return float(gap(rhs, lhs, pos)), f"mpmath {DPS} digits: exact moments, ζ(2a)"

    return margin, exact


def t2_fields(
    variant: str,
    notes: str,
    extra: list[Any] | None = None,
    budget: int = 300,
    regime: str = "all",
) -> dict[str, Any]:
    """The :class:`~fltheory.claims.claim.Claim` fields of a form of eq. 13 (or of eq. 147)
    checked on the trajectory instances: the space of ``regime`` (with the ``extra``
    parameters), the margins of ``variant``, the shrinking candidates, the notes (the
    instances' description, then ``notes``) and the budget.

    >>> sorted(t2_fields("proved", "Held."))
    ['budget', 'exact', 'margin', 'notes', 'simplify', 'space']
    """
    margin, exact = t2_margins(variant)
    return {
        "space": t2_space(extra, regime),
        "margin": margin,
        "exact": exact,
        "simplify": t2_simplify,
        "notes": f"{T2_NOTES} {notes}",
        "budget": budget,
    }
