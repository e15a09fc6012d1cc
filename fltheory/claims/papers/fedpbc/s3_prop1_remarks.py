"""§III — the remarks after Proposition 1 of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``,
``l.N`` its lines), l.104 and Remark 4(2): non-uniform p bias the limit (literal
``fedpbc:prop1-remark-nonuniform`` for every u, and the reading on Proposition 1's weights
``fedpbc:prop1-remark-nonuniform-weights``), and FedAvg may converge arbitrarily far from x*
(``fedpbc:prop1-far``).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:prop1-remark-nonuniform").expected
'refuted'
"""

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import frs
from fltheory.claims.explain import Explanation, Quantity, Step, decs
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    loss_quantity,
    prop1_code_limit,
    u_spread,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _unbiased_witness(d: list[Any]) -> list[Any] | None:
    """A non-zero u with Σu_i = 0 and Σd_iu_i = 0 (so u is not constant and Σ(w_i − 1/m)u_i = 0):
    the cross product of (1, 1, 1) and (d_a, d_b, d_c) on three coordinates; None for m = 2."""
    m = len(d)
    for a, b, c in itertools.combinations(range(m), 3):
        v = (d[b] - d[c], d[c] - d[a], d[a] - d[b])
        if any(x != 0 for x in v):
            u = [0 * d[0]] * m
            u[a], u[b], u[c] = v
            return u
    if m >= 3:  # d_a = d_b = d_c for every triple: d constant, so d = 0 (Σd = 0)
        u = [0 * d[0]] * m
        u[0], u[1] = 1 + 0 * d[0], -1 + 0 * d[0]
        return u
    return None


def _prop1_nonuniform_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    p = np.asarray(inst["p"])
    w = fedavg_weights(p).weights
    d = (w - 1.0 / p.size).tolist()
    u = _unbiased_witness(d)
    if u is None:  # m = 2: only u₁ = u₂ is unbiased; the worst non-constant ratio is |w₁ − w₂|
        return abs(w[0] - w[1]) - 1e-12
    ua = np.asarray(u, dtype=float)
    dist = abs(prop1_code_limit(p, ua) - float(ua.mean()))
    return dist / u_spread(ua) - 1e-12


def _prop1_nonuniform_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = frs(inst["p"])
    w = fedavg_weights_exact(p)
    d = [v - Fraction(1, len(p)) for v in w]
    u = _unbiased_witness(d)
    if u is None:
        return abs(w[0] - w[1]) or Fraction(-1), "exact rationals (m = 2: |w₁ − w₂|)"
    lim = sum((a * b for a, b in zip(w, u, strict=True)), Fraction(0))
    dist = abs(lim - sum(u, Fraction(0)) / len(u))
    shown = ", ".join(f"{float(v):.6g}" for v in u)
    return (dist if dist else Fraction(-1)), (
        f"exact rationals (printed formula); unbiased heterogeneous data u ≈ ({shown}); "
        "−1 encodes lim = x* exactly"
    )


def _prop1_nonuniform_explain(inst: Instance) -> Explanation:
    """p in the paper's terms, Proposition 1's weights w_i in exact rationals, the data u built
    orthogonal to 1 and to w − 1/m, and the limit Σw_iu_i against x* = mean(u)."""
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = decs(inst["p"])
    m = len(p)
    w = fedavg_weights_exact(list(p))
    u = _unbiased_witness([v - Fraction(1, m) for v in w])
    note = "u ⊥ 1 and u ⊥ (w − 1/m): a data set on the hyperplane where the biased limit "
    note += "happens to equal x*"
    if u is None:  # m = 2: only u₁ = u₂ gives lim = x*; show a generic u
        u, note = [Fraction(0), Fraction(1)], "m = 2: every non-constant u gives lim ≠ x*"
    top = max(abs(v) for v in u)
    u = [v / top for v in u] if top else u
    lim = sum((a * b for a, b in zip(w, u, strict=True)), Fraction(0))
    xstar = sum(u, Fraction(0)) / m
    return Explanation(
        quantities=(
            Quantity("p", "link probabilities (static, not all equal)", tuple(p)),
            *(loss_quantity(i, ui) for i, ui in enumerate(u)),
        ),
        steps=(
            Step("w", "Proposition 1's weights (subset-sum formula, exact)", tuple(w)),
            Step("lim E[x^t]", "Σ_i w_i u_i", lim),
        ),
        lhs=Step("|lim E[x^t] − x*|", "|Σ_i w_i u_i − (1/m)Σ_i u_i|", abs(lim - xstar)),
        relation=">",
        rhs=Step("0", "'lim x^t ≠ x*'", 0),
        holds=lim != xstar,
        note=note,
    )


