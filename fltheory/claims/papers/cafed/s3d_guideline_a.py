"""CA-Fed (ToN) §III-D — the main text's form of eq. (224), q_k* = a(ι*π_k − θ*) with one
constant a (a typo: a_k = 1/A_kk), and Guideline A (l.194–196), "exclude the clients with the
lowest π_k": the optimum of the ε̄_opt problem (212) sets to 0 only least available clients, and
fltheory's rule excludes exactly those.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq224-kkt-main").finding.cls
'typo'
"""

from collections.abc import Sequence
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Step
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _weights_verify as V
from fltheory.claims.papers.cafed._weights import (
    EQ224_NOTES,
    H212,
    MOVES212,
    MP_DIGITS,
    multipliers212,
    opt212,
    opt212_explained,
    opt_fraction_code,
    problem_exact,
    problem_floats,
    quantities212,
    rel,
    space212,
    to_mpf,
    unit_sum,
)
from fltheory.claims.space import Instance, Simplex


def _proportionality(q: Sequence[Any], g: Sequence[Any]) -> Any:
    """−max_{k,j} |q_k g_j − q_j g_k|/(max q · max |g|) over the support: 0 iff q = a·g with
    one a (cross-multiplied: no division by a g_k that rounding leaves near 0)."""
    on = [k for k in range(len(q)) if q[k] > 0]
    scale = max(q[k] for k in on) * max(abs(g[k]) for k in on)
    worst = max(abs(q[k] * g[j] - q[j] * g[k]) for k in on for j in on)
    return -worst / scale if scale else 0 * worst


