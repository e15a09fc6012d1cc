"""Lemma claims of fltheory.claims.papers.cafed_lemmas (Lemmas 8, 10 and the J_t step of
Lemma 14): margins against sides written out independently here, small-budget verdicts, and
(slow) every claim with its default budget."""

import math

import numpy as np
import pytest

from fltheory.claims import CLAIMS, falsify
from fltheory.claims.papers import cafed_lemmas as cl

IDS = sorted(c.id for c in CLAIMS if c.margin is not None and c.margin.__module__ == cl.__name__)
CEX = cl.LEMMA8_COUNTEREXAMPLE


def margin(claim_id: str, inst: dict) -> float:
    return CLAIMS.get(claim_id).margin(inst)


def exact(claim_id: str, inst: dict) -> float:
    return float(CLAIMS.get(claim_id).exact(inst)[0])


def lemma8_by_hand(u, q, active, w0, E, feta):
    """Both sides of (98) and (104) for F_k = ½(w − u_k)² (d = 1, L = 1, F_k* = 0)."""
    u, q = np.asarray(u, float), np.asarray(q, float)
    p = q / q.sum()  # π = 1 below
    w_B = float(p @ u)
    eta = feta / (2.0 * (1.0 + 2.0 * E * q.sum()))
    gamma = 2 * eta * (1 - eta * (1 + 2 * E * q.sum()))
    F = lambda k, w: 0.5 * (w - u[k]) ** 2  # noqa: E731
    gaps = S = drift = bias = 0.0
    for k in active:
        w = w0
        for _ in range(E):
            gaps += q[k] * (F(k, w) - F(k, w_B))
            drift += q[k] * (w - w0) ** 2
            w -= eta * (w - u[k])
        S += q[k] * (F(k, w0) - F(k, w_B))
        bias += q[k] * F(k, w_B)
    lhs = -gamma * gaps
    rhs98 = -0.5 * eta * E * S + drift + 2 * eta**2 * E * bias
    rhs104 = -gamma * E * (1 - eta) * S + gamma / (2 * eta) * drift + gamma * eta * E * bias
    return lhs, rhs98, rhs104, w_B


def round_instance(u, q, act, w0, E, feta):
    """A cafed_lemmas instance with d = 1, H_k = 1, π = 1 and the start w0."""
    u, q = np.asarray(u, float), np.asarray(q, float)
    n = len(u)
    spread = float(np.ptp(u)) or 1.0
    w_B = float(q @ u / q.sum())
    zeros = np.zeros(n)
    return {
        "n": n, "d": 1, "lh1": zeros, "lh2": zeros, "lh3": zeros, "s1": zeros, "s2": zeros,
        "s3": zeros, "u1": u, "u2": zeros, "u3": zeros, "alpha": np.full(n, 1.0 / n),
        "pi": np.ones(n), "q": q, "act": act, "E": E, "feta": feta,
        "wd1": float(np.sign(w0 - w_B)) or 1.0, "wd2": 0.0, "wd3": 0.0,
        "lw": math.log10(abs(w0 - w_B) / spread) if w0 != w_B else -6.0,
    }  # fmt: skip


def test_lemma8_counterexample_of_the_inventory():
    lhs, rhs98, rhs104, w_B = lemma8_by_hand([0.0, 1.0], [1.0, 1.0], [0], 0.0, 1, 0.5)
    assert w_B == 0.5 and lhs == pytest.approx(3 / 320) and rhs98 == pytest.approx(3 / 800)
    assert margin("cafed:lemma8-eq98", CEX) == pytest.approx(-0.6, rel=1e-12)
    assert exact("cafed:lemma8-eq98", CEX) == pytest.approx(-0.6, rel=1e-12)
    # (104) is an equality here: lhs − rhs = −γηL·q₁(F₁(w₀) − F₁*) = 0 as w₀ = u₁
    assert rhs104 == pytest.approx(lhs) and margin("cafed:lemma8-eq104", CEX) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("u", "q", "act", "active", "w0", "E", "feta"),
    [
        ([0.0, 1.0, 3.0], [0.2, 0.5, 0.3], 0b101, [0, 2], 2.5, 3, 1.0),  # S > 0: (98) holds
        ([0.0, 1.0], [1.0, 1.0], 0b011, [0, 1], 0.3, 2, 0.7),
    ],
)
def test_lemma8_sides_match_a_direct_computation(u, q, act, active, w0, E, feta):
    inst = round_instance(u, q, act, w0, E, feta)
    lhs, rhs98, rhs104, _ = lemma8_by_hand(u, q, active, w0, E, feta)
    for claim_id, rhs in (("cafed:lemma8-eq98", rhs98), ("cafed:lemma8-eq104", rhs104)):
        expected = (rhs - lhs) / max(abs(rhs), abs(lhs))
        assert margin(claim_id, inst) == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert exact(claim_id, inst) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert margin("cafed:lemma8-eq104", inst) >= 0.0


