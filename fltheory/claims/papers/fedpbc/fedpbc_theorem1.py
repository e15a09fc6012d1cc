"""Claims of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines), §V-B:
Theorem 1 (l.249–255) read with explicit constants, its rate, its step-size condition against
Lemma 5's (l.243), and Remark 4 (l.257–267).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:thm1-stepsize").expected
'refuted'
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    _bisect_cap,
    _fr,
    _frak_c,
    _frs,
    _gap_or_decline,
    _laplacian_exact,
    _mp_to_fraction,
    _one_minus_sqrt,
    _register,
    _rel,
    _rho_gap,
    _rho_gap_mp,
    kappa,
)
from fltheory.claims.space import Instance, Integer, Parameter, Real, Space
from fltheory.errors import NumericalError

PAPER = "fedpbc"

# ---------------------------------------------------------------------------------------------
# Theorem 1, its step sizes, Remark 4
# ---------------------------------------------------------------------------------------------


def _thm1_caps(eta: float, s: int, L: float, rho: float, beta2: float,
               gap: float | None = None) -> list[float]:  # fmt: skip
    k = kappa(s, eta * L)
    C = _frak_c(k, L)
    oms = _one_minus_sqrt(1.0 - rho if gap is None else gap)
    q = s * s * L * L * rho / oms**2
    caps = [1.0 / (24 * (beta2 + 1) * C * (1 + 18 * q) + 144 * (beta2 + 1) * q), 1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (k * s * L))
    if rho > 0:
        caps.append(1.0 / (rho * s**3))
        caps.append(oms / (6 * math.sqrt(2.0) * rho * L * s * s))
    return caps


def _thm1_eta_max(s: int, L: float, rho: float, beta2: float, gap: float | None = None
                  ) -> float:  # fmt: skip
    return _bisect_cap(lambda eta: min(_thm1_caps(eta, s, L, rho, beta2, gap)))


def _thm1_quantities(inst: Instance) -> dict[str, float]:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    m, s = p.size, inst["s"]
    h = 10.0 ** inst["log_h"]
    gap = _gap_or_decline(p)
    rho = 1.0 - gap
    eta_max = _thm1_eta_max(s, h, rho, 0.0, gap)
    c0 = 10.0 ** inst["log_c0"] if "log_c0" in inst else 1.0
    if eta_max < 1e-140:  # 1 − ρ ≈ 1e-100 and below: T_min = c₀²m/(sη_max²) overflows
        raise NumericalError("Theorem 1's admissible T exceeds float64 (η_max below 1e-140)")
    T_min = c0 * c0 * m / (s * eta_max * eta_max)
    T = math.ceil(max(T_min, 1.0) * 10.0 ** inst["log_t"])
    eta = c0 * math.sqrt(m / (s * T))
    D2 = (inst["x0"] - float(u.mean())) ** 2
    zeta2 = h * h * float(np.mean((u - u.mean()) ** 2))
    return {"m": m, "s": s, "h": h, "rho": rho, "gap": gap, "eta": eta, "T": T, "D2": D2,
            "zeta2": zeta2, "sigma2": inst["sigma2"], "c0": c0}  # fmt: skip


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
    C = _frak_c(k, L)
    oms = q["gap"] / (1 + lib.sqrt(1 - q["gap"]))  # 1 − √ρ without cancellation
    F0 = L / 2 * q["D2"]
    sig, zeta2 = q["sigma2"], q["zeta2"]
    first = 8 * F0 / lib.sqrt(m * s * T) / c
    linear = (16 * L * lib.sqrt(s / (m * T)) * sig
              + 8 * lib.sqrt(m * s / T) * k * k * L * L * (1 + L / 2) * sig
              + 24 * lib.sqrt(m * s / T) * (C + 24 * L * L / oms**2) * zeta2)  # fmt: skip
    quadratic = (m * s / T * 1728 * C * L * L / oms**2 * zeta2
                 + m * s / T * 144 * rho * L * L / oms**2 * (1 + 3 * C) * sig)  # fmt: skip
    return first + c * linear + c * c * quadratic


def _thm1_explicit_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return _rel(_thm1_rhs(q), _thm1_lhs(q))


def _thm1_restored_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return _rel(_thm1_rhs(q, restore=True), _thm1_lhs(q))


def _thm1_q_mp(inst: Instance) -> dict[str, Any]:
    """The quantities of :func:`_thm1_quantities` at the working mpmath precision: ρ from the
    exact E[I − W²] (mpmath eigenvalues); T (an integer fixed by the float step-size cap) is
    part of the instance."""
    import mpmath

    T = _thm1_quantities(inst)["T"]
    mp = mpmath.mpf
    p = _frs(inst["p"])
    u = [mp(v.numerator) / v.denominator for v in _frs(inst["u"])]
    m, s = len(p), int(inst["s"])
    h = mp(10) ** mp(inst["log_h"])
    c0 = mp(10) ** mp(inst["log_c0"]) if "log_c0" in inst else mp(1)
    gap = _rho_gap_mp(p, dps=mpmath.mp.dps)
    ubar = mpmath.fsum(u) / m
    return {"m": m, "s": s, "h": h, "rho": 1 - gap, "gap": gap, "T": mp(T), "c0": c0,
            "eta": c0 * mpmath.sqrt(mp(m) / (s * T)), "D2": (mp(inst["x0"]) - ubar) ** 2,
            "zeta2": h * h * mpmath.fsum((v - ubar) ** 2 for v in u) / m,
            "sigma2": mp(inst["sigma2"])}  # fmt: skip


def _thm1_exact_at(inst: Instance, restore: bool) -> ExactMargin:
    import mpmath

    with mpmath.workdps(50):
        q = _thm1_q_mp(inst)
        lhs, rhs = _thm1_lhs(q, mpmath), _thm1_rhs(q, mpmath, restore)
        scale = max(abs(lhs), abs(rhs), mpmath.mpf("1e-300"))
        return _mp_to_fraction((rhs - lhs) / scale), "mpmath, 50 digits (ρ from exact E[I − W²])"


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
    Hypothesis("Assumptions 1–4 (L-smooth, unbiased noise of variance σ², F bounded below, "
               "(β, ζ)-dissimilarity)", "F_i(x) = (h/2)(x − u_i)² with Gaussian gradient noise "
               "of variance σ² ∈ [0, 10], h ∈ [0.01, 100] (L = h, β = 0, ζ² = h²·mean(u_i − "
               "ū)²), d = 1, m ≤ 8"),
    Hypothesis("independent links with p_i ≥ c > 0", "p_i ∈ (0, 1], static"),
    Hypothesis("η = c₀√(m/(sT)) meets the step-size condition (l.251)", "T = ⌈T_min·10^t⌉, "
               "t ∈ [0, 6], T_min = c₀²m/(sη_max²), η_max the largest admissible η"),
)  # fmt: skip

_register(
    "thm1-o", "§V-B", "Theorem 1 (as printed, with O(·))", (249, 255),
    "With η = c₀√(m/(sT)) and T large enough, (1/T)Σ_kE‖∇F(x̄^k)‖² ≤ O(8(F(x̄⁰) − F*)/√(msT)) + "
    "O(noise) + O(client drift) + O(intermittent participation).",
    reason="the constants are hidden in O(·) (and depend on c₀ and on the admissible T): no "
    "finite instance can refute it. Executable readings: fedpbc:thm1-explicit, "
    "fedpbc:thm1-explicit-c0-1, fedpbc:thm1-rate.",
)  # fmt: skip

_register(
    "thm1-explicit", "§V-B", "Theorem 1 (reading O(x) = x, any c₀)", (249, 255),
    "With η = c₀√(m/(sT)) satisfying the step-size condition (T ≥ T_min(c₀)), "
    "(1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ 8(F(x̄⁰) − F*)/√(msT) + 16L√(s/(mT))σ² + "
    "8√(ms/T)κ²L²(1 + L/2)σ² + 24√(ms/T)[𝔆 + 24L²/(1 − √ρ)²]ζ² + (ms/T)1728𝔆L²ζ²/(1 − √ρ)² + "
    "(ms/T)144ρL²(1 + 3𝔆)σ²/(1 − √ρ)².",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_explicit_margin, exact=_thm1_explicit_exact, tolerance=1e-10,
    expected="refuted", explain=_thm1_explain,
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
)  # fmt: skip

_register(
    "thm1-explicit-c0-1", "§V-B", "Theorem 1 (reading O(x) = x, c₀ = 1)", (249, 255),
    "As fedpbc:thm1-explicit with c₀ = 1 (the printed constants are those of c₀ = 1).",
    space=Space(THM1_PARAMS),
    margin=_thm1_explicit_margin, exact=_thm1_explicit_exact, tolerance=1e-10,
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
)  # fmt: skip

_register(
    "thm1-explicit-c0-restored", "§V-B", "Theorem 1 (O(x) = x with the c₀-dependence restored)",
    (249, 255),
    "With η = c₀√(m/(sT)) satisfying the step-size condition, (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ "
    "8(F(x̄⁰) − F*)/(c₀√(msT)) + c₀[16L√(s/(mT))σ² + 8√(ms/T)κ²L²(1 + L/2)σ² + "
    "24√(ms/T)(𝔆 + 24L²/(1 − √ρ)²)ζ²] + c₀²(ms/T)[1728𝔆L²ζ² + 144ρL²(1 + 3𝔆)σ²]/(1 − √ρ)².",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_restored_margin, exact=_thm1_restored_exact, tolerance=1e-10,
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
)  # fmt: skip


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


_register(
    "thm1-rate", "§V-B", "Theorem 1 (rate T^(−1/2))", (249, 267),
    "With η = c₀√(m/(sT)), (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² → 0 at rate T^(−1/2).",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_rate_margin, tolerance=0.0, expected="holds",
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
)  # fmt: skip


def _mp_dec(value: Any) -> Any:
    """The exact decimal of a float (or a Fraction) as an mpmath number at the working
    precision."""
    import mpmath

    frac = dec(value)
    return mpmath.mpf(frac.numerator) / frac.denominator


def _stepsize_params(inst: Instance) -> tuple[int, float, float, float]:
    """(s, L, ρ, β²) of an instance."""
    return int(inst["s"]), float(inst["L"]), float(inst["rho"]), float(inst["beta"]) ** 2


def _stepsize_margin_at(inst: Instance, root2rho: bool) -> float:
    s, L, rho, beta2 = _stepsize_params(inst)
    gap = 1.0 - rho
    t1 = _thm1_eta_max(s, L, rho, beta2) if not root2rho else _bisect_cap(
        lambda eta: min(_thm1_caps_intended(eta, s, L, rho, beta2, gap))
    )  # fmt: skip
    # Lemma 5's caps at Theorem 1's largest step: all ≥ η_T1 iff η_T1 is admissible for Lemma 5
    caps = [1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (kappa(s, t1 * L) * s * L))
    last = _one_minus_sqrt(gap) / (6 * math.sqrt(2 * rho) * L * s * s)
    margin = (min(*caps, last) - t1) / t1
    if margin == 0.0:  # a shared cap binds both: holds; report the slack of Lemma 5's own cap
        margin = 1e-6 * (last - t1) / t1
    return margin


def _thm1_caps_intended(eta: float, s: int, L: float, rho: float, beta2: float, gap: float
                        ) -> list[float]:  # fmt: skip
    """Theorem 1's caps with the last one read as Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²)."""
    caps = _thm1_caps(eta, s, L, rho, beta2, gap)
    if rho > 0:
        caps[-1] = _one_minus_sqrt(gap) / (6 * math.sqrt(2 * rho) * L * s * s)
    return caps


