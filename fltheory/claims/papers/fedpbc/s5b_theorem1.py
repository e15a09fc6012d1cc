"""§V-B — Theorem 1 of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines),
l.249–255: as printed with O(·), read with explicit constants (any c₀, c₀ = 1, the c₀-dependence
restored) and its rate T^(−1/2). The step-size condition is in :mod:`.s5b_theorem1_stepsize`, Remark
4 in :mod:`.s5b_remark4`.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:thm1-explicit").expected
'refuted'
"""

import math
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import frs, mp_to_fraction
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    frak_c,
    gap_or_decline,
    kappa,
    rel,
    rho_gap_mp,
    thm1_eta_max,
)
from fltheory.claims.space import Instance, Integer, Parameter, Real, Space
from fltheory.errors import NumericalError


def _thm1_quantities(inst: Instance) -> dict[str, float]:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    m, s = p.size, inst["s"]
    h = 10.0 ** inst["log_h"]
    gap = gap_or_decline(p)
    rho = 1.0 - gap
    eta_max = thm1_eta_max(s, h, rho, 0.0, gap)
    c0 = 10.0 ** inst["log_c0"] if "log_c0" in inst else 1.0
    if eta_max < 1e-140:  # 1 − ρ ≈ 1e-100 and below: T_min = c₀²m/(sη_max²) overflows
        raise NumericalError("Theorem 1's admissible T exceeds float64 (η_max below 1e-140)")
    T_min = c0 * c0 * m / (s * eta_max * eta_max)
    T = math.ceil(max(T_min, 1.0) * 10.0 ** inst["log_t"])
    eta = c0 * math.sqrt(m / (s * T))
    D2 = (inst["x0"] - float(u.mean())) ** 2
    zeta2 = h * h * float(np.mean((u - u.mean()) ** 2))
    return {
        "m": m,
        "s": s,
        "h": h,
        "rho": rho,
        "gap": gap,
        "eta": eta,
        "T": T,
        "D2": D2,
        "zeta2": zeta2,
        "sigma2": inst["sigma2"],
        "c0": c0,
    }


def _thm1_lhs(q: dict[str, Any], lib: Any = math) -> Any:
    """(1/T)Σ_{k<T}E‖∇F(x̄^k)‖² exactly: x̄^{t+1} = a x̄^t + (1 − a)(ū − ξ̄^t/h) on every path
    (``lib``: :mod:`math` for floats, :mod:`mpmath` for the exact margin)."""
    h, eta, s, T, m = q["h"], q["eta"], q["s"], q["T"], q["m"]
    a = lib.exp(s * lib.log1p(-eta * h))
    one_minus_a = -lib.expm1(s * lib.log1p(-eta * h))
    a2T = lib.exp(2 * T * s * lib.log1p(-eta * h))
    G = (1 - a2T) / (one_minus_a * (1 + a))  # Σ_{t<T} a^{2t}
    noise = one_minus_a / (1 + a) * q["sigma2"] / (m * h * h) * (T - G)
    return h * h / T * (q["D2"] * G + noise)


def _thm1_rhs(q: dict[str, Any], lib: Any = math, restore: bool = False) -> Any:
    """Theorem 1's bound with O(x) read as x. ``restore``: with the c₀-dependence the O(·)
    hides put back (the proof's first term 8(F(x̄⁰) − F*)/(ηsT) is the printed one over c₀; the
    √(ms/T)-terms come from η·s and scale with c₀, the ms/T-terms from η²s² with c₀²)."""
    m, s, T, L, rho = q["m"], int(q["s"]), q["T"], q["h"], q["rho"]
    c = q["c0"] if restore else 1
    k = kappa(s, q["eta"] * L)
    C = frak_c(k, L)
    oms = q["gap"] / (1 + lib.sqrt(1 - q["gap"]))  # 1 − √ρ without cancellation
    F0 = L / 2 * q["D2"]
    sig, zeta2 = q["sigma2"], q["zeta2"]
    first = 8 * F0 / lib.sqrt(m * s * T) / c
    linear = (
        16 * L * lib.sqrt(s / (m * T)) * sig
        + 8 * lib.sqrt(m * s / T) * k * k * L * L * (1 + L / 2) * sig
        + 24 * lib.sqrt(m * s / T) * (C + 24 * L * L / oms**2) * zeta2
    )
    quadratic = (
        m * s / T * 1728 * C * L * L / oms**2 * zeta2
        + m * s / T * 144 * rho * L * L / oms**2 * (1 + 3 * C) * sig
    )
    return first + c * linear + c * c * quadratic


