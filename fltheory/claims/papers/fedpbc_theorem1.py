"""Claims of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines), §V-B:
Theorem 1 (l.249–255) read with explicit constants, its rate, its step-size condition against
Lemma 5's (l.243), and Remark 4 (l.257–267).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:thm1-stepsize").expected
'refuted'
"""

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin
from fltheory.claims.papers._fedpbc_common import (
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


def _thm1_rhs(q: dict[str, Any], lib: Any = math) -> Any:
    m, s, T, L, rho = q["m"], int(q["s"]), q["T"], q["h"], q["rho"]
    k = kappa(s, q["eta"] * L)
    C = _frak_c(k, L)
    oms = q["gap"] / (1 + lib.sqrt(1 - q["gap"]))  # 1 − √ρ without cancellation
    F0 = L / 2 * q["D2"]
    sig, zeta2 = q["sigma2"], q["zeta2"]
    first = 8 * F0 / lib.sqrt(m * s * T)
    return (first
            + 16 * L * lib.sqrt(s / (m * T)) * sig
            + 8 * lib.sqrt(m * s / T) * k * k * L * L * (1 + L / 2) * sig
            + 24 * lib.sqrt(m * s / T) * (C + 24 * L * L / oms**2) * zeta2
            + m * s / T * 1728 * C * L * L / oms**2 * zeta2
            + m * s / T * 144 * rho * L * L / oms**2 * (1 + 3 * C) * sig)  # fmt: skip


def _thm1_explicit_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return _rel(_thm1_rhs(q), _thm1_lhs(q))


def _thm1_explicit_exact(inst: Instance) -> ExactMargin:
    """The same margin at 50 digits: ρ from the exact E[I − W²] (mpmath eigenvalues), every
    side recomputed; T (an integer fixed by the float step-size cap) is part of the instance."""
    import mpmath

    T = _thm1_quantities(inst)["T"]
    with mpmath.workdps(50):
        mp = mpmath.mpf
        p = _frs(inst["p"])
        u = [mp(v.numerator) / v.denominator for v in _frs(inst["u"])]
        m, s = len(p), int(inst["s"])
        h = mp(10) ** mp(inst["log_h"])
        c0 = mp(10) ** mp(inst["log_c0"]) if "log_c0" in inst else mp(1)
        gap = _rho_gap_mp(p)
        ubar = mpmath.fsum(u) / m
        q = {"m": m, "s": s, "h": h, "rho": 1 - gap, "gap": gap, "T": mp(T),
             "eta": c0 * mpmath.sqrt(mp(m) / (s * T)), "D2": (mp(inst["x0"]) - ubar) ** 2,
             "zeta2": h * h * mpmath.fsum((v - ubar) ** 2 for v in u) / m,
             "sigma2": mp(inst["sigma2"])}  # fmt: skip
        lhs, rhs = _thm1_lhs(q, mpmath), _thm1_rhs(q, mpmath)
        scale = max(abs(lhs), abs(rhs), mp("1e-300"))
        return _mp_to_fraction((rhs - lhs) / scale), "mpmath, 50 digits (ρ from exact E[I − W²])"


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
    expected="refuted",
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
    notes="Same family and margin as fedpbc:thm1-explicit with c₀ = 1.",
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
    notes="Exact LHS on the quadratic family of fedpbc:thm1-explicit; margin −0.49 − slope "
    "with slope the log-log slope of the LHS between 10T′ and 100T′, T′ = max(T, "
    "10⁸/(c₀²h²ms)) so that c₀h√(msT) ≫ 1 (→ −1/2 exactly: LHS ≈ "
    "‖∇F(x̄⁰)‖²/(2hc₀√(msT)) + hc₀σ²√s/(2√(mT))); the quadratic case of the rate (6).",
)  # fmt: skip


def _stepsize_margin(inst: Instance) -> float:
    s = inst["s"]
    L = 10.0 ** inst["log_L"]
    rho = 10.0 ** inst["log_rho"]
    beta2 = (10.0 ** inst["log_beta"]) ** 2
    t1 = _thm1_eta_max(s, L, rho, beta2)
    # Lemma 5's caps at Theorem 1's largest step: all ≥ η_T1 iff η_T1 is admissible for Lemma 5
    caps = [1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (kappa(s, t1 * L) * s * L))
    last = _one_minus_sqrt(1.0 - rho) / (6 * math.sqrt(2 * rho) * L * s * s)
    margin = (min(*caps, last) - t1) / t1
    if margin == 0.0:  # a shared cap binds both: holds; report the slack of Lemma 5's own cap
        margin = 1e-6 * (last - t1) / t1
    return margin