def _stepsize_margin(inst: Instance) -> float:
    return _stepsize_margin_at(inst, root2rho=False)


def _stepsize_intended_margin(inst: Instance) -> float:
    return _stepsize_margin_at(inst, root2rho=True)


def _stepsize_sides_mp(s: int, L: Any, rho: Any, beta2: Any, root2rho: bool, dps: int = 40
                       ) -> dict[str, Any]:  # fmt: skip
    """Theorem 1's largest admissible η (bisection to 2^-100 on the fixed point with κ(η)) and
    every cap of Theorem 1 and Lemma 5 there, at ``dps`` digits."""
    import mpmath

    with mpmath.workdps(dps):
        r = mpmath.sqrt(rho)

        def kap(eta: Any) -> Any:
            if s == 1:
                return mpmath.mpf(0)
            x, total = eta * L, mpmath.mpf(0)
            for j in range(s, 1, -1):  # Horner: Σ_{j≥2} C(s,j) x^(j−2)
                total = total * x + math.comb(s, j)
            return total / math.comb(s, 2)

        def lemma5(eta: Any) -> dict[str, Any]:
            caps = {
                "1/(2s)": mpmath.mpf(1) / (2 * s),
                "(1 − √ρ)/(6√(2ρ)Ls²)": (1 - r) / (6 * mpmath.sqrt(2 * rho) * L * s * s),
            }
            if s > 1:
                caps["√2/(κsL)"] = mpmath.sqrt(2) / (kap(eta) * s * L)
            return caps

        def theorem1(eta: Any) -> dict[str, Any]:
            k = kap(eta)
            C = k * k * L * L + 2 * L * (1 + k * k * L * L / 4)
            q = s * s * L * L * rho / (1 - r) ** 2
            last = (1 - r) / (6 * (mpmath.sqrt(2 * rho) if root2rho else mpmath.sqrt(2) * rho)
                              * L * s * s)  # fmt: skip
            caps = {
                "1/(24(β²+1)𝔆[1 + 18s²L²ρ/(1−√ρ)²] + 144(β²+1)s²L²ρ/(1−√ρ)²)": 1
                / (24 * (beta2 + 1) * C * (1 + 18 * q) + 144 * (beta2 + 1) * q),
                "1/(2s)": mpmath.mpf(1) / (2 * s),
                "1/(ρs³)": 1 / (rho * s**3),
                ("(1 − √ρ)/(6√(2ρ)Ls²)" if root2rho else "(1 − √ρ)/(6√2·ρLs²)"): last,
            }
            if s > 1:
                caps["√2/(κsL)"] = mpmath.sqrt(2) / (k * s * L)
            return caps

        lo, hi = mpmath.mpf(0), min(theorem1(mpmath.mpf(0)).values())
        if hi > min(theorem1(hi).values()):
            for _ in range(100):
                mid = (lo + hi) / 2
                if mid <= min(theorem1(mid).values()):
                    lo = mid
                else:
                    hi = mid
            hi = lo
        return {"eta": hi, "kappa": kap(hi), "theorem1": theorem1(hi), "lemma5": lemma5(hi)}


