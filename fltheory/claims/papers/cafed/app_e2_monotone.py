"""CA-Fed (ToN) App. E2 — "q_k* increases with π_k" at the optimum of (212): for any diagonal
A ⪰ 0 (refuted), with equal A_kk (holds), and with the paper's A ∝ π_k of eq. (209) (refuted
when θ* < 0).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:appe2-monotone-equal-a").expected
'holds'
"""

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _weights_verify as V
from fltheory.claims.papers.cafed._weights import (
    EQ224_NOTES,
    H212,
    MOVES212,
    MP_DIGITS,
    brute212_mp,
    opt212,
    opt212_explained,
    problem_exact,
    problem_floats,
    quantities212,
    space212,
)
from fltheory.claims.space import Instance
from fltheory.errors import NumericalError

MONO_QUOTE = (
    "By considering A_kk ≥ 0 and ι* ≥ 0 in Equation (224), we conclude that q_k* increases "
    "with π_k, providing analytical support for Guideline A. (App. E2) — It follows that "
    "clients with smaller availability get smaller weights in the aggregation. (§III-D)"
)


def _monotone_gap(q: Sequence[Any], pi: Any, Q: float) -> Any:
    """min over pairs π_i < π_j of (q_j − q_i)/Q (1 when no pair)."""
    best: Any = 1.0
    for i, j in itertools.permutations(range(len(q)), 2):
        if pi[i] < pi[j]:
            best = min(best, (q[j] - q[i]) / Q)
    return best


