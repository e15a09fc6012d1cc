"""Claims of fltheory.claims.papers.cafed.app_b1_lemmas_2_7, app_b2_lemmas_8_10 and
app_b2_lemmas_11_13 (Lemmas 2–7, 9, 12, 13 of CA-Fed's App. B): margins against a scalar round
worked out by hand, the counterexamples and their explanations in the paper's quantities
(hand-checked rationals); every claim's verdict is checked in test_expected_verdicts.py.
Lemma 15 is executable on Theorem 2's trajectories (_theorem2)."""

from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed import app_b1_lemmas_2_7 as b1
from fltheory.claims.papers.cafed import app_b2_lemmas_11_13 as b2


def margin(claim_id: str, inst: dict) -> float:
    return CLAIMS.get(claim_id).margin(inst)


def exact(claim_id: str, inst: dict) -> float:
    return float(CLAIMS.get(claim_id).exact(inst)[0])


def scalar_round(noisy: int = 1) -> dict:
    """N = d = 1, F = ½w² (h = L = 1, u = 0 = w_B*), q = 1, E = 2, feta = 1 so η = 1/10,
    w_{t,0} = 1, s = 1 (σ² = 1), W = [−10, 10]."""
    z = np.zeros(1)
    return {
        "n": 1, "d": 1, "lh1": z, "lh2": z, "lh3": z, "s1": z, "s2": z, "s3": z, "u1": z,
        "u2": z, "u3": z, "alpha": np.ones(1), "pi": np.ones(1), "q": np.ones(1), "act": 1,
        "E": 2, "feta": 1.0, "wd1": 1.0, "wd2": 0.0, "wd3": 0.0, "lw": 0.0, "lr": 1.0,
        "ls": z, "noisy": noisy,
    }  # fmt: skip


# By hand: η = 1/(2·1·(1 + 2·2·1)) = 1/10; w₁ = 1 − η = 9/10 (σ = 0 mean path); ḡ = 1 + 9/10.
ETA, W1 = 0.1, 0.9
GBAR = 1.0 + W1


def rel(rhs: float, lhs: float) -> float:
    return (rhs - lhs) / max(abs(rhs), abs(lhs))


def test_lemma2_exact_identity():
    assert margin("cafed:lemma2-eq44", scalar_round()) == 0.0
    assert exact("cafed:lemma2-eq44", scalar_round()) == 0.0


def test_lemma3_proved_is_an_identity_and_printed_holds_for_small_eta():
    w_next = 1.0 - ETA * GBAR  # 0.81, inside W
    lhs = w_next**2
    proved = 1.0 - 2 * ETA * GBAR + ETA**2 * GBAR**2
    printed = 1.0 - 2 * ETA * GBAR + ETA * GBAR**2
    inst = scalar_round(0)
    assert margin("cafed:lemma3-eq53-proved", inst) == pytest.approx(rel(proved, lhs), abs=1e-12)
    assert abs(margin("cafed:lemma3-eq53-proved", inst)) < 1e-12
    assert margin("cafed:lemma3-eq53-printed", inst) == pytest.approx(rel(printed, lhs))


def test_lemma3_printed_counterexample():
    eta = 1.0 / (2 * 10.0**-4 * 3)  # 5000/3
    gbar = 10.0**-4
    lhs = (1 - eta * gbar) ** 2  # 25/36
    rhs = 1 - 2 * eta * gbar + eta * gbar**2  # 2/3 + 1/60000
    m = margin("cafed:lemma3-eq53-printed", b1.LEMMA3_COUNTEREXAMPLE)
    assert m == pytest.approx(rel(rhs, lhs), rel=1e-9)
    assert m == pytest.approx(-0.04 + 36 / (25 * 60000), rel=1e-9)
    assert exact("cafed:lemma3-eq53-printed", b1.LEMMA3_COUNTEREXAMPLE) < 0
    assert margin("cafed:lemma3-eq53-proved", b1.LEMMA3_COUNTEREXAMPLE) >= -1e-12


def test_lemma4_and_5_by_hand():
    gaps = 0.5 * 1.0**2 + 0.5 * W1**2  # Σ_j F(w_j) − F(w_B*), F(w_B*) = 0
    lhs4 = -2 * ETA * GBAR
    rhs4 = -2 * ETA * (1 - ETA) * gaps + (W1 - 1.0) ** 2
    inst = scalar_round(0)
    assert margin("cafed:lemma4-eq58", inst) == pytest.approx(rel(rhs4, lhs4))
    assert margin("cafed:lemma4-eq58", inst) == pytest.approx(0.2271 / 0.38)
    lhs5, rhs5 = ETA**2 * GBAR**2, 2 * ETA**2 * 1 * 2 * 1 * gaps
    assert margin("cafed:lemma5-eq66", inst) == pytest.approx(rel(rhs5, lhs5))
    assert margin("cafed:lemma5-eq66", inst) == pytest.approx(0.0001 / 0.0362)