def _stepsize_exact_at(inst: Instance, root2rho: bool) -> ExactMargin:
    import mpmath

    s, L, rho, _ = _stepsize_params(inst)
    with mpmath.workdps(40):
        L_, rho_, beta_ = (_mp_dec(v) for v in (L, rho, float(inst["beta"])))
        sides = _stepsize_sides_mp(s, L_, rho_, beta_**2, root2rho)
        b = sides["eta"]
        return _mp_to_fraction((min(sides["lemma5"].values()) - b) / b), (
            "mpmath, 40 digits (η_T1 by bisection to 2^-100)"
        )


def _stepsize_exact(inst: Instance) -> ExactMargin:
    return _stepsize_exact_at(inst, root2rho=False)


def _stepsize_intended_exact(inst: Instance) -> ExactMargin:
    return _stepsize_exact_at(inst, root2rho=True)


def _short_decimals(x: float) -> list[float]:
    """x rounded down and up to 1 and 2 significant digits (positive x)."""
    out = []
    for digits in (1, 2):
        scale = 10.0 ** (math.floor(math.log10(x)) - digits + 1)
        out += [float(f"{math.floor(x / scale) * scale:.{digits}g}"),
                float(f"{math.ceil(x / scale) * scale:.{digits}g}")]  # fmt: skip
    return [v for v in dict.fromkeys(out) if v > 0]