def _thm1_explicit_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return rel(_thm1_rhs(q), _thm1_lhs(q))


def _thm1_restored_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return rel(_thm1_rhs(q, restore=True), _thm1_lhs(q))


def _thm1_q_mp(inst: Instance) -> dict[str, Any]:
    """The quantities of :func:`_thm1_quantities` at the working mpmath precision: ρ from the
    exact E[I − W²] (mpmath eigenvalues); T (an integer fixed by the float step-size cap) is
    part of the instance."""
    import mpmath

    T = _thm1_quantities(inst)["T"]
    mp = mpmath.mpf
    p = frs(inst["p"])
    u = [mp(v.numerator) / v.denominator for v in frs(inst["u"])]
    m, s = len(p), int(inst["s"])
    h = mp(10) ** mp(inst["log_h"])
    c0 = mp(10) ** mp(inst["log_c0"]) if "log_c0" in inst else mp(1)
    gap = rho_gap_mp(p, dps=mpmath.mp.dps)
    ubar = mpmath.fsum(u) / m
    return {
        "m": m,
        "s": s,
        "h": h,
        "rho": 1 - gap,
        "gap": gap,
        "T": mp(T),
        "c0": c0,
        "eta": c0 * mpmath.sqrt(mp(m) / (s * T)),
        "D2": (mp(inst["x0"]) - ubar) ** 2,
        "zeta2": h * h * mpmath.fsum((v - ubar) ** 2 for v in u) / m,
        "sigma2": mp(inst["sigma2"]),
    }


def _thm1_exact_at(inst: Instance, restore: bool) -> ExactMargin:
    import mpmath

    with mpmath.workdps(50):
        q = _thm1_q_mp(inst)
        lhs, rhs = _thm1_lhs(q, mpmath), _thm1_rhs(q, mpmath, restore)
        scale = max(abs(lhs), abs(rhs), mpmath.mpf("1e-300"))
        return mp_to_fraction((rhs - lhs) / scale), "mpmath, 50 digits (ρ from exact E[I − W²])"


def _thm1_explicit_exact(inst: Instance) -> ExactMargin:
    """The same margin at 50 digits, every side recomputed."""
    return _thm1_exact_at(inst, restore=False)


def _thm1_restored_exact(inst: Instance) -> ExactMargin:
    return _thm1_exact_at(inst, restore=True)


def _thm1_explain(inst: Instance) -> Explanation:
    """The instance in the paper's terms (F_i = (h/2)(x − u_i)², links p, c₀, T, η) and both
    sides of Theorem 1 with O(x) = x, at 50 digits."""
    import mpmath

    with mpmath.workdps(50):
        q = _thm1_q_mp(inst)
        lhs, rhs = _thm1_lhs(q, mpmath), _thm1_rhs(q, mpmath)
        first = 8 * (q["h"] / 2 * q["D2"]) / mpmath.sqrt(q["m"] * q["s"] * q["T"])
    p, u = decs(inst["p"]), decs(inst["u"])
    return Explanation(
        quantities=(
            Quantity(
                "F_i",
                "clients' losses (isotropic quadratics, L = h, β = 0)",
                tuple(u),
                f"F_i(x) = (h/2)(x − u_i)², h = {show(q['h'])}, u = {show(tuple(u))}",
            ),
            Quantity("p", "link probabilities", tuple(p)),
            Quantity("ρ", "λ₂(E[W²]) (eq. 3)", q["rho"]),
            Quantity("x̄⁰", "initial model", dec(inst["x0"])),
            Quantity("σ²", "gradient noise variance", dec(inst["sigma2"])),
            Quantity("s", "local steps", int(inst["s"])),
            Quantity("c₀", "the constant of η = c₀√(m/(sT))", q["c0"]),
            Quantity("T", "rounds (η meets Theorem 1's step-size condition)", int(q["T"])),
            Quantity("η", "c₀√(m/(sT))", q["eta"]),
        ),
        steps=(Step("8(F(x̄⁰) − F*)/√(msT)", "the first printed term", first),),
        lhs=Step("(1/T)Σ_{k<T}E‖∇F(x̄^k)‖²", "closed form on every path", lhs),
        relation="≤",
        rhs=Step("the bound with O(x) = x", "sum of the printed terms", rhs),
        holds=bool(lhs <= rhs),
        note="The printed constants are those of c₀ = 1: the first term of the proof is "
        "8(F(x̄⁰) − F*)/(ηsT) = (printed first term)/c₀.",
    )


