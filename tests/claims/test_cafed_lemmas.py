"""Lemma claims of fltheory.claims.papers.cafed.app_b2_lemmas_8_10, app_b3_lemma14_proof and
app_b3_lemma14 (Lemmas 8, 10, the J_t steps of Lemma 14's proof and its eq. 133): margins against
sides written out independently here (every claim's verdict: test_expected_verdicts.py)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed import app_b2_lemmas_8_10 as cl

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
    """A Lemma 8/10 instance with d = 1, H_k = 1, π = 1 and the start w0."""
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
    # λ = ½, 2C_PH = 1, η_t = 1/t, T_P = 0: ratio_t = log₂t, J = (0, 1, 2) for t = 1, 2, 3 and
    # t − J_t = 1 each time (weight η₁²): Σ J = 3 > Σ ratio = log₂3 + 1
    three = {"lam": 0.5, "lK": 0.0, "T_P": 0, "a": 1.0, "T": 3}
    rhs, lhs = 1.0 + math.log2(3.0), 3.0
    assert margin("cafed:lemma14-eq142-step", three) == pytest.approx((rhs - lhs) / lhs)
    assert exact("cafed:lemma14-eq142-step", three) == pytest.approx((rhs - lhs) / lhs)
    # T = 2: J = ratio = (0, 1) exactly (a tie decided with integers): equal sides
    assert margin("cafed:lemma14-eq142-step", {**three, "T": 2}) == pytest.approx(0.0, abs=1e-15)
    assert exact("cafed:lemma14-eq142-step", {**three, "T": 2}) == 0.0
    # T_P = 2, T = 5: J = (1, 2, 2, 2, 3) — rounds 1, 2 capped (left out: η₀), then
    # J₃ = T_P = 2 > log₂3, J₄ = 2 = log₂4, J₅ = 3 > log₂5, all with t − J_t ≥ 1
    tp = {**three, "T_P": 2, "T": 5}
    lhs = 2.0 + 2.0 / 4 + 3.0 / 4
    rhs = math.log2(3.0) + 2.0 / 4 + math.log2(5.0) / 4
    assert margin("cafed:lemma14-eq142-step", tp) == pytest.approx((rhs - lhs) / lhs)
    assert margin("cafed:lemma14-eq142-step", {**three, "T_P": 5}) == 0.0  # every round capped
    rhs, lhs = 1.0 + math.log2(3.0), 3.0
    e = CLAIMS.get("cafed:lemma14-eq142-step").explain(three)
    out = CLAIMS.get("cafed:lemma14-eq142-step").verify(**e.verify_args)
    assert not e.holds and not out["holds"] and float(out["lhs"]) == 3.0
    assert float(out["rhs"]) == pytest.approx(1.0 + math.log2(3.0), rel=1e-15)


def test_lemma14_finiteness_argument():
    # λ = ½, 2C_PH = 1, T_P = 0, η_t = 1/t: a = 1/ln 2, b = 1, t′ = 1; the right end of (146) is
    # ln(2 + 1/ln 2)·ζ(2) − ζ′(2) with ζ(2) = π²/6, ζ′(2) = −0.93754825431584375…
    rhs = math.log(2 + 1 / math.log(2)) * math.pi**2 / 6 + 0.9375482543158437
    J = [math.ceil(math.log2(t)) for t in range(1, 12)]  # 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4
    lhs = sum(math.log(t) / (t - j) ** 2 for t, j in zip(range(1, 12), J, strict=True))
    assert lhs > rhs  # rounds (2, 3), (4, 5), (8, 9) share t − J_t = 1, 2, 5
    inst = {"lam": 0.5, "lK": 0.0, "T_P": 0, "a": 1.0, "s": 10}
    assert margin("cafed:lemma14-eq144-146", inst) == pytest.approx((rhs - lhs) / lhs, rel=1e-9)
    assert exact("cafed:lemma14-eq144-146", inst) == pytest.approx((rhs - lhs) / lhs, rel=1e-9)
    c = CLAIMS.get("cafed:lemma14-eq144-146")
    out = c.verify(**c.explain(inst).verify_args)
    assert not out["holds"] and float(out["lhs"]) == pytest.approx(lhs, rel=1e-14)
    # few rounds: the left end is still below the right one
    assert margin("cafed:lemma14-eq144-146", {**inst, "s": 2}) > 0


def test_lemma8_witness_in_the_paper_quantities():
    c = CLAIMS.get("cafed:lemma8-eq98")
    e = c.explain(CEX)
    assert (e.lhs.value, e.rhs.value, e.holds) == (Fraction(3, 320), Fraction(3, 800), False)
    assert c.verify(**e.verify_args) == {"lhs": Fraction(3, 320), "rhs": Fraction(3, 800),
                                         "holds": False}  # fmt: skip
    # S ≥ 0 (w_(t,0) = 2, both clients active): (98) holds, and verify agrees
    fine = {**CEX, "act": 3, "w1": 2.0}
    e = c.explain(fine)
    assert e.holds and c.verify(**e.verify_args)["holds"] and margin(c.id, fine) >= 0


def test_lemma14_eq133_lhs_against_path_enumeration():
    # one two-state client (π = ½, λ₂ = ½), σ = 0: enumerate the 2^T availability paths and the
    # deterministic iterates w_{t+1} = w_t − q·1{A_t}·b_t(w_t − u), b_t = 1 − (1 − η_th)^E
    import itertools

    from fltheory.claims.papers.cafed._chainrun import BASE_INSTANCE
    from fltheory.claims.papers.cafed.app_b3_lemma14 import _l133_delays, _l133_lhs, _l133_run

    inst = dict(BASE_INSTANCE)
    inst.update(n=1, lk=np.zeros(1), ua=np.array([0.5]), ub=np.zeros(1), alpha=np.ones(1),
                pi=np.array([0.5]), lfr=np.ones(1), lq=np.zeros(1), sg=np.zeros(1), le=-6.0,
                lell=math.log10(math.log(4 / 3)), T=10, E=2, leta=-1.0, wa=0.9)  # fmt: skip
    run = _l133_run(inst)
    lam2, h, u, w0, q = float(run.lambda2[0]), float(run.h[0]), run.u[0, 0], run.w0[0], 1.0
    assert lam2 == pytest.approx(0.5)
    T, E = 10, 2
    P = [[1 - (1 - lam2) * 0.5, (1 - lam2) * 0.5], [(1 - lam2) * 0.5, 1 - (1 - lam2) * 0.5]]
    J = _l133_delays(run, np.arange(1, T + 1)).tolist()
    F = lambda w: 0.5 * h * (w - u) ** 2  # noqa: E731
    term = [0.0] * (T + 1)
    for path in itertools.product((0, 1), repeat=T):
        prob = 0.5
        for x, y in itertools.pairwise(path):
            prob *= P[x][y]
        w = [w0]
        for t in range(1, T + 1):
            b = 1 - (1 - run.eta1 * t**-run.a * h) ** E
            w.append(w[-1] - q * path[t - 1] * b * (w[-1] - u))
        for t in range(1, T + 1):
            if J[t - 1] < t and path[t - 1]:
                term[t] += prob * q * (F(w[t - J[t - 1] - 1]) - F(w[t - 1]))
    terms = [run.eta1 * t**-run.a * term[t] for t in range(1, T + 1) if J[t - 1] < t]
    want = max(0.0, max(sum(terms[i:]) for i in range(len(terms))))
    assert want > 0
    assert _l133_lhs(run)[0] == pytest.approx(want, rel=1e-9)
    assert margin("cafed:lemma14-eq133", inst) > 0
