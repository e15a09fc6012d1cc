"""CA-Fed INFOCOM claims (claims/papers/cafed_infocom/): the INFOCOM reading of the
minimisers, Appendix D's convexity, Fig. 1's exclusions and the aliases (every claim's verdict:
test_expected_verdicts.py)."""

import math
import re
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.claim import resolve, select

A = np.array
CLAIMS_HERE = select(paper="cafed-infocom")


def claim(cid):
    return CLAIMS.get(f"cafed-infocom:{cid}")


def margin(cid, **inst):
    return claim(cid).margin(inst)


def exact(cid, **inst):
    return claim(cid).exact(inst)[0]


# u = (10, −10), h = 1, α = (½, ½), p = (0.6, 0.4): w* = 0, w_B* = 2, W = [−2.5, 2.5]
COUNTER = dict(n=2, alpha=A([0.5, 0.5]), p=A([0.6, 0.4]), u=A([10.0, -10.0]), h=A([1.0, 1.0]),
               log_r_lo=math.log10(2.5), log_r_hi=math.log10(0.5))  # fmt: skip


def test_eq11_on_w_hand_counterexample():
    # Γ_W = 50 − ½·7.5² = 21.875, χ² = 1/24, ε_bias = F(2) − F(0) = 2
    bound = Fraction(21875, 1000) / 24  # (the float 0.6 is not 3/5: compare approximately)
    assert margin("assumption2-on-w", **COUNTER) == pytest.approx(float((bound - 2) / 2))
    assert float(exact("assumption2-on-w", **COUNTER)) == pytest.approx(float((bound - 2) / 2))
    # the journal's reading: W large enough to contain u_k, Γ = 50: 50/24 ≥ 2 holds
    big = {**COUNTER, "log_r_lo": math.log10(20.0), "log_r_hi": math.log10(20.0)}
    assert margin("assumption2-on-w", **big) == pytest.approx((50 / 24 - 2) / (50 / 24))
    same = {**COUNTER, "u": A([3.0, 3.0])}  # identical clients: both sides 0
    assert margin("assumption2-on-w", **same) == 0.0


def test_eq10_on_w_still_holds():
    at_w_star = {**COUNTER, "t": 0.5}  # w = 0 = w*: ε = 0
    assert margin("assumption2-on-w-eq10", **at_w_star) == 1.0
    edge = {**COUNTER, "t": 1.0}  # w = 2.5: ε = 3.125, ε_opt = 0.125, ε_bias = 2, bound 4.25
    assert margin("assumption2-on-w-eq10", **edge) == pytest.approx((4.25 - 3.125) / 4.25)
    assert float(exact("assumption2-on-w-eq10", **edge)) == pytest.approx(1125 / 4250)


def test_appd_convexity_hand_value():
    # n = 1, a = π = 1, B = 1: f(q) = q/2 + 1/q; f(1) = 1.5, f(3) = 11/6, f(2) = 1.5: gap 1/6
    inst = dict(n=1, a=A([1.0]), pi=A([1.0]), q1=A([1.0]), q2=A([3.0]), B=1.0, zeta=0.5)
    gap_q, gap_ys, _ = __import__(
        "fltheory.claims.papers.cafed_infocom.app_d_convexity", fromlist=["_appd_gaps"]
    )._appd_gaps(inst, Fraction)
    assert gap_q == Fraction(1, 6) / (Fraction(3, 4) + Fraction(11, 12) + Fraction(3, 2))
    assert gap_ys >= 0
    assert margin("appd-convex", **inst) > 0
    inst.update(a=A([0.0]), B=0.0)  # f ≡ 0 on the q-line: linear, gap 0
    assert margin("appd-convex", **inst) == 0.0


def test_fig1_exclusions_on_one_seed():
    assert margin("fig1-excluded", seed=0) > 0.1


def test_aliases_say_what_is_missing_and_where_the_journal_checks_it():
    aliases = [c for c in CLAIMS_HERE if not c.executable and c.reason.startswith("needs ")]
    assert len(aliases) >= 20
    for c in aliases:
        missing, _, target = c.reason.partition("lost in this extraction")
        assert missing.strip() and "registered as cafed:" in target, c.id
        for ref in re.findall(r"cafed:[a-z0-9][a-z0-9.\-]*[a-z0-9]", target):
            assert resolve(ref), (c.id, ref)


def test_the_cluster_remark_is_checked_with_the_journal_margin():
    spatial = claim("spatial")
    assert spatial.executable and spatial.margin is CLAIMS.get("cafed:sec5e-cluster").margin
    # two clusters, λ = (0.9, 0.5); cluster 0 has clients 0 and 2, client 2 excluded only:
    # the kept client 0 keeps λ(P) = (1 + 0.9)/2, the margin is the 1e-9 consistency slack
    inst = dict(C=2, pi=A([0.5, 0.5]), l2=A([0.9, 0.5]), N=1, assign=A([0.1]),
                ex_first=A([1.0, 1.0]), ex_rest=A([0.0]))  # fmt: skip
    assert 0.0 <= spatial.margin(inst) <= 1e-9


def test_eq11_on_w_explanation_agrees_with_the_exact_margin():
    c = claim("assumption2-on-w")
    e = c.explain(COUNTER)
    assert not e.holds and c.verify(**e.verify_args)["holds"] is False
    # Γ_W = 50 − ½·(10 − 2.5)² = 21.875, χ² = 1/24 (p = (0.6, 0.4) as decimals): bound 0.911
    assert e.rhs.value == Fraction(21875, 1000) / 24 and e.lhs.value == 2