def _eq224_main(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    iota, theta = multipliers212(q, pi, s, v, Q)
    return float(_proportionality(q.tolist(), (iota * pi - theta).tolist()))


def _eq224_main_exact(inst: Instance) -> tuple[float, str]:
    import mpmath as mp

    pi, s, v, Q = problem_exact(inst)
    with mp.workdps(MP_DIGITS):
        q, iota, theta, _ = opt212_explained(pi, s, v, Q)
        value = _proportionality(q, [iota * to_mpf(p) - theta for p in pi])
    return float(value), f"mpmath ({MP_DIGITS} digits), brute force over all supports"


def _eq224_main_explain(inst: Instance) -> Explanation:
    pi, s, v, Q = problem_exact(inst)
    args = {"pi": pi, "A": s, "B": v, "Q": Q}
    result = V.verify_eq224_kkt_main(**args)
    q, iota, theta, steps = opt212_explained(pi, s, v, Q)
    on = [k for k in range(len(q)) if q[k] > 0]
    ratios = tuple(q[k] / (iota * to_mpf(pi[k]) - theta) for k in on)
    return Explanation(
        quantities=quantities212(pi, s, v, Q),
        steps=(
            *steps,
            Step("a_k on the support", "q_k*/(ι*π_k − θ*)", ratios),
            Step(
                "1/A_kk on the support", "what eq. (224) gives for a_k", tuple(1 / s[k] for k in on)
            ),
        ),
        lhs=Step(f"a_{on[0] + 1}", f"q_{on[0] + 1}*/(ι*π_{on[0] + 1} − θ*)", result["lhs"]),
        relation="=",
        rhs=Step(
            f"a_{on[min(1, len(on) - 1)] + 1}",
            "the same constant a for every client",
            result["rhs"],
        ),
        holds=result["holds"],
        verify_args=args,
    )


register_claim(
    "cafed:eq224-kkt-main",
    "§III-D",
    "main text: 'q_k* = a(ι*π_k − θ*) with a and ι* positive constants'",
    (194, 194),
    "At the optimum of the ε̄_opt problem, q_k* = a(ι*π_k − θ*) on the support with a and "
    "ι* positive constants (one a for all clients).",
    space=space212("log"),
    margin=_eq224_main,
    exact=_eq224_main_exact,
    tolerance=1e-8,
    notes=EQ224_NOTES + " Margin: one a for all supported clients means q_k*g_j = q_j*g_k "
    "with g_k = ι*π_k − θ*; margin −max_{k,j}|q_k*g_j − q_j*g_k|/(max q*·max g) over the "
    "support (cross-multiplied: a ratio q_k*/g_k is 0/0 to rounding where the threshold "
    "τ* = θ*/ι* meets π_k). 000 l.207 and 002 l.194 print the same sentence. FALSE: "
    "a_k = 1/A_kk "
    "(eq. 224), constant only when A_kk is constant on the support; with the paper's "
    "A_kk ∝ σ_k²π_k (eq. 209) that needs σ_k²π_k equal. Counterexample: any two supported "
    "clients with different s_k.",
    expected="refuted",
    simplify=MOVES212,
    explain=_eq224_main_explain,
    verify=V.verify_eq224_kkt_main,
    reading=Reading(
        quote="In particular, at the optimum, non-negative weights are set accordingly to "
        "q_k* = a(ι*π_k − θ*) with a and ι* positive constants (Appendix E2). It follows "
        "that clients with smaller availability get smaller weights in the aggregation.",
        hypotheses=H212,
        interpretation="One constant a shared by all clients, as printed in both copies "
        "(002 l.194, 000 l.207): the next sentence's inference needs a common a. The "
        "appendix it cites, eq. (224), has a_k = 1/A_kk per client, and A_kk = "
        "2(E+1)π_kσ_k²Σ_tη_t² differs across clients — even with equal σ_k (A_kk ∝ π_k).",
        alternatives="a_k = 1/A_kk per client (eq. 224): cafed:eq224-kkt-appendix (holds).",
    ),
    finding=Finding(
        "typo",
        "the main text's single constant a is a_k = 1/A_kk per client in the eq. (224) it "
        "cites (cafed:eq224-kkt-appendix holds); A_kk ∝ π_kσ_k² differs across clients, so "
        "the inference drawn from it needs care (cafed:appe2-monotone-paper-a)",
        intended="cafed:eq224-kkt-appendix",
    ),
)


def _upper_set(q: np.ndarray, pi: np.ndarray) -> float:
    """min π over kept − max π over excluded (≥ 0: the support is an upper set of π)."""
    kept, out = q > 0.0, q == 0.0
    if not out.any():
        return 1.0
    return float(pi[kept].min() - pi[out].max())


def _guideline_a_support(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    return _upper_set(opt212(pi, s, v, Q), pi)


register_claim(
    "cafed:guideline-a-support",
    "§III-D / App. E2",
    "Guideline A: the support of problem (212)'s optimum",
    (194, 196),
    "The optimum of (212) (minimising ε̄_opt) excludes only least available clients: every "
    "client with q_k* = 0 is at most as available as every client with q_k* > 0 (any "
    "diagonal A ⪰ 0).",
    space=space212("zeros"),
    margin=_guideline_a_support,
    tolerance=0.0,
    notes=EQ224_NOTES + " Margin: min_{kept} π − max_{excluded} π (ties at the threshold "
    "give 0, allowed). TRUE: from the KKT conditions, excluded ⇔ π_k ≤ θ*/ι* for A_kk > 0; "
    "zero-noise clients below the largest zero-noise π get 0 too.",
    expected="holds",
    reading=Reading(
        quote="Guideline A: to accelerate convergence, we can exclude clients with low "
        "availability π_k by setting q_k* = 0. (§III-D, supported by App. E2)",
        hypotheses=(
            Hypothesis(
                "problem (212): A ⪰ 0 diagonal (σ_k = 0 allowed), B > 0",
                "A_kk ∈ {0} ∪ [1e-6, 1e6], B ∈ [1e-6, 1e6]",
            ),
            Hypothesis("π_k ∈ (0, 1], ‖q‖₁ = Q", "N ∈ [1, 10], Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="What App. E2 supports: the optimum of (212) sets q_k* = 0 only for "
        "least available clients (the support is an upper set of π), for any A ⪰ 0.",
    ),
)


def _guideline_a(inst: Instance) -> float:
    from fltheory.optimize.guidelines import exclude_by_availability, unbiased_weights

    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    excluded = set(np.flatnonzero(q == 0.0).tolist())
    rule = set(exclude_by_availability(pi, count=len(excluded)).tolist())
    agree = 1.0
    for k in rule - excluded:  # excluded by Guideline A, kept by the optimum
        for j in excluded - rule:  # excluded by the optimum, kept by Guideline A
            agree = min(agree, float(pi[k] - pi[j]))  # ≤ 0; 0 only for ties in π
            if pi[k] == pi[j]:
                agree = min(agree, 0.0)
    # accelerates: ε̄_opt at q* is no larger than at Guideline C's weights on everyone
    q_unbiased = unbiased_weights(unit_sum(inst["alpha"]), pi, None, Q)
    gain = rel(opt_fraction_code(q_unbiased, pi, s, v), opt_fraction_code(q, pi, s, v))
    return min(agree if agree < 0 else 1.0, gain + 1e-12)


register_claim(
    "cafed:guideline-a",
    "§III-D",
    "Guideline A",
    (194, 196),
    "Guideline A: to accelerate convergence, exclude the clients with the lowest π_k. "
    "Checked as: fltheory's Guideline A (guidelines.exclude_by_availability with the "
    "optimum's count) excludes exactly the clients that the minimiser of ε̄_opt (problem "
    "212) sets to 0 (up to ties in π), and ε̄_opt there is ≤ ε̄_opt at the unbiased "
    "weights α/π on every client.",
    space=space212("zeros", Simplex("alpha", "n")),
    margin=_guideline_a,
    tolerance=0.0,
    notes=EQ224_NOTES + " Margin: min of (π_k − π_j) over pairs where the rule and the "
    "optimum disagree (k excluded by the rule only, j by the optimum only; ties in π count "
    "as agreement), and the relative decrease of ε̄_opt + 1e-12. TRUE. Ties in π at the "
    "threshold among zero-noise clients can make the two sets differ by tied clients only.",
    expected="holds",
    reading=Reading(
        quote="Guideline A: to accelerate convergence, we can exclude clients with low "
        "availability π_k by setting q_k* = 0. (§III-D, supported by App. E2)",
        hypotheses=(
            Hypothesis(
                "problem (212): A ⪰ 0 diagonal (σ_k = 0 allowed), B > 0",
                "A_kk ∈ {0} ∪ [1e-6, 1e6], B ∈ [1e-6, 1e6]",
            ),
            Hypothesis("π_k ∈ (0, 1], ‖q‖₁ = Q", "N ∈ [1, 10], Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="The rule 'exclude the lowest π_k' with the optimum's count excludes "
        "the optimum's clients (up to ties), and doing so lowers ε̄_opt against the "
        "unbiased weights on everyone.",
    ),
)