def _stepsize_simplify(inst: Instance) -> list[Instance]:
    """L and ρ rounded down or up to 1–2 significant digits, with β = 0: the generic moves
    round to the nearest value only, which often leaves the (narrow) violation region."""
    return [{**inst, "L": L, "rho": rho, "beta": 0.0}
            for L in _short_decimals(float(inst["L"]))
            for rho in _short_decimals(float(inst["rho"]))]  # fmt: skip


def _stepsize_explain(inst: Instance) -> Explanation:
    """s, L, ρ, β as exact decimals; Theorem 1's largest step η and every cap of Theorem 1 and
    Lemma 5 at that η (mpmath, 40 digits)."""
    import mpmath

    s, L, rho, _ = _stepsize_params(inst)
    Lf, rhof, beta = dec(L), dec(rho), dec(float(inst["beta"]))
    with mpmath.workdps(40):
        sides = _stepsize_sides_mp(s, _mp_dec(Lf), _mp_dec(rhof), _mp_dec(beta) ** 2, False)
    eta, l5 = sides["eta"], min(sides["lemma5"].values())
    return Explanation(
        quantities=(
            Quantity("s", "local steps", s),
            Quantity("L", "smoothness constant", Lf),
            Quantity(
                "ρ",
                "λ₂(E[W²]) of eq. (3); e.g. m = 2 clients with p = (1, 1 − ρ), for "
                "which ρ = 1 − p₁p₂",
                rhof,
            ),
            Quantity("β", "heterogeneity constant of Assumption 4", beta),
        ),
        steps=(
            Step("κ(η)", "eq. (4) at Theorem 1's largest η", sides["kappa"]),
            *(Step(f"Theorem 1 cap {name}", "", v) for name, v in sides["theorem1"].items()),
            *(Step(f"Lemma 5 cap {name}", "", v) for name, v in sides["lemma5"].items()),
        ),
        lhs=Step("η_max(Theorem 1)", "largest η ≤ every Theorem 1 cap (l.251)", eta),
        relation="≤",
        rhs=Step("η_max(Lemma 5)", "smallest Lemma 5 cap at that η (l.243)", l5),
        holds=bool(eta <= l5),
        verify_args={"s": s, "L": Lf, "rho": rhof, "beta": beta},
        note="Theorem 1 admits this η, Lemma 5 (which its proof uses) does not: its last cap "
        "has √2·ρ where Lemma 5 and Remark 2 have √(2ρ).",
    )


