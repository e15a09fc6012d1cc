"""Findings of the CA-Fed client modules (claims/papers/cafed: s3d_guideline_b, s5a_population,
app_b2_lemmas_17_18; the margins and verdicts are tested in test_cafed_chains.py): the step (171)
counterexample explained in the paper's quantities and recomputed by hand, and the readings of
Guideline B and of §V-A's population."""

from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed._verify import verify_step171

A = np.array

#: one client, F = ½‖w‖², π = ½, λ₂ = 0.9, q = 0.8, W = B(0, 10), w = (10, 0), t = 1, A₀ inactive
STEP171 = dict(N=1, u1=A([0.0]), u2=A([0.0]), h1=A([1.0]), h2=A([1.0]), c=A([0.0]),
               pi=A([0.5]), q=A([0.8]), alpha=A([1.0]), diam=20.0, off=0.0, offphi=0.0,
               rad=1.0, phi=0.0, l2=A([0.9]), state=0, s=1)  # fmt: skip


def test_step171_explanation_by_hand():
    # C_P = 2 (π = ½), H = ½·10² = 50, 2C_PH = 200 > 1: J₁ = min(⌈ln 200/ln(1/0.95)⌉, 1) = 1;
    # P(active | A₀ inactive) = (1 − 0.9)·½ = 1/20, g = F(w) − F(w_B*) = 50:
    # LHS = (1/20)·0.8·50 = 2, RHS = ½·0.8·50 − M·Q/(2t) = 20 − 0.8 = 96/5
    c = CLAIMS.get("cafed:lemma18-eq163-step171")
    e = c.explain(STEP171)
    assert e.lhs.value == 2 and e.rhs.value == Fraction(96, 5) and not e.holds
    assert float(e.verify_args["C_P"]) == pytest.approx(2.0) and e.verify_args["H"] == 50
    assert "capped" in e.note
    out = verify_step171(**e.verify_args)
    assert out["J_t"] == 1 and out["holds"] is False
    # an uncapped round (t = 2000, J_t < t) satisfies the step: [P^{J_t}] is close to ρ
    late = verify_step171(**{**e.verify_args, "t": 2000})
    assert late["J_t"] < 2000 and late["holds"]
    assert c.finding.cls == "error" and c.finding.severity == "step"
    assert CLAIMS.get("cafed:lemma18-eq163").expected == "holds"


@pytest.mark.parametrize(
    ("claim_id", "intended"),
    [
        ("cafed:guideline-b-bound", "cafed:guideline-b-lambda"),
        ("cafed:sec5a-population-general", "cafed:sec5a-population"),
    ],
)
def test_literal_readings_point_to_a_holding_claim(claim_id, intended):
    c = CLAIMS.get(claim_id)
    assert c.finding.cls == "literal" and c.finding.intended == intended
    assert CLAIMS.get(intended).expected == "holds"
    assert c.reading is not None and "Not the authors' meaning" in c.reading.interpretation
