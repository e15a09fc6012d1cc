"""CA-Fed (ToN) App. B2 Definition 1, eq. (132): the delay J_t = min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉,
T_P}, t} and the remark T_P ≤ J_t ≤ t — for every t ≥ 1 as printed (literal, refuted) and for
t ≥ T_P, where the proof uses it (holds).

>>> jt_code(1, 0.0, 0.5, 2)
1
"""

from __future__ import annotations

from fractions import Fraction

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._chains import jt_code
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import InputError


def _jt_exact(t: int, log_K: float, lam: float, T_P: int) -> int:
    """J_t = min{max{⌈ln(2C_P H t)/ln(1/λ)⌉, T_P}, t} at 50 digits (ln K = ln(2C_P H))."""
    import mpmath

    with mpmath.workdps(50):
        ratio = (mpmath.mpf(log_K) + mpmath.log(t)) / -mpmath.log(mpmath.mpf(lam))
        return int(min(max(int(mpmath.ceil(ratio)), T_P), t))


def _jt_inputs(inst: Instance, shifted: bool) -> tuple[int, float, float, int]:
    T_P = int(inst["T_P"])
    t = T_P + int(inst["s"]) if shifted else int(inst["t"])
    lam = float(inst["lam"])
    if not (0.0 < lam < 1.0 and t >= 1 and T_P >= 0):
        raise InputError("eq. 132 needs λ ∈ (0, 1), t ≥ 1 and T_P ≥ 0")  # (shrinking rounds)
    return t, float(inst["logK"]), lam, T_P


def _jt_margin(inst: Instance, shifted: bool) -> float:
    t, log_K, lam, T_P = _jt_inputs(inst, shifted)
    J = jt_code(t, log_K, lam, T_P)
    if J != _jt_exact(t, log_K, lam, T_P):
        return -0.5  # the library's J_t is not eq. 132 (beyond a rounding tie)
    return float(min(J - T_P, t - J))


def _jt_margin_exact(inst: Instance, shifted: bool) -> ExactMargin:
    t, log_K, lam, T_P = _jt_inputs(inst, shifted)
    J = _jt_exact(t, log_K, lam, T_P)
    return Fraction(min(J - T_P, t - J)), "J_t at 50 digits (mpmath), integer comparison"


def _jt_explain(inst: Instance) -> Explanation:
    """J_t of eq. 132 at the instance (ln(2C_PH), λ(P), T_P, t), decided at 50 digits."""
    t, log_K, lam, T_P = _jt_inputs(inst, False)
    J = _jt_exact(t, log_K, lam, T_P)
    return Explanation(
        quantities=(
            Quantity("ln(2C_PH)", "eq. 156, eq. 8", dec(log_K)),
            Quantity("λ(P)", "eq. 229", dec(lam)),
            Quantity("T_P", "eq. 157", T_P),
            Quantity("t", "round", t),
        ),
        steps=(Step("J_t", "min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (eq. 132)", J),),
        lhs=Step("T_P", "", T_P),
        relation="≤",
        rhs=Step("J_t", "", J),
        holds=T_P <= J <= t,
        note="For t < T_P the cap gives J_t = t < T_P; the paper uses the remark only for "
        "t ≥ T_P (cafed:eq132-jt).",
    )


def _jt_space(shifted: bool) -> Space:
    return Space(
        [
            Integer("T_P", 0, 500),
            Integer("s", 0, 10**6) if shifted else Integer("t", 1, 10**6),
            Real("logK", -30.0, 30.0, closed=(True, True), special=(0.0,)),
            Real("lam", 0.5, 1.0, closed=(True, False), special=(0.5,)),
        ]
    )


