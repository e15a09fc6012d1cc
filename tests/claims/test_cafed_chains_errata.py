"""The findings of the CA-Fed chain modules (claims/papers/cafed: app_b2_*, app_f1_*): witnesses
in the paper's quantities (``explain``) and the standalone ``verify`` functions against hand
computations (exact rationals and closed forms written out here), and the classification of each
refuted claim."""

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.errata_script import standalone_source
from fltheory.claims.papers.cafed._chains import _CANONICAL
from fltheory.claims.papers.cafed.app_f1_mixing import MIX_UPPER_GENERAL_FAMILIES

F = Fraction

#: The refuted claims of the module and their class after re-reading (issue 22).
CLASSES = {
    "cafed:appf1-mixing-upper-general": "typo",
    "cafed:eq132-jt-printed": "literal",
    "cafed:eq229-slem-printed": "literal",
    "cafed:footnote3-lambda-choice-a": "literal",
    "cafed:lemma16-eq156-cp": "literal",
    "cafed:lemma16-eq157-tp-a": "literal",
    "cafed:lemma16-eq157-tp-a-frobenius": "literal",
    "cafed:lemma16-eq158-printed": "error",
}


@pytest.mark.parametrize(("claim_id", "cls"), sorted(CLASSES.items()))
def test_classification(claim_id, cls):
    c = CLAIMS.get(claim_id)
    assert c.expected == "refuted" and c.finding.cls == cls and c.reading.quote
    if cls != "literal":
        standalone_source(c.verify)
    else:
        assert CLAIMS.get(c.finding.intended).expected == "holds"


def test_mixing_upper_witness_debruijn_three_fair_coins():
    # the window of the last 3 fair coin flips: P³ = 1ρᵀ, so λ̄₂ = 0, t_rel = 1, ρ = 1/8 each;
    # d(1) = 3/4 (one flip known), d(2) = 1/2, d(3) = 0: t_mix(0.45) = 3 > ln(8/0.45) = 2.878
    c = CLAIMS.get("cafed:appf1-mixing-upper-general")
    inst = c.space.sample(np.random.default_rng(0))
    inst.update({k: v for k, v in _CANONICAL.items() if k in inst})
    inst.update(family=MIX_UPPER_GENERAL_FAMILIES.index("debruijn"), k=3, p=0.5, lazyd=0.0,
                eps=0.45)  # fmt: skip
    e = c.explain(inst)
    assert e.lhs.value == 3 and float(e.rhs.value) == pytest.approx(math.log(8 / 0.45))
    assert not e.holds
    d = [float(s.value) for s in e.steps if s.label.startswith("d(")]
    assert d == pytest.approx([7 / 8, 3 / 4, 1 / 2, 0.0], abs=1e-30)
    out = c.verify(**e.verify_args)
    assert out["lhs"] == 3 and not out["holds"]
    assert float(out["rhs"]) == pytest.approx(math.log(8 / 0.45), rel=1e-15)


def test_mixing_upper_verify_on_reversible_chains():
    v = CLAIMS.get("cafed:appf1-mixing-upper-general").verify
    # two states, π = ½, λ₂ = ½: d(t) = ½·½ᵗ, t_mix(¼) = 1 ≤ 2·ln 8
    out = v(P=[[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], eps=F(1, 4))
    assert out["lhs"] == 1 and out["holds"]
    assert float(out["rhs"]) == pytest.approx(2 * math.log(8), rel=1e-15)
    # a lazy random walk on a triangle (doubly stochastic, symmetric): eigenvalues 1, ¼, ¼
    third = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)]]
    out = v(P=third, eps=F(1, 10))
    # d(t) = (2/3)·(1/4)ᵗ: d(1) = 1/6 > 1/10 ≥ d(2) = 1/24
    assert out["lhs"] == 2 and float(out["rhs"]) == pytest.approx(math.log(30) * 4 / 3, rel=1e-12)