def _verify_thm1_stepsize(s, L, rho, beta):
    """Theorem 1's largest step size η (every cap of l.251 at once; κ depends on η) against
    Lemma 5's condition (l.243) at that η: mpmath, 40 digits."""
    import mpmath

    with mpmath.workdps(40):
        L = mpmath.mpf(L.numerator) / L.denominator
        rho = mpmath.mpf(rho.numerator) / rho.denominator
        beta2 = (mpmath.mpf(beta.numerator) / beta.denominator) ** 2
        r = mpmath.sqrt(rho)

        def kappa(eta):  # eq. (4): ((1 + ηL)^s − 1 − sηL)/(C(s,2)(ηL)²); 0 for s = 1
            if s == 1:
                return mpmath.mpf(0)
            x = eta * L
            terms = (mpmath.binomial(s, j) * x ** (j - 2) for j in range(2, s + 1))
            return mpmath.fsum(terms) / mpmath.binomial(s, 2)

        def theorem1_cap(eta):
            k = kappa(eta)
            C = k * k * L * L + 2 * L * (1 + k * k * L * L / 4)
            q = s * s * L * L * rho / (1 - r) ** 2
            caps = [
                1 / (24 * (beta2 + 1) * C * (1 + 18 * q) + 144 * (beta2 + 1) * q),
                mpmath.mpf(1) / (2 * s),
                1 / (rho * s**3),
                (1 - r) / (6 * mpmath.sqrt(2) * rho * L * s * s),
            ]
            if s > 1:
                caps.append(mpmath.sqrt(2) / (k * s * L))
            return min(caps)

        def lemma5_cap(eta):
            caps = [mpmath.mpf(1) / (2 * s), (1 - r) / (6 * mpmath.sqrt(2 * rho) * L * s * s)]
            if s > 1:
                caps.append(mpmath.sqrt(2) / (kappa(eta) * s * L))
            return min(caps)

        lo, hi = mpmath.mpf(0), theorem1_cap(mpmath.mpf(0))
        if hi > theorem1_cap(hi):
            for _ in range(100):  # every cap decreases in η: the admissible set is [0, η_max]
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if mid <= theorem1_cap(mid) else (lo, mid)
            hi = lo
        eta_max, bound = +hi, +lemma5_cap(hi)
    return {"lhs": eta_max, "rhs": bound, "holds": bool(eta_max <= bound)}


