"""CA-Fed (ToN) App. E — eq. (211): the constant C := ψ + φ/ln(1/λ) written with
2EDGQ·Σ_t J_tη²_{t−J_t} (refuted: the '=' of eq. 211 is an error), checked with the delays J_t
of eq. (132) and a bounded tail of the series.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq211-c").expected
'refuted'
"""

import math
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _weights_verify as V
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

EQ211_MAX_TERMS = 1 << 16
EQ211_EXACT_TERMS = 20000


def _eq211_series(inst: Instance) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, int]:
    """(x_t, J_t, η²_{t−J_t}) for t ≤ n, the tail bound U of Σ_{t>n}(J_t − x_t)η²_{t−J_t}, n."""
    from fltheory.bounds.series import delays

    log_k, lam, t_p = float(inst["log_K"]), float(inst["lam"]), int(inst["T_P"])
    eta1, a = float(inst["eta1"]), float(inst["a"])
    L = -math.log(lam)
    # n: past it, x_t ≥ 0 and J_t = max(⌈x_t⌉, T_P) ≤ x_t + 1 + T_P ≤ t/2 (the cap t never
    # binds, t − J_t ≥ t/2), so 0 ≤ J_t − x_t ≤ max(1, T_P) and η_{t−J_t} ≤ η₁(t/2)^(−a).
    n = 64
    while not (
        n >= 2.0 / L
        and log_k + math.log(n) >= 0.0
        and n / 2.0 >= (log_k + math.log(n)) / L + 1.0 + t_p
    ):
        n *= 2
        if n > EQ211_MAX_TERMS:
            raise NumericalError("eq. 211: the certified horizon needs too many terms")
    t = np.arange(1, n + 1, dtype=np.int64)
    x = (log_k + np.log(t.astype(float))) / L
    j = delays(t, log_k, L, t_p)  # eq. 132 (the library's J_t)
    idx = np.maximum(t - j, 1)  # η₀ := η₁ where J_t = t (reading R3)
    eta2 = (eta1 * idx.astype(float) ** (-a)) ** 2
    p = 2.0 * a
    tail = max(1.0, t_p) * eta1**2 * 2.0**p * n ** (1.0 - p) / (p - 1.0) if p > 1 else math.inf
    return x, j.astype(float), eta2, tail, n


def _eq211_simplify(inst: Instance) -> list[Instance]:
    """Round numbers first: ln(2C_PH) ∈ {0, 1}, λ = ½, T_P = 0, η₁ = 1, a = 1."""
    simple = {"log_K": 1.0, "lam": 0.5, "T_P": 0, "eta1": 1.0, "a": 1.0}
    return [{**inst, key: value} for key, value in simple.items() if inst[key] != value] + [
        {**inst, "log_K": 0.0}
    ]


def _eq211_margin(inst: Instance) -> float:
    x, j, eta2, tail, _ = _eq211_series(inst)
    partial = float(np.sum((j - x) * eta2))
    scale = float(np.sum(np.abs(x) * eta2) + np.sum(j * eta2)) + tail
    dist = partial if partial > 0 else (-(partial + tail) if partial + tail < 0 else 0.0)
    return -dist / scale


def _eq211_exact(inst: Instance) -> tuple[float, str]:
    import mpmath as mp

    x, j, eta2, tail, n = _eq211_series(inst)
    if n > EQ211_EXACT_TERMS:
        # float partial sums with a rigorous bound on their rounding error
        terms = (j - x) * eta2
        partial = float(np.sum(terms))
        err: float = float(
            4.0 * n * np.finfo(float).eps * float(np.sum(np.abs(terms)) + np.sum(np.abs(x) * eta2))
        )
        method = f"float partial sum to n = {n} with rounding-error bound {err:.2g}, certified tail"
    else:
        log_k, lam, t_p = float(inst["log_K"]), float(inst["lam"]), int(inst["T_P"])
        eta1, a = float(inst["eta1"]), float(inst["a"])
        with mp.workdps(30):
            L = -mp.log(mp.mpf(lam))
            total = mp.mpf(0)
            for t in range(1, n + 1):
                xt = (mp.mpf(log_k) + mp.log(t)) / L
                jt = min(max(int(mp.ceil(xt)), t_p), t)
                total += (jt - xt) * (mp.mpf(eta1) * mp.mpf(max(t - jt, 1)) ** (-mp.mpf(a))) ** 2
            partial = float(total)
        err = 0.0
        method = f"mpmath, 30 digits, partial sum to n = {n} plus the certified tail bound"
    scale = float(np.sum(np.abs(x) * eta2) + np.sum(j * eta2)) + tail
    if partial - err > 0:
        dist = partial - err
    elif partial + err + tail < 0:
        dist = -(partial + err + tail)
    else:
        dist = 0.0
    return -dist / scale, method