def _stepsize_exact(inst: Instance) -> ExactMargin:
    import mpmath

    s = inst["s"]
    with mpmath.workdps(24):
        L = mpmath.mpf(10) ** mpmath.mpf(inst["log_L"])
        rho = mpmath.mpf(10) ** mpmath.mpf(inst["log_rho"])
        beta2 = (mpmath.mpf(10) ** mpmath.mpf(inst["log_beta"])) ** 2
        r = mpmath.sqrt(rho)

        def kap(eta: Any) -> Any:
            if s == 1:
                return mpmath.mpf(0)
            x, total = eta * L, mpmath.mpf(0)
            for j in range(s, 1, -1):  # Horner: Σ_{j≥2} C(s,j) x^(j−2)
                total = total * x + math.comb(s, j)
            return total / math.comb(s, 2)

        def l5(eta: Any) -> Any:
            t = [mpmath.mpf(1) / (2 * s), (1 - r) / (6 * mpmath.sqrt(2 * rho) * L * s * s)]
            if s > 1:
                t.append(mpmath.sqrt(2) / (kap(eta) * s * L))
            return min(t)

        def t1(eta: Any) -> Any:
            k = kap(eta)
            C = k * k * L * L + 2 * L * (1 + k * k * L * L / 4)
            qq = s * s * L * L * rho / (1 - r) ** 2
            t = [1 / (24 * (beta2 + 1) * C * (1 + 18 * qq) + 144 * (beta2 + 1) * qq),
                 mpmath.mpf(1) / (2 * s), 1 / (rho * s**3),
                 (1 - r) / (6 * mpmath.sqrt(2) * rho * L * s * s)]  # fmt: skip
            if s > 1:
                t.append(mpmath.sqrt(2) / (k * s * L))
            return min(t)

        def fixed(cap: Callable[[Any], Any]) -> Any:
            lo, hi = mpmath.mpf(0), cap(mpmath.mpf(0))
            if hi <= cap(hi):
                return hi
            for _ in range(75):
                mid = (lo + hi) / 2
                if mid <= cap(mid):
                    lo = mid
                else:
                    hi = mid
            return lo

        b = fixed(t1)  # Theorem 1's largest step; the float margin's quantity, re-evaluated
        return _mp_to_fraction((l5(b) - b) / b), "mpmath, 24 digits (bisection to 2^-75)"


_register(
    "thm1-stepsize", "§V-B", "Theorem 1's step-size condition vs Lemma 5's", (243, 251),
    "Every η admissible in Theorem 1 satisfies Lemma 5's condition (Theorem 1 uses Lemma 5): "
    "η_max(Thm 1) ≤ η_max(Lemma 5).",
    space=Space([
        Integer("s", 1, 100),
        Real("log_L", -4.0, 4.0, closed=(True, True), special=(0.0,)),
        Real("log_rho", -12.0, 0.0, closed=(True, False), special=(-2.0,)),
        Real("log_beta", -6.0, 1.0, closed=(True, True), special=(-1.0,)),
    ]),
    margin=_stepsize_margin, exact=_stepsize_exact, tolerance=1e-12, expected="refuted",
    notes="Both admissible sets are intervals [0, η_max] (every cap is non-increasing in η "
    "through κ); Theorem 1's η_max by bisection, then the margin is min over Lemma 5's caps "
    "of (cap(η_T1) − η_T1)/η_T1 (≥ 0 iff η_T1 is admissible for Lemma 5; a tie on a shared cap "
    "reports 1e-6 × the slack of Lemma 5's own last cap, to guide the search). The exact "
    "margin re-evaluates (min Lemma-5 cap(η_T1) − η_T1)/η_T1 at 24 digits (η_T1 by bisection "
    "to 2^-75). Theorem 1's last cap "
    "(1 − √ρ)/(6√2ρLs²) is larger than Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²) by 1/√ρ, so whenever "
    "Lemma 5's cap binds and Theorem 1's first and 1/(ρs³) caps do not, Theorem 1 admits steps "
    "Lemma 5 does not (small ρ, large s). Inventory instance: s = 27, L = 0.263694, ρ = "
    "0.0038018, β = 0.038707: η_T1 = 0.0096216 > η_L5 = 0.0093298 (margin −0.0303). Default "
    "search (seed 0), shrunk: s = 50, log₁₀L = −0.41065478, log₁₀ρ = −3.6989695, log₁₀β = −6: "
    "margin −0.1540, exact −0.1540. Probably a typo (√2·ρ for √(2ρ)).",
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