_register(
    "thm1-stepsize", "§V-B", "Theorem 1's step-size condition vs Lemma 5's (as printed)",
    (243, 251),
    "Every η admissible in Theorem 1 satisfies Lemma 5's condition (Theorem 1 uses Lemma 5): "
    "η_max(Thm 1) ≤ η_max(Lemma 5).",
    space=Space([
        Integer("s", 1, 100),
        Real("L", 0.0, 10.0, closed=(False, True), special=(0.1, 1.0)),
        Real("rho", 0.0, 1.0, special=(0.01, 0.001, 0.5)),
        Real("beta", 0.0, 1.0, closed=(True, True), special=(0.0, 0.5)),
    ]),
    margin=_stepsize_margin, exact=_stepsize_exact, tolerance=1e-12, expected="refuted",
    simplify=_stepsize_simplify, explain=_stepsize_explain, verify=_verify_thm1_stepsize,
    reading=Reading(
        quote="Lemma 5: under a choice of the learning rate η ≤ min{1/(2s), √2/(κsL), "
        "(1 − √ρ)/(6√(2ρ)Ls²)} … Theorem 1: choose a learning rate η = c₀√(m/(sT)) … such "
        "that η ≤ min{1/(24(β² + 1)𝔆[1 + 18s²L²ρ/(1 − √ρ)²] + 144(β² + 1)s²L²ρ/(1 − √ρ)²), "
        "1/(2s), √2/(κsL), 1/(ρs³), (1 − √ρ)/(6√2ρLs²)}.",
        hypotheses=(
            Hypothesis("Theorem 1's step-size condition (l.251)", "η = the largest η meeting "
                       "every printed cap (bisection; κ depends on η)"),
            Hypothesis("ρ ∈ [0, 1) (Lemma 1: c > 0)", "ρ ∈ (0, 1), realisable with m = 2 "
                       "clients, ρ = 1 − p₁p₂"),
            Hypothesis("s ≥ 1, L > 0, β ≥ 0", "s ≤ 100, L ∈ (0, 10], β ∈ [0, 1]: violations "
                       "need L ≲ 4 and small β (a larger β shrinks Theorem 1's first cap), so "
                       "wider ranges only add holding instances"),
        ),
        interpretation="Theorem 1's proof combines Lemma 4 with Lemma 5, so every η Theorem 1 "
        "admits must satisfy Lemma 5's condition. The claim reads both conditions as printed. "
        "Theorem 1's last cap prints √2·ρ where Lemma 5 (l.243) and Remark 2 (l.221) print "
        "√(2ρ); since √2·ρ < √(2ρ), Theorem 1's cap is larger by 1/√ρ and admits steps Lemma 5 "
        "excludes whenever that cap of Lemma 5 binds. The √2·ρ is read from this "
        "extraction of the paper; a radical over 2ρ misread as one over 2 would give the same "
        "text, and the full version [17] was not available to compare.",
        alternatives="Theorem 1's last cap read as Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²): "
        "fedpbc:thm1-stepsize-intended (holds).",
    ),
    finding=Finding(
        "typo",
        "Theorem 1's last step-size cap prints (1 − √ρ)/(6√2·ρLs²), larger by 1/√ρ than Lemma "
        "5's (1 − √ρ)/(6√(2ρ)Ls²) (l.243, also Remark 2 l.221) which its proof needs; with "
        "√(2ρ) Theorem 1's condition implies Lemma 5's",
        intended="fedpbc:thm1-stepsize-intended",
    ),
    notes="Both admissible sets are intervals [0, η_max] (every cap is non-increasing in η "
    "through κ); Theorem 1's η_max by bisection, then the margin is min over Lemma 5's caps "
    "of (cap(η_T1) − η_T1)/η_T1 (≥ 0 iff η_T1 is admissible for Lemma 5; a tie on a shared cap "
    "reports 1e-6 × the slack of Lemma 5's own last cap, to guide the search). L, ρ and β are "
    "searched linearly (the descent's logit coordinates reach small ρ), so that shrinking "
    "rounds them to short decimals. The exact "
    "margin re-evaluates the same at 40 digits (η_T1 by bisection to 2^-100). Violations need "
    "Lemma 5's last cap to bind while Theorem 1's first cap and 1/(ρs³) do not: small ρ, "
    "moderate L, s ≳ 15 — e.g. s = 20, L = 0.2, ρ = 0.0049 (√ρ = 0.07), β = 0: η_max(Thm 1) "
    "≈ 0.02424 > 0.01957 (margin −0.192); moderate witness of the default search (seed 0): "
    "s = 50, L = 0.4, ρ = 0.001, β = 0.",
)  # fmt: skip