def _eq211_explain(inst: Instance) -> Explanation:
    """The instance in the paper's quantities — ln(2C_PH), λ(P), T_P, η_t = η₁t^(−a) — the first
    delays J_t against ln(2C_PHt)/ln(1/λ), and the difference of the two sides of (211)
    (partial sum to the certified horizon plus the tail bound, 30-digit mpmath)."""
    import mpmath as mp

    args: dict[str, Any] = {
        "ln_2cph": dec(inst["log_K"]),
        "lam": dec(inst["lam"]),
        "t_p": int(inst["T_P"]),
        "eta1": dec(inst["eta1"]),
        "a": dec(inst["a"]),
    }
    result = V.verify_eq211_c(**args)
    _, _, _, tail, n = _eq211_series(inst)
    steps = []
    with mp.workdps(30):
        big_l = -mp.log(mp.mpf(args["lam"].numerator) / args["lam"].denominator)
        for t in range(1, 5):
            x = (
                mp.mpf(args["ln_2cph"].numerator) / args["ln_2cph"].denominator + mp.log(t)
            ) / big_l
            j = min(max(int(mp.ceil(x)), args["t_p"]), t)
            steps.append(
                Step(f"t = {t}: x_t, J_t", "ln(2C_PHt)/ln(1/λ), min(max(⌈x_t⌉, T_P), t)", (x, j))
            )
    steps.append(Step("n", "horizon past which 0 ≤ J_t − x_t ≤ max(1, T_P) and t − J_t ≥ t/2", n))
    steps.append(Step("tail bound", "max(1, T_P)η₁²2^(2a)n^(1−2a)/(2a − 1)", tail))
    return Explanation(
        quantities=(
            Quantity("ln(2C_PH)", "log of 2C_P·H (Lemma 16, eq. 8)", args["ln_2cph"]),
            Quantity("λ(P)", "correlation parameter (λ̄₂ + 1)/2", args["lam"]),
            Quantity("T_P", "mixing threshold of eq. (5)", args["t_p"]),
            Quantity(
                "η_t",
                "step sizes",
                "",
                f"η_t = {show(args['eta1'])}·t^(−{show(args['a'])}), η₀ := η₁",
            ),
            Quantity(
                "x_t",
                "ln(2C_PHt)/ln(1/λ(P)), what φ/ln(1/λ) weighs η²_{t−J_t} by (eq. 13)",
                "",
                "x_t = (ln(2C_PH) + ln t)/ln(1/λ)",
            ),
            Quantity("J_t", "delay of Theorem 2", "", "J_t = min(max(⌈x_t⌉, T_P), t)"),
        ),
        steps=tuple(steps),
        lhs=Step(
            "Σ_{t≤n}(J_t − x_t)η²_{t−J_t}",
            "the difference of the two sides of (211) up to n; the rest lies in [0, tail bound]",
            result["lhs"],
        ),
        relation="= (up to the tail)",
        rhs=Step("0", "what the '=' of (211) needs (ψ and 2EDGQ > 0 are common)", 0),
        holds=result["holds"],
        verify_args=args,
    )