register_claim(
    "fedpbc:prop1-remark-nonuniform",
    "§III",
    "remark after Proposition 1 (non-uniform p), literal",
    (104, 104),
    "Literal reading: if p_i ≠ p_i′ for some i, i′, then lim E[x^t] ≠ x* for EVERY "
    "heterogeneous data set u (u not all equal).",
    space=Space(
        [
            Integer("m", 2, 6),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.2)),
        ],
        where=lambda i: bool(np.ptp(np.asarray(i["p"])) > 0),
    ),
    margin=_prop1_nonuniform_margin,
    exact=_prop1_nonuniform_exact,
    tolerance=0.0,
    expected="refuted",
    explain=_prop1_nonuniform_explain,
    reading=Reading(
        quote="It can be checked that if there exist i, i′ ∈ [m] such that p_i ≠ p_i′, then "
        "lim_{t→∞} x^t ≠ (1/m)Σ_i u_i ≜ x*; when p_i = p for all i ∈ [m], then lim x^t = x*. "
        "In fact, the output of FedAvg may be far away from x* depending on p_i's and u_i's.",
        hypotheses=(
            Hypothesis(
                "Proposition 1's setting: F_i = ½‖x − u_i‖², x⁰ = 0, static p_i",
                "the limit is Proposition 1's Σw_iu_i (fedpbc:prop1-expectation)",
            ),
            Hypothesis("p_i ≠ p_i′ for some pair", "ptp(p) > 0, p_i ∈ (0, 1], m ≤ 6"),
        ),
        interpretation="Literal, not the authors' meaning: a universal quantifier over the "
        "data u. The remark is a generic statement about Proposition 1's formula ('it can be "
        "checked'): its weights w_i are not all 1/m when the p_i differ, so the limit is biased "
        "for generic data — the next sentence ('far away from x* depending on p_i's and u_i's') "
        "ties the bias to the data. For m ≥ 3 the data u orthogonal to 1 and to w − 1/m (a "
        "hyperplane of u's, measure zero) make the biased limit coincide with x*; constant u "
        "are excluded by every reading.",
        alternatives="Intended: Proposition 1's weights are not uniform — w_i > w_i′ whenever "
        "p_i > p_i′, so lim E[x^t] ≠ x* for every u off that hyperplane "
        "(fedpbc:prop1-remark-nonuniform-weights, holds).",
    ),
    finding=Finding(
        "literal",
        "a 'for every u' quantifier on a generic remark: the weights are never uniform for "
        "non-uniform p (fedpbc:prop1-remark-nonuniform-weights holds); only u on a measure-zero "
        "hyperplane give lim = x*",
        intended="fedpbc:prop1-remark-nonuniform-weights",
    ),
    notes="The instance is p; the margin evaluates the statement for all u at once: the limit "
    "Σw_iu_i equals x* = mean(u) on the hyperplane Σ(w_i − 1/m)u_i = 0, which for m ≥ 3 "
    "contains non-constant u (u ⊥ 1 and u ⊥ w, built as a cross product), so the margin "
    "evaluates |lim − x*|/max|u − ū| − 1e-12 at that witness u (exact: rationals, −1 when lim = "
    "x* exactly, the witness printed in the method). For m = 2 the statement holds (only u₁ = "
    "u₂ is unbiased). Refuted for every non-uniform p with m ≥ 3; symmetric example: p = "
    "(1/2, 1/5, 1/5), u = (0, −1, 1) (w₂ = w₃, lim = 0 = x*).",
)


def _weight_gaps(p: list[Any], w: list[Any]) -> list[Any]:
    """(w_i − w_j)/(p_i − p_j) for every pair with p_i > p_j."""
    m = len(p)
    return [(w[i] - w[j]) / (p[i] - p[j]) for i in range(m) for j in range(m) if p[i] > p[j]]