_register(
    "thm1-stepsize-intended", "§V-B",
    "Theorem 1's step-size condition vs Lemma 5's (last cap read with √(2ρ))", (243, 251),
    "With Theorem 1's last cap read as Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²), every η admissible in "
    "Theorem 1 satisfies Lemma 5's condition.",
    space=Space([
        Integer("s", 1, 100),
        Real("L", 0.0, 10.0, closed=(False, True), special=(0.1, 1.0)),
        Real("rho", 0.0, 1.0, special=(0.01, 0.001, 0.5)),
        Real("beta", 0.0, 1.0, closed=(True, True), special=(0.0, 0.5)),
    ]),
    margin=_stepsize_intended_margin, exact=_stepsize_intended_exact, tolerance=1e-12,
    expected="holds",
    notes="Same margin as fedpbc:thm1-stepsize with √(2ρ) in Theorem 1's last cap. Theorem 1's "
    "caps then include all three of Lemma 5's, so the claim holds by construction; the check "
    "guards the reading (and the bisection) against slips.",
)  # fmt: skip


def _remark4_bound_margin(inst: Instance) -> float:
    m = inst["m"]
    c1 = inst["c"]
    c2 = c1 + inst["dc"] * (1.0 - c1)

    def gap(c: float) -> float:
        reach = 1.0 if c == 1.0 else -math.expm1(m * math.log1p(-c))
        return c**4 * reach**2 / 8.0

    return _rel(gap(c2), gap(c1))


def _remark4_bound_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    c1 = _fr(inst["c"])
    c2 = c1 + _fr(inst["dc"]) * (1 - c1)

    def gap(c: Fraction) -> Fraction:
        return c**4 * (1 - (1 - c) ** m) ** 2 / 8

    g1, g2 = gap(c1), gap(c2)
    return (g2 - g1) / max(g1, g2), "exact rationals"


_register(
    "remark4-c-bound", "§V-B", "Remark 4(3): a greater c gives a smaller bound on ρ", (261, 261),
    "Lemma 1's bound 1 − c⁴[1 − (1 − c)^m]²/8 is non-increasing in c ∈ (0, 1].",
    space=Space([
        Integer("m", 1, 500),
        Real("c", 0.0, 1.0, closed=(False, True)),
        Real("dc", 0.0, 1.0, closed=(False, True)),
    ]),
    margin=_remark4_bound_margin, exact=_remark4_bound_exact, tolerance=1e-12,
    expected="holds",
    notes="c₂ = c₁ + dc(1 − c₁) > c₁; margin is the relative increase of the guaranteed gap "
    "c⁴[1 − (1 − c)^m]²/8 (both factors increase in c). As a statement about the worst case "
    "max_{p ≥ c}ρ(p) it is trivial (the feasible set shrinks); fedpbc:remark4-c-rho checks ρ "
    "itself.",
)  # fmt: skip