register_claim(
    "cafed:eq211-c",
    "App. E",
    "eq. (211)",
    (1357, 1357),
    "C := ψ + φ/ln(1/λ(P)) = (4L(1+EQ)Γ + 2E²G²)Ση_t² + 2EDGQ·Σ_t J_tη²_{t−J_t} + "
    "HΣ_{t<T_P}η_t, i.e. (with 2EDGQ > 0) Σ_t ln(2C_PHt)η²_{t−J_t}/ln(1/λ) = "
    "Σ_t J_tη²_{t−J_t}.",
    space=Space(
        [
            Real("log_K", -10.0, 20.0, closed=(True, True), special=(0.0, 1.0)),
            Real("lam", 0.5, 1.0, closed=(True, False), special=(0.5, 0.75)),
            Integer("T_P", 0, 20),
            Real("eta1", 0.0, 1.0, closed=(False, True), special=(1.0,)),
            Real("a", 0.5, 1.0, closed=(False, True), special=(1.0,)),
        ]
    ),
    margin=_eq211_margin,
    exact=_eq211_exact,
    tolerance=1e-9,
    notes="ψ and the factor 2EDGQ are common to both sides, so the identity is "
    "D = Σ_t (J_t − x_t)η²_{t−J_t} = 0 with x_t = ln(2C_PHt)/ln(1/λ), J_t of eq. 132 "
    "(fltheory.bounds.series.delays), η_t = η₁t^(−a), a ∈ (½, 1], η₀ := η₁ (reading "
    "R3). Past a horizon n (x_t ≥ 0, J_t ≤ t/2) every term of D is ≥ 0 and the tail is "
    "≤ max(1, T_P)η₁²2^(2a)n^(1−2a)/(2a − 1), so D lies in [D_n, D_n + tail]; margin "
    "−dist(0, that interval)/(Σ|x_t|η² + ΣJ_tη² + tail). Exact: the partial sum in "
    "30-digit mpmath (n ≤ 20000), else floats with a rounding-error bound. FALSE: "
    "J_t = ⌈x_t⌉ ≥ x_t for large t (equality only at integers), capped and floored J_t "
    "differ further. Eq. (211) does not restate (179): its middle term is φ_proved = "
    "2EDGQΣJ_tη²_{t−J_t}, what Lemmas 14–15 give before the step J_t ≤ "
    "ln(2C_PHt)/ln(1/λ) (see cafed:thm2-eq13 -proved). Instances needing a horizon "
    "n > 2^16 (λ near 1, large ln(2C_PH) or T_P) are declined; budget 1000 (≤ 10 ms "
    "per evaluation).",
    budget=1000,
    simplify=_eq211_simplify,
    expected="refuted",
    explain=_eq211_explain,
    verify=V.verify_eq211_c,
    reading=Reading(
        quote="C := ψ + φ/ln(1/λ(P)) = (4L(1+EQ)Γ + 2E²G²)(Σ_{t≥1}η_t²) + 2EDGQ(Σ_{t≥1} "
        "J_t·η²_{t−J_t}) + H(Σ_{t=1}^{T_P−1}η_t) (211), with φ := 2EDGQ Σ_{t≥1} "
        "ln(2C_PHt)η²_{t−J_t} (Theorem 2, l.167).",
        hypotheses=(
            Hypothesis(
                "η_t > 0 with (12): Ση_t = ∞, Σ ln(t)η_t² < ∞",
                "η_t = η₁t^(−a), η₁ ∈ (0, 1], a ∈ (½, 1]; η₀ := η₁ where J_t = t",
            ),
            Hypothesis(
                "λ(P) ∈ (λ̄₂, 1), C_P, H > 0, T_P ≥ 0 (eq. 5, Lemma 16)",
                "λ ∈ [½, 1), ln(2C_PH) ∈ [−10, 20], T_P ∈ [0, 20]",
            ),
            Hypothesis(
                "J_t = min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (Theorem 2)",
                "fltheory.bounds.series.delays",
            ),
        ),
        interpretation="As printed: the '=' equates ψ + φ/ln(1/λ), with φ as Theorem 2 "
        "defines it in 002, and the expanded right side. ψ and the factor 2EDGQ > 0 are "
        "common, so (211) holds iff Σ_t J_tη²_{t−J_t} = Σ_t [ln(2C_PHt)/ln(1/λ)]η²_{t−J_t}. "
        "The expansion evidently takes J_t for ln(2C_PHt)/ln(1/λ), but J_t rounds it up "
        "(and floors it at T_P): the two series differ. (000 defines φ with "
        "ln(2C_PHt)η_t²J_t, further still from (211).)",
        alternatives="(211)'s right side is the φ that Theorem 2's proof gives (Lemmas "
        "14–15 before J_t ≤ ln(2C_PHt)/ln(1/λ) + 1): cafed:thm2-eq13-proved.",
    ),
    finding=Finding(
        "error",
        "the '=' of (211) replaces ln(2C_PHt)/ln(1/λ) by J_t = ⌈ln(2C_PHt)/ln(1/λ)⌉ (floored "
        "at T_P), which is larger: the two series differ",
        severity="step",
        survives="App. E only needs C to be independent of q, which both sides are; "
        "(211)'s right side is the φ Theorem 2's proof actually gives "
        "(cafed:thm2-eq13-proved), so the mismatch is Theorem 2's printed φ",
    ),
)