def test_eq158_witness_two_state():
    # π = ½, λ₂ = 0.9, H = 10, t = 1: C_P = 2, λ = 0.95, J₁ = min(⌈ln 40/ln(1/0.95)⌉, 1) = 1;
    # E(1) = 0.45, C_Pλ = 1.9 > 1/(2Ht) = 0.05: the last link fails, as does E(J_t) ≤ 1/(2Ht)
    c = CLAIMS.get("cafed:lemma16-eq158-printed")
    e = c.explain({"pi": 0.5, "lam2": 0.9, "lH": 1.0, "s": 1})
    assert not e.holds
    assert float(e.lhs.value) == pytest.approx(1.9) and float(e.rhs.value) == pytest.approx(0.05)
    steps = {s.label: s.value for s in e.steps}
    assert steps["J_t"] == 1 and steps["max_ij |[P^J_t]_ij − ρ_j|"] == F(9, 20)
    assert float(steps["C_P"]) == pytest.approx(2.0, rel=1e-15)
    assert steps["max_ij |[P^J_t]_ij − ρ_j| ≤ 1/(2Ht)"] is False
    out = c.verify(**e.verify_args)
    assert not out["holds"] and out["J_t"] == 1 and float(out["lhs"]) == pytest.approx(1.9)
    # π = 0.3: C_P = 2√(2(0.09 + 0.49)) (the least ‖U‖_F‖U⁻¹‖_F), as the library's
    from fltheory.markov import ProductChain

    assert ProductChain([0.3], [0.7]).log_C_P == pytest.approx(math.log(2 * math.sqrt(1.16)))
    # a round where J_t < t and every link holds: λ₂ = 0.5, H = 1, t = 50
    e = c.explain({"pi": 0.5, "lam2": 0.5, "lH": 0.0, "s": 50})
    assert e.holds == c.verify(**e.verify_args)["holds"]


def test_eq158_verify_decides_ties_exactly():
    # λ₂ = 0 (λ = ½), π = ½ (C_P = 2), H = 1, t = 8: ln(32)/ln 2 = 5 exactly, J₈ = 5 and
    # C_Pλ^J = 1/16 = 1/(2Ht): the last link holds with equality
    out = CLAIMS.get("cafed:lemma16-eq158-printed").verify(pi=F(1, 2), lam2=F(0), log10_H=F(0), t=8)
    assert out["J_t"] == 5 and out["holds"]


def test_mixing_upper_smallest_counterexample_four_states():
    # the smallest counterexample found (no 3-state one in a global search): eigenvalue −⅓ in a
    # Jordan block of size 3, ρ = (3/8, 3/16, 1/4, 3/16); d(t) by exact powers written out here
    P = [[F(0), F(1, 3), F(1, 3), F(1, 3)], [F(0), F(0), F(2, 3), F(1, 3)],
         [F(1), F(0), F(0), F(0)], [F(2, 3), F(1, 3), F(0), F(0)]]  # fmt: skip
    rho = [F(3, 8), F(3, 16), F(1, 4), F(3, 16)]
    assert all(sum(rho[i] * P[i][j] for i in range(4)) == rho[j] for j in range(4))
    Pt, d = [[F(int(i == j)) for j in range(4)] for i in range(4)], []
    for _ in range(5):
        d.append(max(sum(abs(Pt[a][j] - rho[j]) for j in range(4)) for a in range(4)) / 2)
        Pt = [[sum(Pt[i][m] * P[m][j] for m in range(4)) for j in range(4)] for i in range(4)]
    assert d[3:] == [F(3, 8), F(47, 216)]
    # t_rel = 1/(1 − ⅓) = 3/2 and ρ_min = 3/16: the bound (3/2)·ln(16/(3ε)) < 4 for ε > 0.3706
    v = CLAIMS.get("cafed:appf1-mixing-upper-general").verify
    out = v(P=P, eps=F(373, 1000))
    assert out["lhs"] == 4 and not out["holds"]
    assert float(out["rhs"]) == pytest.approx(1.5 * math.log(16 / (3 * 0.373)), rel=1e-12)
    assert v(P=P, eps=F(37, 100))["holds"]  # ε below the window: 4 ≤ 4.002