THM1_PARAMS: list[Parameter] = [
    Integer("m", 1, 8),
    Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
    Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0)),
    Real("x0", -10.0, 10.0, special=(0.0,)),
    Real("log_h", -2.0, 2.0, closed=(True, True), special=(0.0,)),
    Real("sigma2", 0.0, 10.0, closed=(True, True), special=(0.0,)),
    Integer("s", 1, 30),
    Real("log_t", 0.0, 6.0, closed=(True, True), special=(0.0,)),
]

THM1_HYPOTHESES = (
    Hypothesis(
        "Assumptions 1–4 (L-smooth, unbiased noise of variance σ², F bounded below, "
        "(β, ζ)-dissimilarity)",
        "F_i(x) = (h/2)(x − u_i)² with Gaussian gradient noise "
        "of variance σ² ∈ [0, 10], h ∈ [0.01, 100] (L = h, β = 0, ζ² = h²·mean(u_i − "
        "ū)²), d = 1, m ≤ 8",
    ),
    Hypothesis("independent links with p_i ≥ c > 0", "p_i ∈ (0, 1], static"),
    Hypothesis(
        "η = c₀√(m/(sT)) meets the step-size condition (l.251)",
        "T = ⌈T_min·10^t⌉, t ∈ [0, 6], T_min = c₀²m/(sη_max²), η_max the largest admissible η",
    ),
)

register_claim(
    "fedpbc:thm1-o",
    "§V-B",
    "Theorem 1 (as printed, with O(·))",
    (249, 255),
    "With η = c₀√(m/(sT)) and T large enough, (1/T)Σ_kE‖∇F(x̄^k)‖² ≤ O(8(F(x̄⁰) − F*)/√(msT)) + "
    "O(noise) + O(client drift) + O(intermittent participation).",
    reason="the constants are hidden in O(·) (and depend on c₀ and on the admissible T): no "
    "finite instance can refute it. Executable readings: fedpbc:thm1-explicit, "
    "fedpbc:thm1-explicit-c0-1, fedpbc:thm1-rate.",
)