def test_lemma6_7_9_with_noise_by_hand():
    inst = scalar_round(1)
    s2 = 1.0
    # Lemma 6: E⟨−ηḡ, ḡ − g⟩ = ηE[ḡξ₀] = η·(−η)s²; the w₀ − w_B* part has mean-zero partner.
    lhs6 = 2 * ETA * (-(ETA**2) * s2)
    e_f1 = 0.5 * (W1**2 + ETA**2 * s2)  # E F(w₁)
    rhs6 = 2 * ETA**2 * 1 * 2 * 1 * e_f1 + 0.5 * ETA**2 * 2 * 1 * s2
    assert margin("cafed:lemma6-eq72", inst) == pytest.approx(rel(rhs6, lhs6))
    assert exact("cafed:lemma6-eq72", inst) == pytest.approx(rel(rhs6, lhs6))
    # Lemma 7: g − ḡ = ξ₀ + ξ₁: equality
    assert margin("cafed:lemma7-eq91", inst) == pytest.approx(0.0, abs=1e-12)
    assert exact("cafed:lemma7-eq91", inst) == 0.0
    # Lemma 9: E(w₁ − w₀)² = η² + η²s²; G² = max(1 + s², E w₁² + s²) = 2
    lhs9 = ETA**2 * 1 + ETA**2 * s2
    rhs9 = 0.5 * ETA**2 * 8 * 2.0 * 1
    assert margin("cafed:lemma9-eq106", inst) == pytest.approx(rel(rhs9, lhs9))
    assert margin("cafed:lemma9-eq106", inst) == pytest.approx(0.75)


def test_lemma13_by_hand():
    lhs = (ETA * GBAR) ** 2
    rhs = (ETA * 2 * 1) ** 2 * 1.0  # G² = max(1, 0.81)
    assert margin("cafed:lemma13-eq128", scalar_round(0)) == pytest.approx(rel(rhs, lhs))
    assert margin("cafed:lemma13-eq128", scalar_round(0)) == pytest.approx(0.0975)


def test_lemma12_by_hand_and_printed_counterexample():
    inst = b2.LEMMA12_COUNTEREXAMPLE  # F = ½w², W = [−1, 1], v = 1, w = 0, D = 1
    assert margin("cafed:lemma12-eq125", inst) == pytest.approx((1.0 - 0.25) / 1.0)
    corner = {**inst, "x1": 1.0}  # v = w: both sides 0
    assert margin("cafed:lemma12-eq125", corner) == 0.0
    opposite = {**inst, "x1": -1.0}  # F(1) = F(−1): |ΔF| = 0 ≤ 2D
    assert margin("cafed:lemma12-eq125", opposite) == pytest.approx(1.0)
    # printed (126): lower gap (½ − 1)/1, upper gap (0 − ½)/½ = −1
    assert margin("cafed:lemma12-eq126-printed", inst) == pytest.approx(-1.0)
    assert exact("cafed:lemma12-eq126-printed", inst) == -1.0


def test_lemma12_corrected_order_holds_at_the_counterexample():
    inst = b2.LEMMA12_COUNTEREXAMPLE  # ⟨∇F(w), v − w⟩ = 0 ≤ ½ ≤ ⟨∇F(v), v − w⟩ = 1
    assert margin("cafed:lemma12-eq126-corrected", inst) == pytest.approx(0.5)
    e = CLAIMS.get("cafed:lemma12-eq126-printed").explain(inst)
    assert not e.holds and e.lhs.value == Fraction(1, 2) and e.rhs.value == (1, 0)
    assert CLAIMS.get("cafed:lemma12-eq126-printed").verify(**e.verify_args)["holds"] is False
    out = b2.verify_lemma12(**{**e.verify_args, "form": "corrected"})
    assert out["holds"] and out["rhs"] == (0, 1)


def test_lemma3_explanation_by_hand():
    # F = ½·10⁻⁴w², q = 1, E = 1: η = 1/(2·10⁻⁴·3) = 5000/3 exactly, ḡ = 10⁻⁴, w₁ = 1 − 1/6
    e = CLAIMS.get("cafed:lemma3-eq53-printed").explain(b1.LEMMA3_COUNTEREXAMPLE)
    assert e.verify_args["eta"] == Fraction(5000, 3)
    assert e.lhs.value == Fraction(25, 36)
    assert e.rhs.value == 1 - 2 * Fraction(5000, 3) * Fraction(1, 10**4) + Fraction(
        5000, 3
    ) * Fraction(1, 10**8)
    assert not e.holds and "exceeds 1" in e.note
    proved = b1.verify_lemma3(**{**e.verify_args, "form": "proved"})
    assert proved["holds"] and proved["lhs"] == proved["rhs"]  # (57) is an identity here


def test_lemma15_moved_to_the_trajectory_claims():
    claim = CLAIMS.get("cafed:lemma15-eq147")
    assert claim.executable and claim.margin.__module__.endswith("._theorem2")
