"""§V-B — Theorem 1's step-size condition (l.251) against Lemma 5's (l.243) of the FedPBC paper
(seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines): as printed (√2·ρ in the last cap,
``fedpbc:thm1-stepsize``) and with Lemma 5's √(2ρ) (``fedpbc:thm1-stepsize-intended``).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:thm1-stepsize").expected
'refuted'
"""

import math
from typing import Any

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import mp_to_fraction
from fltheory.claims.explain import Explanation, Quantity, Step, dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    bisect_cap,
    kappa,
    one_minus_sqrt,
    thm1_caps,
    thm1_eta_max,
)
from fltheory.claims.space import Instance, Integer, Real, Space


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
    t1 = (
        thm1_eta_max(s, L, rho, beta2)
        if not root2rho
        else bisect_cap(lambda eta: min(_thm1_caps_intended(eta, s, L, rho, beta2, gap)))
    )
    # Lemma 5's caps at Theorem 1's largest step: all ≥ η_T1 iff η_T1 is admissible for Lemma 5
    caps = [1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (kappa(s, t1 * L) * s * L))
    last = one_minus_sqrt(gap) / (6 * math.sqrt(2 * rho) * L * s * s)
    margin = (min(*caps, last) - t1) / t1
    if margin == 0.0:  # a shared cap binds both: holds; report the slack of Lemma 5's own cap
        margin = 1e-6 * (last - t1) / t1
    return margin


def _thm1_caps_intended(
    eta: float, s: int, L: float, rho: float, beta2: float, gap: float
) -> list[float]:
    """Theorem 1's caps with the last one read as Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²)."""
    caps = thm1_caps(eta, s, L, rho, beta2, gap)
    if rho > 0:
        caps[-1] = one_minus_sqrt(gap) / (6 * math.sqrt(2 * rho) * L * s * s)
    return caps


def _stepsize_margin(inst: Instance) -> float:
    return _stepsize_margin_at(inst, root2rho=False)


def _stepsize_intended_margin(inst: Instance) -> float:
    return _stepsize_margin_at(inst, root2rho=True)


def _stepsize_sides_mp(
    s: int, L: Any, rho: Any, beta2: Any, root2rho: bool, dps: int = 40
) -> dict[str, Any]:
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
            last = (1 - r) / (
                6 * (mpmath.sqrt(2 * rho) if root2rho else mpmath.sqrt(2) * rho) * L * s * s
            )
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
        return mp_to_fraction((min(sides["lemma5"].values()) - b) / b), (
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
        out += [
            float(f"{math.floor(x / scale) * scale:.{digits}g}"),
            float(f"{math.ceil(x / scale) * scale:.{digits}g}"),
        ]
    return [v for v in dict.fromkeys(out) if v > 0]


def _stepsize_simplify(inst: Instance) -> list[Instance]:
    """L and ρ rounded down or up to 1–2 significant digits, with β = 0: the generic moves
    round to the nearest value only, which often leaves the (narrow) violation region."""
    return [
        {**inst, "L": L, "rho": rho, "beta": 0.0}
        for L in _short_decimals(float(inst["L"]))
        for rho in _short_decimals(float(inst["rho"]))
    ]


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


register_claim(
    "fedpbc:thm1-stepsize",
    "§V-B",
    "Theorem 1's step-size condition vs Lemma 5's (as printed)",
    (243, 251),
    "Every η admissible in Theorem 1 satisfies Lemma 5's condition (Theorem 1 uses Lemma 5): "
    "η_max(Thm 1) ≤ η_max(Lemma 5).",
    space=Space(
        [
            Integer("s", 1, 100),
            Real("L", 0.0, 10.0, closed=(False, True), special=(0.1, 1.0)),
            Real("rho", 0.0, 1.0, special=(0.01, 0.001, 0.5)),
            Real("beta", 0.0, 1.0, closed=(True, True), special=(0.0, 0.5)),
        ]
    ),
    margin=_stepsize_margin,
    exact=_stepsize_exact,
    tolerance=1e-12,
    expected="refuted",
    simplify=_stepsize_simplify,
    explain=_stepsize_explain,
    verify=_verify_thm1_stepsize,
    reading=Reading(
        quote="Lemma 5: under a choice of the learning rate η ≤ min{1/(2s), √2/(κsL), "
        "(1 − √ρ)/(6√(2ρ)Ls²)} … Theorem 1: choose a learning rate η = c₀√(m/(sT)) … such "
        "that η ≤ min{1/(24(β² + 1)𝔆[1 + 18s²L²ρ/(1 − √ρ)²] + 144(β² + 1)s²L²ρ/(1 − √ρ)²), "
        "1/(2s), √2/(κsL), 1/(ρs³), (1 − √ρ)/(6√2ρLs²)}.",
        hypotheses=(
            Hypothesis(
                "Theorem 1's step-size condition (l.251)",
                "η = the largest η meeting every printed cap (bisection; κ depends on η)",
            ),
            Hypothesis(
                "ρ ∈ [0, 1) (Lemma 1: c > 0)",
                "ρ ∈ (0, 1), realisable with m = 2 clients, ρ = 1 − p₁p₂",
            ),
            Hypothesis(
                "s ≥ 1, L > 0, β ≥ 0",
                "s ≤ 100, L ∈ (0, 10], β ∈ [0, 1]: violations "
                "need L ≲ 4 and small β (a larger β shrinks Theorem 1's first cap), so "
                "wider ranges only add holding instances",
            ),
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
)

register_claim(
    "fedpbc:thm1-stepsize-intended",
    "§V-B",
    "Theorem 1's step-size condition vs Lemma 5's (last cap read with √(2ρ))",
    (243, 251),
    "With Theorem 1's last cap read as Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²), every η admissible in "
    "Theorem 1 satisfies Lemma 5's condition.",
    space=Space(
        [
            Integer("s", 1, 100),
            Real("L", 0.0, 10.0, closed=(False, True), special=(0.1, 1.0)),
            Real("rho", 0.0, 1.0, special=(0.01, 0.001, 0.5)),
            Real("beta", 0.0, 1.0, closed=(True, True), special=(0.0, 0.5)),
        ]
    ),
    margin=_stepsize_intended_margin,
    exact=_stepsize_intended_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Same margin as fedpbc:thm1-stepsize with √(2ρ) in Theorem 1's last cap. Theorem 1's "
    "caps then include all three of Lemma 5's, so the claim holds by construction; the check "
    "guards the reading (and the bisection) against slips.",
)