register_claim(
    "fedpbc:thm1-explicit",
    "§V-B",
    "Theorem 1 (reading O(x) = x, any c₀)",
    (249, 255),
    "With η = c₀√(m/(sT)) satisfying the step-size condition (T ≥ T_min(c₀)), "
    "(1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ 8(F(x̄⁰) − F*)/√(msT) + 16L√(s/(mT))σ² + "
    "8√(ms/T)κ²L²(1 + L/2)σ² + 24√(ms/T)[𝔆 + 24L²/(1 − √ρ)²]ζ² + (ms/T)1728𝔆L²ζ²/(1 − √ρ)² + "
    "(ms/T)144ρL²(1 + 3𝔆)σ²/(1 − √ρ)².",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_explicit_margin,
    exact=_thm1_explicit_exact,
    tolerance=1e-10,
    expected="refuted",
    explain=_thm1_explain,
    reading=Reading(
        quote="Theorem 1. Suppose all the assumptions hold …, and choose a learning rate η = "
        "c₀√(m/(sT)), where c₀ is a constant, for sufficiently large T such that η ≤ min{…}, "
        "the following property holds for Algorithm 2: (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ "
        "O((8F(x̄⁰) − 8F*)/√(msT)) + O(16L√(s/(mT))σ² + 8√(ms/T)κ²L²(1 + L/2)σ²) + "
        "O(24√(ms/T)[𝔆 + 24L²/(1 − √ρ)²]ζ² + (ms/T)1728𝔆L²ζ²/(1 − √ρ)²) + "
        "O((ms/T)144ρL²(1 + 3𝔆)σ²/(1 − √ρ)²).",
        hypotheses=THM1_HYPOTHESES,
        interpretation="Literal, not the authors' meaning: each O(x) read as x while c₀ "
        "ranges over [1e-3, 100]. The printed arguments of O(·) are the constants for c₀ = 1: "
        "c₀ is 'a constant' that the O(·) absorbs, and the proof's first term is "
        "8(F(x̄⁰) − F*)/(ηsT) = 8(F(x̄⁰) − F*)/(c₀√(msT)), which the printed term matches only "
        "at c₀ = 1. For c₀ < 1/8 the left side alone exceeds the printed first term.",
        alternatives="c₀ = 1: fedpbc:thm1-explicit-c0-1 (holds); the c₀-dependence restored "
        "(first term ÷ c₀, √(ms/T)-terms × c₀, ms/T-terms × c₀²): "
        "fedpbc:thm1-explicit-c0-restored (holds); the rate: fedpbc:thm1-rate (holds).",
    ),
    finding=Finding(
        "literal",
        "the O(·) of Theorem 1 hides the constant c₀ (its first term scales as 1/c₀); with "
        "c₀ = 1, or with the c₀-dependence restored, the explicit bound holds",
        intended="fedpbc:thm1-explicit-c0-1",
    ),
    notes="Isotropic d = 1 quadratics F_i = (h/2)(x − u_i)² + noise (L = h, β = 0, ζ² = "
    "h²·mean(u_i − ū)², σ² the gradient noise), FedPBC with exact W mixing: x̄ obeys "
    "x̄^{t+1} = a x̄^t + (1 − a)(ū − ξ̄^t/h) on every path, a = (1 − ηh)^s, so the LHS is a "
    "closed form (T up to 1e6·T_min). T = ⌈T_min·10^log_t⌉ with T_min = c₀²m/(sη_max²). "
    "Refuted for small c₀: with ζ = σ = 0 the LHS ≈ h‖x̄⁰ − ū‖²/(2c₀√(msT)) against the "
    "first term 4h‖x̄⁰ − ū‖²/√(msT), so it fails for c₀ < 1/8 — the O(·) hides a 1/c₀ (the "
    "standard proof gives 8(F(x̄⁰) − F*)/(ηsT) = 8(F(x̄⁰) − F*)/(c₀√(msT))). See "
    "fedpbc:thm1-explicit-c0-1 for c₀ = 1. Exact margin: both sides at 50 digits (mpmath), ρ "
    "from the exact E[I − W²]. Default search (seed 0), shrunk: m = 1, p = 1, u = 1, x⁰ = −4, "
    "log₁₀h = 1, σ² = 1e-9, s = 1, log₁₀T/T_min = 6, c₀ = 1e-3: margin −0.992 (exact too).",
)

register_claim(
    "fedpbc:thm1-explicit-c0-1",
    "§V-B",
    "Theorem 1 (reading O(x) = x, c₀ = 1)",
    (249, 255),
    "As fedpbc:thm1-explicit with c₀ = 1 (the printed constants are those of c₀ = 1).",
    space=Space(THM1_PARAMS),
    margin=_thm1_explicit_margin,
    exact=_thm1_explicit_exact,
    tolerance=1e-10,
    expected="holds",
    reading=Reading(
        quote="(Theorem 1, l.249–255, as quoted for fedpbc:thm1-explicit.)",
        hypotheses=THM1_HYPOTHESES,
        interpretation="Each O(x) read as x at c₀ = 1, the value at which the printed "
        "constants come out of the proof.",
        alternatives="Any c₀ with the printed constants: fedpbc:thm1-explicit (literal).",
    ),
    notes="Same family and margin as fedpbc:thm1-explicit with c₀ = 1. Narrower than the "
    "paper: isotropic quadratics with one curvature (L = h, β = 0) and exact mixing, because "
    "then x̄ obeys x̄^{t+1} = a x̄^t + (1 − a)(ū − ξ̄^t/h) on every link path and the left side "
    "is a closed form for T up to 1e6·T_min; with heterogeneous curvatures x̄ couples to the "
    "consensus error and the left side needs the second-moment recursion over the 2^m link "
    "patterns for T rounds (T_min reaches 1e6 and more), too costly per instance. Lemmas 4 "
    "and 5 (fedpbc:lemma4, fedpbc:lemma5) are checked with heterogeneous and non-convex "
    "curvatures where a single step or short horizon suffices.",
)