def _monotone(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    order = np.argsort(pi, kind="stable")
    ps, qs = pi[order], q[order]
    # min over i < j with π_i < π_j of q_j − q_i, via a running max of q over lower π
    best, run_max, k = 1.0, -math.inf, 0
    for idx in range(ps.size):
        while k < idx and ps[k] < ps[idx]:
            run_max = max(run_max, qs[k])
            k += 1
        if run_max > -math.inf:
            best = min(best, (qs[idx] - run_max) / Q)
    return float(best)


def _monotone_exact(inst: Instance) -> tuple[float, str]:
    pi, s, v, Q = problem_exact(inst)
    if any(x == 0 for x in s):
        raise NumericalError("the exact brute force needs s > 0")
    _, q = brute212_mp(pi, s, v, Q)
    return float(
        _monotone_gap(q, pi, float(Q))
    ), f"mpmath ({MP_DIGITS} digits), brute force over all supports"


def _monotone_explain(inst: Instance) -> Explanation:
    """The optimum of (212) in the paper's quantities and the pair π_i < π_j with the largest
    q_i* − q_j* (for the paper's A, A_kk = c·π_k with c = 2(E+1)σ²Σ_tη_t²)."""
    pi, s, v, Q = problem_exact(inst)
    q, _, theta, steps = opt212_explained(pi, s, v, Q)
    pairs = [(q[i] - q[j], i, j) for i in range(len(pi)) for j in range(len(pi)) if pi[i] < pi[j]]
    worst, i, j = max(pairs) if pairs else (0, 0, 0)
    quantities = quantities212(pi, s, v, Q)
    args: dict[str, Any] = {}
    if inst.get("paper_a"):
        c = dec(10.0 ** float(inst["log_c"]))
        quantities = (
            *quantities[:1],
            Quantity("c", "2(E+1)σ²Σ_tη_t² (equal σ_k)", c),
            Quantity("A_kk", "A = diag(c·π_k) (eq. 209 with equal σ_k)", tuple(s)),
            *quantities[2:],
        )
        args = {"pi": pi, "c": c, "B": v, "Q": Q}
    return Explanation(
        quantities=quantities,
        steps=steps,
        lhs=Step(
            f"q_{j + 1}*", f"weight of client {j + 1} (π = {show(pi[j])}, the more available)", q[j]
        ),
        relation="≥",
        rhs=Step(f"q_{i + 1}*", f"weight of client {i + 1} (π = {show(pi[i])})", q[i]),
        holds=bool(worst <= 0),
        verify_args=args,
        note="θ* < 0: nobody is excluded and (224) reads q_k* = (ι* − θ*/π_k)/c, which "
        "decreases in π_k."
        if inst.get("paper_a") and theta < 0
        else "",
    )


MONO_NOTES = (
    EQ224_NOTES + " Margin: min over pairs π_i < π_j of (q_j* − q_i*)/Q (tolerance 1e-9). "
    "Exact: 50-digit brute force over all supports (it does not assume the support is an upper "
    "set of π)."
)

register_claim(
    "cafed:appe2-monotone",
    "App. E2",
    "'q_k* increases with π_k' (A_kk ≥ 0 arbitrary)",
    (1443, 1443),
    "At the optimum of (212), q_k* is non-decreasing in π_k ('clients with smaller "
    "availability get smaller weights', §III-D l.194), for any diagonal A ⪰ 0.",
    space=space212("log"),
    margin=_monotone,
    exact=_monotone_exact,
    notes=MONO_NOTES + " FALSE: (224) holds A_kk fixed; a more available client with a "
    "larger A_kk gets less weight.",
    expected="refuted",
    simplify=MOVES212,
    explain=_monotone_explain,
    reading=Reading(
        quote=MONO_QUOTE,
        hypotheses=H212,
        interpretation="Literal: across clients whose A_kk differ arbitrarily, the more "
        "available one gets at least as much weight. Not the authors' meaning: the "
        "argument reads (224), q_k* = (ι*π_k − θ*)/A_kk, as a function of π_k with A_kk "
        "held fixed; a client with a much larger A_kk (noisier gradients) and a larger π_k "
        "getting less weight is no counterexample to 'increases with π_k'.",
        alternatives="At fixed A_kk (equal for the clients compared): "
        "cafed:appe2-monotone-equal-a (holds). At fixed σ_k with the model's A_kk ∝ π_kσ_k² "
        "(eq. 209): cafed:appe2-monotone-paper-a (an error).",
    ),
    finding=Finding(
        "literal",
        "compares clients with different A_kk, which (224)'s argument holds fixed; at equal "
        "A_kk q_k* increases with π_k (cafed:appe2-monotone-equal-a holds) — but see "
        "cafed:appe2-monotone-paper-a for the model's A_kk ∝ π_k",
        intended="cafed:appe2-monotone-equal-a",
    ),
)

register_claim(
    "cafed:appe2-monotone-equal-a",
    "App. E2",
    "'q_k* increases with π_k', equal A_kk",
    (1443, 1443),
    "With A_kk equal for all clients, q_k* is non-decreasing in π_k.",
    space=space212("equal"),
    margin=_monotone,
    exact=_monotone_exact,
    notes=MONO_NOTES + " TRUE: q_k* = (ι*π_k − θ*)₊/A with ι* > 0.",
    expected="holds",
    reading=Reading(
        quote=MONO_QUOTE,
        hypotheses=(
            Hypothesis(
                "A_kk equal for the clients compared (A held fixed, as the argument on (224) does)",
                "A = c·I, c ∈ [1e-6, 1e6]",
            ),
            *H212[1:],
        ),
        interpretation="'Increases with π_k' at fixed A_kk: the comparison (224) supports.",
    ),
)

register_claim(
    "cafed:appe2-monotone-paper-a",
    "App. E2",
    "'q_k* increases with π_k', the paper's A (eq. 209, equal σ_k)",
    (1443, 1443),
    "With A = diag(2(E+1)π_kσ²Ση_t²) (eq. 209, equal σ_k, so A_kk ∝ π_k), q_k* is "
    "non-decreasing in π_k.",
    space=space212("paper", paper_a=True),
    margin=_monotone,
    exact=_monotone_exact,
    notes=MONO_NOTES + " FALSE (an earlier README finding): "
    "q_k* = (ι* − θ*/π_k)₊/c increases with π_k only if θ* ≥ 0; when "
    "θ* = (B − ½q*ᵀAq*)/Q < 0 (small B) nobody is excluded and the LESS available get more "
    "weight. Hand example: π = (0.2, 0.9), A = π, B = 1e-3, Q = 1: q* ≈ (0.58, 0.42).",
    expected="refuted",
    simplify=MOVES212,
    explain=_monotone_explain,
    verify=V.verify_appe2_monotone_paper_a,
    reading=Reading(
        quote=MONO_QUOTE,
        hypotheses=(
            Hypothesis(
                "A = Σ = diag(2(E+1)π_kσ_k²Σ_tη_t²) (eq. 209) with equal σ_k: the "
                "clients compared differ only in π_k",
                "A = c·diag(π), c ∈ [1e-6, 1e6]",
            ),
            Hypothesis(
                "B = υ > 0 (eq. 210); only B/c matters (J scales) and σ² is "
                "unbounded, so every B/c > 0 arises",
                "B ∈ [1e-6, 1e6]",
            ),
            H212[2],
        ),
        interpretation="'q_k* increases with π_k' compared at fixed other parameters of the "
        "model — clients that differ only in their availability (equal σ_k). In the model "
        "A_kk itself grows with π_k (eq. 209), so (224) reads q_k* = (ι* − θ*/π_k)/c, "
        "increasing in π_k iff θ* ≥ 0; θ* = (B − ½q*ᵀAq*)/Q < 0 when B is small against "
        "the noise term, and then nobody is excluded and the less available get more.",
        alternatives="At fixed A_kk: cafed:appe2-monotone-equal-a (holds). The exclusion "
        "rule (excluded ⇔ π_k ≤ θ*/ι*): cafed:guideline-a-support (holds).",
    ),
    finding=Finding(
        "error",
        "with the paper's own A (eq. 209: A_kk ∝ π_k for equal σ_k), q_k* = (ι* − θ*/π_k)/c "
        "decreases in π_k when θ* < 0 (B small): the less available get more weight",
        severity="step",
        survives="Guideline A survives: the excluded clients are always the least available "
        "(excluded ⇔ ι*π_k ≤ θ*, cafed:guideline-a-support), and q* does increase with π_k "
        "whenever someone is excluded (then θ* > 0)",
    ),
)