def _prop1_weights_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    p = np.asarray(inst["p"], dtype=float)
    w = fedavg_weights(p).weights
    return float(min(_weight_gaps(p.tolist(), w.tolist())))


def _prop1_weights_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = frs(inst["p"])
    return min(_weight_gaps(p, fedavg_weights_exact(p))), (
        "exact rationals (Proposition 1's subset-sum formula)"
    )


register_claim(
    "fedpbc:prop1-remark-nonuniform-weights",
    "§III",
    "remark after Proposition 1 (non-uniform p), reading: the weights are biased",
    (104, 104),
    "If p_i > p_i′ then Proposition 1's weights satisfy w_i > w_i′; hence for non-uniform p "
    "the weights are not all 1/m and lim E[x^t] = Σw_iu_i ≠ x* for every u off the hyperplane "
    "Σ_i(w_i − 1/m)u_i = 0 (almost every data set).",
    space=Space(
        [
            Integer("m", 2, 10),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.2)),
        ],
        where=lambda i: bool(np.ptp(np.asarray(i["p"])) > 0),
    ),
    margin=_prop1_weights_margin,
    exact=_prop1_weights_exact,
    tolerance=1e-9,
    expected="holds",
    reading=Reading(
        quote="It can be checked that if there exist i, i′ ∈ [m] such that p_i ≠ p_i′, then "
        "lim_{t→∞} x^t ≠ x*.",
        hypotheses=(
            Hypothesis("static p_i^t = p_i ∈ (0, 1]", "p_i ∈ (0, 1], not all equal, m ≤ 10"),
        ),
        interpretation="What 'it can be checked' on Proposition 1's formula: its weights are "
        "strictly increasing in the link probability, so non-uniform p give non-uniform "
        "weights and a biased limit for generic data. Margin: the smallest (w_i − w_j)/(p_i − "
        "p_j) over pairs with p_i > p_j (> 0 iff the claim holds).",
        alternatives="For every u: fedpbc:prop1-remark-nonuniform (literal, refuted on a "
        "measure-zero set of u).",
    ),
    notes="Code path fltheory.limits.bernoulli.fedavg_weights; exact: Proposition 1's "
    "subset-sum formula in rationals. Why it holds: with R = |A ∖ {i, j}|, w_i − w_j = "
    "(p_i − p_j)E[1/(1 + R)]/P(A ≠ ∅) > 0, so the margin is that positive expectation.",
)


def _far_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    u, eps = np.asarray(inst["u"]), inst["eps"]
    if eps < 1e-9:
        raise NumericalError("ε below 1e-9 is not resolved in float64")
    xstar = float(u.mean())
    R = float(np.max(np.abs(u - xstar)))
    if R == 0.0:
        return 0.0
    i_far = int(np.argmax(np.abs(u - xstar)))
    best = -math.inf
    for k in range(1, 16):
        delta = 10.0**-k
        p = np.full(u.size, delta)
        p[i_far] = 1.0 - delta
        dist = abs(float(fedavg_weights(p).weights @ u) - xstar)
        best = max(best, (dist - (1.0 - eps) * R) / R)
        if best >= 0:
            break
    return best


register_claim(
    "fedpbc:prop1-far",
    "§III and Remark 4(2)",
    "FedAvg may converge arbitrarily far from x*",
    (104, 260),
    "For any data u and ε > 0 there are link probabilities p with ‖lim E[x] − x*‖ ≥ "
    "(1 − ε)·max_i‖u_i − x*‖ (so, scaling u, arbitrarily far).",
    space=Space(
        [
            Integer("m", 2, 100),
            Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
            Real("eps", 0.0, 1.0, special=(0.5,)),
        ]
    ),
    margin=_far_margin,
    tolerance=1e-12,
    budget=1000,
    expected="holds",
    notes="An existential statement: the margin searches the witness sequence p_δ (1 − δ at "
    "the client farthest from x*, δ elsewhere; δ = 10^−1…10^−15) and returns the best "
    "(dist − (1 − ε)R)/R. The converse bound ‖lim − x*‖ ≤ max_i‖u_i − x*‖ holds because the "
    "limit is a convex combination of the u_i, so 'arbitrarily far' needs the scale of u. "
    "ε < 1e-9 is declined (not resolved in float64). No exact margin (the witness is a limit).",
)