def _remark4_rho_margin(inst: Instance) -> float:
    p = np.asarray(inst["p"])
    q = p.copy()
    i = int(inst["i"]) % p.size
    q[i] = p[i] + inst["dp"] * (1.0 - p[i])
    g_p, g_q = _rho_gap(p), _rho_gap(q)
    # ρ(q) ≤ ρ(p) ⇔ 1 − ρ(q) ≥ 1 − ρ(p); eigvalsh errs by ≈ eps·‖E[I − W²]‖ ≤ 2 eps
    noise = 64 * np.finfo(float).eps
    return (g_q - g_p + noise) / max(g_q, g_p, noise)


def _remark4_rho_exact(inst: Instance) -> ExactMargin:
    import mpmath

    p = _frs(inst["p"])
    q = list(p)
    i = int(inst["i"]) % len(p)
    q[i] = p[i] + _fr(inst["dp"]) * (1 - p[i])
    with mpmath.workdps(50):
        a, b = _rho_gap_mp(q), _rho_gap_mp(p)
        return _mp_to_fraction((a - b) / max(a, b, mpmath.mpf("1e-300"))), "mpmath, 50 digits"


_register(
    "remark4-c-rho", "§V-B", "Remark 4(3), read on ρ itself", (261, 261),
    "Raising a link probability does not increase ρ (ρ(p) is non-increasing in each p_i).",
    space=Space([
        Integer("m", 2, 7),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Integer("i", 0, 6),
        Real("dp", 0.0, 1.0, closed=(False, True), special=(1.0,)),
    ]),
    margin=_remark4_rho_margin, exact=_remark4_rho_exact, tolerance=1e-12, expected="holds",
    notes="Our reading of 'a greater c leads to a smaller ρ' for a fixed population: p_i ↦ "
    "p_i + dp(1 − p_i); margin the relative increase of 1 − ρ (enumeration, E[I − W²]).",
)  # fmt: skip


def _remark4_c1_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import mixing_expectation

    m = inst["m"]
    M = mixing_expectation(np.ones(m))
    return -float(np.max(np.abs(M - 1.0 / m)))


def _remark4_c1_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    if m > 8:
        return Fraction(0), "W = J on the only pattern A = [m] (all p_i = 1)"
    L = _laplacian_exact([Fraction(1)] * m)
    ok = all(L[i][j] == (1 if i == j else 0) - Fraction(1, m) for i in range(m) for j in range(m))
    return (Fraction(0) if ok else Fraction(-1)), "exact rationals"


_register(
    "remark4-c1-fedavg", "§V-B", "Remark 4(3): c = 1 gives FedAvg with full participation",
    (261, 261),
    "With c = 1 (every link always active) W^(t) = J, so FedPBC is FedAvg with full "
    "participation (ρ = 0).",
    space=Space([Integer("m", 1, 300)]),
    margin=_remark4_c1_margin, exact=_remark4_c1_exact, tolerance=1e-12, expected="holds",
    notes="Code path fltheory.limits.fedpbc.mixing_expectation at p = 1: M = J (margin −max "
    "entry error).",
)  # fmt: skip

_register(
    "remark4-rate6", "§V-B", "Remark 4(3): rate (6) for c = 1", (261, 265),
    "With c = 1 the rate becomes O(1/√(msT) + √(ms/T) + ms/T) (6).",
    reason="an O-statement with hidden constants; its explicit c = 1 case is the ρ = 0 "
    "boundary (p ≡ 1) of fedpbc:thm1-explicit / thm1-explicit-c0-1.",
)  # fmt: skip

_register(
    "remark4-speedup", "§V-B", "Remark 4(4): no linear speed-up", (267, 267),
    "For T ≥ c₁m³s³ the first two terms of (6) dominate; linear speed-up is unlikely.",
    reason="an asymptotic opinion about which O-terms dominate, with an unspecified constant "
    "c₁; nothing to evaluate.",
)  # fmt: skip

_register(
    "remark4-structure", "§V-B", "Remark 4(1)-(2): structure of the bound", (259, 260),
    "The terms group into noise, client drift and intermittent participation; x̄^t of FedPBC "
    "converges to a stationary point while FedAvg's may be far from x*.",
    reason="(1) describes the grouping of terms; (2) restates Theorem 1 and Proposition 1, "
    "checked as fedpbc:thm1-rate, fedpbc:fig2-unbiased-xbar and fedpbc:prop1-far.",
)  # fmt: skip