def test_lemma10_at_the_theorem1_hand_instance():
    # F₁ = ½w², F₂ = ½(w − 2)², π = 1, q = (9/10, 1/10): w_B* = 1/5, w* = 1 (α = ½, ½)
    inst = round_instance([0.0, 2.0], [0.9, 0.1], 1, 0.2, 1, 1.0)
    lhs = 0.9 * 0.5 * 0.2**2 + 0.1 * 0.5 * 1.8**2  # Σπ_kq_k(F_k(w_B*) − F_k*) = 0.18
    rhs = 1.0 * 0.5  # (Σπ_kq_k)·Γ, Γ = max_k F_k(w*) = ½
    assert margin("cafed:lemma10-eq111", inst) == pytest.approx((rhs - lhs) / rhs, rel=1e-12)
    assert exact("cafed:lemma10-eq111", inst) == pytest.approx((rhs - lhs) / rhs, rel=1e-12)
    same = {**inst, "u1": np.array([2.0, 2.0])}  # Γ = 0: 0 ≤ 0
    assert margin("cafed:lemma10-eq111", same) == 0.0 and exact("cafed:lemma10-eq111", same) == 0


def test_lemma14_step():
    small_K = {"lK": -4.0, "lell": -0.7, "a": 0.7, "T": 1}  # J₁ = 0 > −4/0.1995
    assert margin("cafed:lemma14-eq142-step", small_K) == -1.0
    assert exact("cafed:lemma14-eq142-step", small_K) == -1.0
    capped = {"lK": 2.0, "lell": math.log10(0.5), "a": 1.0, "T": 1}  # J₁ = min(4, 1) = 1 ≤ 4
    assert margin("cafed:lemma14-eq142-step", capped) == pytest.approx(0.75, rel=1e-12)
    # T = 2: ratio₂ = (2 + ln 2)/0.5 = 5.386, J₂ = 2 (capped), η₀ := η₁: both terms weigh 1
    two = {**capped, "T": 2}
    rhs, lhs = 4.0 + (2.0 + math.log(2.0)) / 0.5, 1.0 + 2.0
    assert margin("cafed:lemma14-eq142-step", two) == pytest.approx((rhs - lhs) / rhs, rel=1e-12)


@pytest.mark.parametrize("claim_id", IDS)
def test_small_budget_verdicts(claim_id):
    claim = CLAIMS.get(claim_id)
    verdict = falsify(claim, budget=300, seed=0)
    assert verdict.verdict == claim.expected, verdict.to_dict()
    if verdict.verdict == "refuted":
        assert verdict.exact_margin is not None and verdict.exact_margin < 0


@pytest.mark.slow
def test_every_claim_with_its_default_budget():
    rows, total = [], 0.0
    for claim_id in IDS:
        claim = CLAIMS.get(claim_id)
        verdict = falsify(claim)
        total += verdict.seconds
        rows.append(
            f"{claim_id:28s} {verdict.verdict:8s} {verdict.worst_margin:+.3e} "
            f"{verdict.evaluations:6d} {verdict.seconds:6.2f}s"
        )
        assert verdict.verdict == claim.expected, verdict.to_dict()
    print("\n" + "\n".join(rows) + f"\ntotal {total:.1f}s")
    assert total < 20.0