register_claim(
    "fedpbc:thm1-explicit-c0-restored",
    "§V-B",
    "Theorem 1 (O(x) = x with the c₀-dependence restored)",
    (249, 255),
    "With η = c₀√(m/(sT)) satisfying the step-size condition, (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ "
    "8(F(x̄⁰) − F*)/(c₀√(msT)) + c₀[16L√(s/(mT))σ² + 8√(ms/T)κ²L²(1 + L/2)σ² + "
    "24√(ms/T)(𝔆 + 24L²/(1 − √ρ)²)ζ²] + c₀²(ms/T)[1728𝔆L²ζ² + 144ρL²(1 + 3𝔆)σ²]/(1 − √ρ)².",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_restored_margin,
    exact=_thm1_restored_exact,
    tolerance=1e-10,
    expected="holds",
    reading=Reading(
        quote="(Theorem 1, l.249–255, as quoted for fedpbc:thm1-explicit.)",
        hypotheses=THM1_HYPOTHESES,
        interpretation="Our reconstruction of what the O(·) hides: the proof's terms are "
        "(F(x̄⁰) − F*)/(ηsT), terms in ηs and terms in η²s² (Lemma 4 divided by sη/4), so with "
        "η = c₀√(m/(sT)) the printed first term carries 1/c₀, the √(ms/T)- and √(s/(mT))-terms "
        "c₀, the ms/T-terms c₀². Not printed in the paper; it shows that the refutation of "
        "fedpbc:thm1-explicit is the hidden c₀ alone.",
        alternatives="c₀ = 1: fedpbc:thm1-explicit-c0-1.",
    ),
    notes="Same family as fedpbc:thm1-explicit (c₀ ∈ [1e-3, 100]); the right side's terms "
    "scaled by c₀^(−1), c₀ and c₀² as in the statement.",
)


def _thm1_rate_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    # the asymptotic regime needs ηhsT = c₀h√(msT) ≫ 1 (the initial error has decayed)
    base_T = max(q["T"], 1e8 / (q["c0"] ** 2 * q["h"] ** 2 * q["m"] * q["s"]))
    vals = []
    for k in (1, 2):
        qq = dict(q)
        qq["T"] = base_T * 10.0**k
        qq["eta"] = q["c0"] * math.sqrt(q["m"] / (q["s"] * qq["T"]))
        vals.append(_thm1_lhs(qq))
    if vals[0] == 0.0:
        return 0.5
    slope = math.log10(vals[1] / vals[0]) if vals[1] > 0 else -math.inf
    return -0.49 - slope


register_claim(
    "fedpbc:thm1-rate",
    "§V-B",
    "Theorem 1 (rate T^(−1/2))",
    (249, 267),
    "With η = c₀√(m/(sT)), (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² → 0 at rate T^(−1/2).",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_rate_margin,
    tolerance=0.0,
    expected="holds",
    reading=Reading(
        quote="Remark 4(2): Theorem 1 says that x̄^t in FedPBC converges to a stationary "
        "point of F asymptotically … (6) O(1/√(msT) + √(ms/T) + ms/T).",
        hypotheses=THM1_HYPOTHESES,
        interpretation="The O-statement's rate: with η = c₀√(m/(sT)) the average squared "
        "gradient decays as T^(−1/2) (log-log slope between 10T′ and 100T′).",
    ),
    notes="Exact LHS on the quadratic family of fedpbc:thm1-explicit; margin −0.49 − slope "
    "with slope the log-log slope of the LHS between 10T′ and 100T′, T′ = max(T, "
    "10⁸/(c₀²h²ms)) so that c₀h√(msT) ≫ 1 (→ −1/2 exactly: LHS ≈ "
    "‖∇F(x̄⁰)‖²/(2hc₀√(msT)) + hc₀σ²√s/(2√(mT))); the quadratic case of the rate (6).",
)