register_claim(
    "cafed:eq132-jt-printed",
    "App. B2 Definition 1, eq. (132)",
    "'by definition: T_P ≤ J_t ≤ t'",
    (963, 968),
    "J_t = min{max{⌈ln(2C_P H t)/ln(1/λ(P))⌉, T_P}, t} satisfies T_P ≤ J_t ≤ t for every "
    "round t ≥ 1",
    space=_jt_space(False),
    margin=lambda i: _jt_margin(i, False),
    exact=lambda i: _jt_margin_exact(i, False),
    explain=_jt_explain,
    tolerance=0.0,
    budget=600,
    expected="refuted",
    reading=Reading(
        quote="Definition 1. For communication round t ≥ 1, denote the positive integer J_t "
        "as follows: J_t := min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t}. (132) … We remark "
        "that, by definition: T_P ≤ J_t ≤ t.",
        hypotheses=(
            Hypothesis(
                "λ(P) ∈ [½, 1), C_P, H > 0, T_P ≥ 0 (eqs. 156, 157, 229)",
                "λ ∈ [½, 1), ln(2C_PH) ∈ [−30, 30], T_P ∈ [0, 500]",
            ),
        ),
        interpretation="Literal: the remark for every round t ≥ 1. For t < T_P the cap "
        "gives J_t = t < T_P, so this reading fails trivially. Not the authors' meaning: "
        "the remark is used only where t ≥ T_P — (158) is stated ∀t ≥ T_P, Lemma 18 "
        "begins 'Assume t ≥ T_P', and the paper itself notes that these bounds 'require "
        "t ≥ T_P' and treats t < T_P separately in Lemma 17 (lines 1073–1075; Lemma 18, line "
        "1105). For t ≥ T_P "
        "the remark holds (cafed:eq132-jt).",
        alternatives="For t ≥ T_P: cafed:eq132-jt (holds). J_t ≤ t holds for every t.",
    ),
    finding=Finding(
        "literal",
        "'T_P ≤ J_t ≤ t' is used only for t ≥ T_P (eq. 158, Lemma 18; Lemma 17 treats "
        "t < T_P), where it holds; for t < T_P the cap gives J_t = t < T_P",
        intended="cafed:eq132-jt",
    ),
    notes="Code path: fltheory.bounds.series.delays; oracle: the ceiling at 50 digits. Margin "
    "min(J_t − T_P, t − J_t) (integers; −0.5 if the library's J_t differs from the oracle). "
    "False for every t < T_P, where the cap gives J_t = t < T_P (e.g. T_P = 2, t = 1: J_1 = "
    "1). "
    "Harmless in the proof: Lemma 17 handles t < T_P separately. Inputs: ln(2C_P H) ∈ "
    "[−30, 30] (negative when 2C_P H < 1: then the ceiling is ≤ 0 and J_t = min(T_P, t)), "
    "λ ∈ [½, 1).",
)

register_claim(
    "cafed:eq132-jt",
    "App. B2 Definition 1, eq. (132)",
    "T_P ≤ J_t ≤ t for t ≥ T_P",
    (963, 968),
    "for every round t ≥ T_P (the range where Lemmas 14–18 use it), T_P ≤ J_t ≤ t",
    space=_jt_space(True),
    margin=lambda i: _jt_margin(i, True),
    exact=lambda i: _jt_margin_exact(i, True),
    tolerance=0.0,
    budget=600,
    expected="holds",
    reading=Reading(
        quote="J_t := min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t}. (132) … We remark that, by "
        "definition: T_P ≤ J_t ≤ t.",
        hypotheses=(
            Hypothesis(
                "t ≥ T_P, where the paper uses the remark (eq. 158, Lemma 18)",
                "t = T_P + s, s ∈ [0, 10⁶], T_P ∈ [0, 500]",
            ),
            Hypothesis("λ(P) ∈ [½, 1), C_P, H > 0", "λ ∈ [½, 1), ln(2C_PH) ∈ [−30, 30]"),
        ),
        interpretation="The remark on the rounds where the paper uses it; J_t from the "
        "library (bounds.series.delays) against a 50-digit ceiling.",
    ),
    notes="t = T_P + s, s ≥ 0; margin and oracle as cafed:eq132-jt-printed.",
)
