"""CA-Fed availability-chain claims (claims/papers/cafed: s3a_chains, app_b2_*, app_f*, s3d–s5b):
every margin at a hand-checkable instance against an independent computation (closed forms,
exact rationals, numpy on the dense matrix), (every claim's verdict:
test_expected_verdicts.py)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.papers.cafed._chains import _CANONICAL, L16_FAMILIES, build_chain
from fltheory.claims.papers.cafed._clients import proxy_gap
from fltheory.claims.papers.cafed.app_b2_lemma16_eq158 import L158_FAMILIES
from fltheory.claims.papers.cafed.app_f1_mixing import (
    MIX_LOWER_FAMILIES,
    MIX_REVERSIBLE_FAMILIES,
    MIX_UPPER_GENERAL_FAMILIES,
)
from fltheory.claims.papers.cafed.app_f1_slem import (
    EQ229_FAMILIES,
    PRINTED_FAMILIES,
    _printed_as_jordan,
)
from fltheory.claims.papers.cafed.s3a_chains import FN3_FAMILIES
from fltheory.errors import NumericalError
from fltheory.rng import generator

A = np.array


def claim(cid):
    return CLAIMS.get(f"cafed:{cid}")


def inst(cid, **over):
    """An instance of ``cid``: a seeded draw, every chain parameter at its canonical value, then
    ``over`` (a ``family`` name is turned into the claim's index for it)."""
    c = claim(cid)
    out = c.space.sample(generator(0, f"test/{cid}"))
    out.update({k: v for k, v in _CANONICAL.items() if k in out})
    if isinstance(over.get("family"), tuple):
        families, name = over["family"]
        over["family"] = families.index(name)
    out.update(over)
    return out


def margin(cid, **over):
    return claim(cid).margin(inst(cid, **over))


def exact(cid, **over):
    return claim(cid).exact(inst(cid, **over))[0]


def two_state(pi, lam2):
    """Eq. 236 (floats), written out here."""
    a = 1.0 - lam2
    return A([[1 - a * pi, a * pi], [a * (1 - pi), 1 - a * (1 - pi)]])


def client(pi, lam2):
    return dict(N=1, pi=A([pi]), l2=A([lam2]))


def dense2(p, q):
    """The dense family's 2-state chain [[1 − p, p], [q, 1 − q]] (no laziness, no cyclic part)."""
    return dict(M=2, r0=A([1 - p, p]), r1=A([q, 1 - q]), lazy=0.0, cyc=0.0)


# ------------------------------------------------------------------ eq. 229


def test_eq229_slem_two_state_and_nilpotent():
    fam = (EQ229_FAMILIES, "dense")
    # P = [[3/4, 1/4], [1/2, 1/2]]: eigenvalues 1 and 1/4 (numpy below), λ = 5/8
    assert np.sort(np.linalg.eigvals(A([[0.75, 0.25], [0.5, 0.5]])).real)[0] == pytest.approx(0.25)
    assert margin("eq229-slem", family=fam, **dense2(0.25, 0.5)) == pytest.approx(1e-10, abs=1e-15)
    # boundary: the de Bruijn chain of 3 fair coins, Pᵗ = 1ρᵀ for t ≥ 3, so λ̄₂ = 0 exactly
    debruijn = dict(family=(EQ229_FAMILIES, "debruijn"), k=3, p=0.5, lazyd=0.0)
    assert margin("eq229-slem", **debruijn) == pytest.approx(1e-10, abs=1e-15)


def _printed_by_numpy(P):
    """max{|λ₂|, |λ_M|} − the largest modulus in between, the non-unit eigenvalues sorted by
    real part (numpy on the float matrix; distinct real parts assumed)."""
    ev = np.linalg.eigvals(P)
    ev = np.delete(ev, np.argmin(np.abs(ev - 1.0)))
    ev = ev[np.argsort(-ev.real, kind="stable")]
    groups = []
    for z in ev:
        if groups and abs(z.real - groups[-1][0]) < 1e-9:
            groups[-1][1] = max(groups[-1][1], abs(z))
        else:
            groups.append([z.real, abs(z)])
    return max(groups[0][1], groups[-1][1]) - max(g[1] for g in groups[1:-1])


def test_eq229_printed_counterexample():
    # real eigenvalues ±0.1 and the pair 0.9·e^{±iπ/2} (real part 0) in the middle of the order
    c = claim("eq229-slem-printed")
    i = dict(r1=0.1, r2=-0.1, rad=0.9, ang=math.pi / 2, shrink=1.0)
    m = c.margin(i)
    P = build_chain(_printed_as_jordan(i), PRINTED_FAMILIES).Pf
    assert m < -0.1
    assert m == pytest.approx(_printed_by_numpy(P), abs=1e-9)
    assert c.exact(i)[0] < 0
    # the pair smaller than the real ends (0.5 and −0.6): the printed max is the largest modulus
    assert c.margin(dict(i, r1=0.5, r2=-0.6, rad=0.3)) > 0


# ------------------------------------------------------------------ Lemma 16: eqs. 5, 156, 157


def test_lemma16_eq5_two_state_closed_form():
    # π = ½, λ₂ = 0.9: E(t) = ½·0.9ᵗ, C_P = 2, T_P = 0, λ = 0.95; worst t = 0: ln(2/½) = ln 4
    fam = (L16_FAMILIES, "product")
    assert margin("lemma16-eq5", family=fam, **client(0.5, 0.9)) == pytest.approx(math.log(4))
    assert float(exact("lemma16-eq5", family=fam, **client(0.5, 0.9))) == pytest.approx(math.log(4))


def test_lemma16_eq5_nilpotent_boundary():
    # de Bruijn, 2 fair coins: E(0) = 3/4, E(1) = 1/4, E(t ≥ 2) = 0; λ̄₂ = 0, λ = ½, T_P = 0
    db = dict(family=(L16_FAMILIES, "debruijn"), k=2, p=0.5, lazyd=0.0)
    ch = build_chain(inst("lemma16-eq5", **db), L16_FAMILIES)
    c = ch.code.constants()
    assert (c.slem, c.T_P) == (0.0, 0)
    want = min(c.log_C_P - math.log(0.75), c.log_C_P + math.log(0.5) - math.log(0.25))
    assert margin("lemma16-eq5", **db) == pytest.approx(want)
    assert want > 0


def test_eq156_two_state_and_defective_counterexample():
    fam = (L16_FAMILIES, "product")
    # diagonalisable: C_P = √(M − 1)·Σ‖Π_μ‖_* = 2 for π = ½ (projectors ½[[1, ±1], [±1, 1]])
    assert margin("lemma16-eq156-cp", family=fam, **client(0.5, 0.9)) == pytest.approx(
        1e-6, abs=1e-12
    )
    # a Jordan block of size 3 at 0.5, the chain 10⁻¹² from the identity (lazy): the library
    # calls C_P minimal (a semisimple cluster) although P is defective (exact ranks, sympy)
    jordan = dict(family=(L16_FAMILIES, "jordan"), nb=1, n0=3, a0=0.5, th0=0.0,
                  lazyj=1.0 - 1e-12)  # fmt: skip
    i = inst("lemma16-eq156-cp", **jordan)
    ch = build_chain(i, L16_FAMILIES)
    import sympy

    P = sympy.Matrix(ch.P)
    mu = sympy.Rational(*ch.jordan.blocks[0][0][0].as_integer_ratio())
    assert (P - mu * sympy.eye(4)).rank() == 3  # one eigenvector for a triple eigenvalue
    assert ch.code.constants().C_P_minimal
    assert claim("lemma16-eq156-cp").margin(i) == -1.0
    assert claim("lemma16-eq156-cp").exact(i)[0] == -1


def _entry_margin_bruteforce(n, s, ratio, T, t_max=1000):
    """−max_{j<n, T ≤ t ≤ t_max} ln(C(t, j)·m^{t−j}/λᵗ), every t, at 40 digits (mpmath)."""
    import mpmath

    with mpmath.workdps(40):
        s = mpmath.mpf(Fraction(s).numerator) / Fraction(s).denominator
        m, lam = ratio * s, (1 + s) / 2
        worst = max(
            mpmath.log(mpmath.binomial(t, j)) + (t - j) * mpmath.log(m) - t * mpmath.log(lam)
            for j in range(1, n)
            for t in range(max(T, j), t_max)
        )
        return float(-worst)


def test_eq157_readings_on_the_085_block():
    # one block of size 2 at 0.85: T_P = 46 (reading A) misses t = 46, 47; T_P_safe = 48 covers
    a = margin("lemma16-eq157-tp-a", n=2, s=0.85, ratio=1.0)
    b = margin("lemma16-eq157-tp-b", n=2, s=0.85, ratio=1.0)
    assert a == pytest.approx(_entry_margin_bruteforce(2, 0.85, 1.0, 46), rel=1e-9)
    assert b == pytest.approx(_entry_margin_bruteforce(2, 0.85, 1.0, 48), rel=1e-9)
    assert a < 0 < b
    assert float(exact("lemma16-eq157-tp-a", n=2, s=0.85, ratio=1.0)) == pytest.approx(a)


def test_eq157_reading_a_nilpotent_and_frobenius():
    # J₂(0), λ = ½, T_P = 0: the entry C(1, 1)·0⁰ = 1 exceeds λ¹ = ½ at t = 1
    assert margin("lemma16-eq157-tp-a", n=2, s=0.0, ratio=0.0) == pytest.approx(-math.log(2))
    assert float(exact("lemma16-eq157-tp-a", n=2, s=0.0, ratio=0.0)) == pytest.approx(-math.log(2))
    # reading B at λ̄₂ = 0: T = ⌈2n(n−1)/(n+1)⌉ = 2 > 1, covered
    assert margin("lemma16-eq157-tp-b", n=2, s=0.0, ratio=0.0) > 0
    # J₃(0): ‖J²‖_F = 1 > 3·(½)² = ¾ at t = 2 (‖J‖_F = √2 < 3/2, J³ = 0): margin ln ¾
    assert margin("lemma16-eq157-tp-a-frobenius", n=3, s=0.0, ratio=0.0) == pytest.approx(
        math.log(0.75)
    )
    assert float(exact("lemma16-eq157-tp-a-frobenius", n=3, s=0.0, ratio=0.0)) == pytest.approx(
        math.log(0.75)
    )
    # a diagonalisable chain (n = 1) is never a problem
    assert margin("lemma16-eq157-tp-a-frobenius", n=1, s=0.5, ratio=1.0) == 50.0


def test_footnote3_nilpotent_counterexample_and_closed_form():
    # de Bruijn, 2 fair coins (λ̄₂ = 0), λ′ = 10⁻⁶: reading A keeps T_P = 0 and E(1) = ¼ >
    # C_P·λ′; the margin is ln(C_P λ′/E(1)) at t = 1
    db = dict(family=(FN3_FAMILIES, "debruijn"), k=2, p=0.5, lazyd=0.0, lf=6.0)
    ch = build_chain(inst("footnote3-lambda-choice-a", **db), FN3_FAMILIES)
    log_C = ch.code.constants().log_C_P
    want = log_C + math.log(1e-6) - math.log(0.25)
    assert margin("footnote3-lambda-choice-a", **db) == pytest.approx(want)
    assert float(exact("footnote3-lambda-choice-a", **db)) == pytest.approx(want)
    assert want < 0
    # reading B: T = 2 and E(t ≥ 2) = 0: nothing to violate
    assert margin("footnote3-lambda-choice-b", **db) > 0
    # π = ½, λ₂ = 0.9, λ′ = 0.9 + 10⁻¹²·0.1: the worst t is 0, ln(C_P/E(0)) = ln 4
    prod = dict(family=(FN3_FAMILIES, "product"), lf=12.0, **client(0.5, 0.9))
    assert margin("footnote3-lambda-choice-b", **prod) == pytest.approx(math.log(4))


# ------------------------------------------------------------------ App. F1: mixing times


def test_mixing_bounds_two_state_closed_forms():
    fam = (MIX_LOWER_FAMILIES, "product")
    # π = ½, λ₂ = ½: d(t) = ½·½ᵗ, t_mix(¼) = 1, t_rel = 2: lower ln 2, upper 2 ln 8
    assert margin("appf1-mixing-lower", family=fam, eps=0.25, **client(0.5, 0.5)) == (
        pytest.approx(1 - math.log(2))
    )
    # λ₂ = −0.9: d(t) = ½·0.9ᵗ, t_mix(¼) = 7, t_rel = 1/(1 − 0.9) = 10: lower 9 ln 2
    assert margin("appf1-mixing-lower", family=fam, eps=0.25, **client(0.5, -0.9)) == (
        pytest.approx((7 - 9 * math.log(2)) / 7)
    )
    rev = (MIX_REVERSIBLE_FAMILIES, "product")
    upper = 2 * math.log(8)
    assert margin("appf1-mixing-upper-reversible", family=rev, eps=0.25, **client(0.5, 0.5)) == (
        pytest.approx((upper - 1) / upper)
    )


def test_mixing_upper_general_debruijn_counterexample():
    # 3 fair coins: λ̄₂ = 0, ρ_min = 1/8, bound ln(8/ε); d(2) = ½ > ε, d(3) = 0: t_mix = 3
    db = dict(family=(MIX_UPPER_GENERAL_FAMILIES, "debruijn"), k=3, p=0.5, lazyd=0.0,
              eps=0.45)  # fmt: skip
    bound = math.log(8 / 0.45)
    # (the library's float λ̄₂ is 2.2e-6, not 0, on this nilpotent chain: rel 1e-4)
    assert margin("appf1-mixing-upper-general", **db) == pytest.approx((bound - 3) / bound, 1e-4)
    assert float(exact("appf1-mixing-upper-general", **db)) == pytest.approx((bound - 3) / bound)


def test_mixing_upper_general_inventory_chain_in_exact_rationals():
    w = [[8, 816, 44, 0, 3, 103, 25], [223, 5, 0, 2, 0, 129, 641], [1, 28, 1, 308, 663, 0, 0],
         [119, 0, 864, 0, 17, 0, 0], [679, 36, 5, 168, 5, 107, 0], [9, 43, 26, 836, 0, 61, 24],
         [266, 4, 0, 0, 24, 131, 574]]  # fmt: skip
    P = [[Fraction(x, sum(row)) for x in row] for row in w]
    rho = orc.exact_stationary(P)
    B = [[P[i][j] - rho[j] for j in range(7)] for i in range(7)]
    B5 = B
    for _ in range(4):
        B5 = orc.matmul(B5, B)
    d5 = max(sum(abs(x) for x in row) for row in B5) / 2
    assert d5 > Fraction(1, 4)  # t_mix(¼) ≥ 6
    slem = max(abs(z) for z in np.linalg.eigvals(orc.to_float(P)) if abs(z - 1) > 1e-9)
    assert math.log(4 / float(min(rho))) / (1 - slem) < 5.75  # the bound is below 6


# ------------------------------------------------------------------ eqs. 132, 158


def test_eq132_jt():
    # T_P = 2, t = 1, ln K = 0: J₁ = min(max(0, 2), 1) = 1 < T_P
    assert margin("eq132-jt-printed", T_P=2, t=1, logK=0.0, lam=0.5) == -1.0
    assert exact("eq132-jt-printed", T_P=2, t=1, logK=0.0, lam=0.5) == -1
    # t = T_P + s = 1000, ln K = ln 40, λ = 0.95: J = ⌈(ln 40 + ln 1000)/ln(1/0.95)⌉
    J = math.ceil((math.log(40) + math.log(1000)) / -math.log(0.95))
    assert J == 207
    assert margin("eq132-jt", T_P=0, s=1000, logK=math.log(40), lam=0.95) == J
    assert margin("eq132-jt", T_P=2, s=0, logK=0.0, lam=0.5) == 0.0


def test_eq158_printed_counterexample_and_corrected():
    # P = [[19/20, 1/20], [1/20, 19/20]], H = 10, t = 1: J₁ = 1, E(1) = 9/20, C_P = 2, λ = 19/20
    two = dict(pi=0.5, lam2=0.9, lH=1.0, s=1)
    printed = math.log(1 / 20) - math.log(2 * 0.95)  # the last link, C_Pλ^J ≤ 1/(2Ht), fails
    assert claim("lemma16-eq158-printed").margin(two) == pytest.approx(printed)
    assert float(claim("lemma16-eq158-printed").exact(two)[0]) == pytest.approx(printed)
    # corrected: J₁ = t is capped, so only E(J) ≤ C_P λ^J = 1.9 is claimed
    fam = (L158_FAMILIES, "product")
    i = dict(family=fam, lH=1.0, s=1, **client(0.5, 0.9))
    assert margin("lemma16-eq158-corrected", **i) == pytest.approx(math.log(1.9 / 0.45))
    # t = 1000: J = 207 < t, both parts checked
    i["s"] = 1000
    J = math.ceil(math.log(2 * 2 * 10 * 1000) / -math.log(0.95))
    want = min(math.log(2 * 0.95**J) - math.log(0.5 * 0.9**J),
               -math.log(2 * 10 * 1000) - math.log(2 * 0.95**J))  # fmt: skip
    assert margin("lemma16-eq158-corrected", **i) == pytest.approx(want)
    assert want > 0
    # the printed chain at t = 1000: its first link, E(J) = ½·0.9^207 ≤ C_Pλ^1000, fails (λᵗ
    # for λ^J_t) although the conclusion E(J) ≤ 1/(2Ht) holds
    far = {**two, "s": 1000}
    first = math.log(2 * 0.95**1000) - math.log(0.5 * 0.9**J)
    assert claim("lemma16-eq158-printed").margin(far) == pytest.approx(first)


# ------------------------------------------------------------------ App. F3, §V-A, §V-B


def test_eq236_two_state(monkeypatch):
    assert 0.0 <= margin("eq236-238", pi=0.5, lam2=0.9) <= 1.0
    assert 0.0 <= margin("eq236-238", pi=0.25, lam2=1 - 1 / 0.75) <= 1.0  # a zero entry
    with pytest.raises(NumericalError):  # subnormal transition probability: declined
        margin("eq236-238", pi=5e-324, lam2=0.375)
    # the margin can fail: a library matrix with its rows swapped
    import fltheory.markov.two_state as ts

    real = ts.two_state_matrix
    monkeypatch.setattr(ts, "two_state_matrix", lambda p, lam: real(p, lam)[::-1])
    assert margin("eq236-238", pi=0.3, lam2=0.5) < 0


def test_population_margins():
    from fltheory.markov.population import ca_fed_population

    pop = ca_fed_population(n=40, g=0.4, nu=0.9, eps=1e-2, seed=3)
    want = (float(np.min(pop.lambda2)) + 1 / 9) / 1e-2  # lower end 1 − 1/0.9 for π = ½ ± 0.4
    assert margin("sec5a-population", n=40, seed=3) == pytest.approx(want)
    assert want > 5
    # g = 0.49: the lower end for π = 0.99 is −1/99 ≈ −1.01ε, about 16 % of the draws fail
    bad = dict(n=400, seed=0, g=0.49, nu=0.9, eps=0.01)
    assert margin("sec5a-population-general", **bad) < 0
    assert exact("sec5a-population-general", **bad) < 0


def test_hitting_times():
    # 1/((1 − 0.9)·0.1) = 100 and 1/(1·0.5) = 2: the first-step analysis E₀τ = 1/(1 − P₀₀)
    from fltheory.markov import ProductChain

    assert 1 / (1 - two_state(0.1, 0.9)[0, 0]) == pytest.approx(100)
    assert ProductChain(A([0.1, 0.5]), A([0.9, 0.0])).hitting_time == pytest.approx(100)
    m = margin("hitting-time", N=2, pi=A([0.1, 0.5]), l2=A([0.9, 0.0]))
    assert 0 <= m <= 1e-12
    assert 0 <= margin("hitting-time-population", n=100, seed=0, split=0) <= 1e-12


def _dense_slem(P):
    ev = np.linalg.eigvals(P)
    return float(np.max(np.abs(np.delete(ev, np.argmin(np.abs(ev - 1))))))


def test_props_3_to_6_on_two_clients():
    i = dict(N=2, pi=A([0.3, 0.6]), l2=A([0.5, -0.6]), G=0)
    P = np.kron(two_state(0.3, 0.5), two_state(0.6, -0.6))
    rho = np.kron([0.7, 0.3], [0.4, 0.6])
    assert np.allclose(rho @ P, rho)  # Prop. 3, numpy
    assert _dense_slem(P) == pytest.approx(0.6)  # Prop. 6: max(|0.5|, |−0.6|)
    for cid in ("prop3", "prop4", "prop6"):
        assert 0 <= margin(cid, **i) <= 1e-9
    assert 0 <= margin("prop5", **i) <= 1e-7
    assert exact("prop3", **i) > 0
    # with a general 3-state factor (non-reversible: a cyclic part, complex eigenvalues)
    g = dict(G=1, g0=A([0.1, 0.8, 0.1]), g1=A([0.1, 0.1, 0.8]), g2=A([0.8, 0.1, 0.1]),
             glazy=0.0)  # fmt: skip
    assert 0 <= margin("prop6", **{**i, **g}) <= 1e-9


def test_cluster_and_guideline_b_lambda():
    # clusters λ_c = 0.9, 0.5: λ(P) = 0.95 while a client of cluster 0 is kept
    c = dict(C=2, pi=A([0.5, 0.5]), l2=A([0.9, 0.5]), N=1, assign=A([0.0]))
    kept = dict(ex_first=A([0.0, 1.0]), ex_rest=A([1.0]))  # client 0 out, client 2 (c = 0) in
    assert 0 <= margin("sec5e-cluster", **c, **kept) <= 1e-9
    gone = dict(ex_first=A([0.0, 1.0]), ex_rest=A([0.0]))  # all of cluster 0 out: λ = 0.75
    assert 0 <= margin("sec5e-cluster", **c, **gone) <= 1e-9
    # Guideline B: excluding the client at λ₂ = −0.95 lowers λ from 0.975 to 0.95
    g = dict(N=3, pi=A([0.5, 0.5, 0.5]), l2=A([0.9, 0.5, -0.95]), kp=A([1.0, 1.0, 0.0]))
    assert 0 <= margin("guideline-b-lambda", **g) <= 1e-9


def test_guideline_b_bound_counterexample():
    # the most correlated client carries almost all of πᵀq: excluding it raises ε̄_opt
    # (πᵀq falls from 0.9005 to 0.0005); both sides are the library's eq. 13
    i = dict(N=2, pi=A([0.9, 0.5]), l2=A([0.9, 0.1]), q=A([1.0, 0.001]), kx=1, L=1.0,
             kappa=10.0, Gamma=1.0, D=1.0, Gd=1.0, H=1.0, diam=1.0, sigma=1.0, E=1,
             eta_frac=1.0, a=1.0, T=1000)  # fmt: skip
    assert margin("guideline-b-bound", **i) < -1.0
    # the less correlated client carrying a fair share: the guideline helps
    assert margin("guideline-b-bound", **{**i, "q": A([1.0, 0.1]), "pi": A([0.9, 0.1])}) > 1.0


# ------------------------------------------------------------------ §IV-B estimators


def test_proxy_hand_value():
    # u = (0, 2) on the first axis, w = 0, p = (½, ½): proxy 1, F_B(0) − F_B* = 1 − ½ = ½
    proxy, gap = proxy_gap(dict(N=2, u1=A([0.0, 2.0]), u2=A([0.0, 0.0]), h1=A([1.0, 1.0]),
                                    h2=A([1.0, 1.0]), w1=0.0, w2=0.0, pi=A([1.0, 1.0]),
                                    q=A([1.0, 1.0]), c=A([0.0, 0.0])))  # fmt: skip
    assert (proxy, gap) == (1, Fraction(1, 2))
    i = dict(N=2, u1=A([0.0, 2.0]), u2=A([0.0, 0.0]), h1=A([1.0, 1.0]), h2=A([1.0, 1.0]),
             c=A([0.0, 0.0]), w1=0.0, w2=0.0, pi=A([1.0, 1.0]), q=A([1.0, 1.0]),
             alpha=A([0.5, 0.5]), kappa2=3.0)  # fmt: skip
    assert 0 <= margin("eq16-20-estimators-proxy", **i) <= 1e-12


def test_filter_and_counts():
    # β = 1: the latest reported loss
    losses = np.arange(40.0)
    act = np.zeros(40)  # every client active every round (act < ½)
    i = dict(N=2, T=3, beta=1.0, losses=losses, act=act, f0=np.full(5, 7.0))
    assert 0 <= margin("eq16-20-estimators-filter", **i) <= 1e-12
    bits = np.tile([0.1, 0.9], 60)  # client 0 always active, client 1 never (pbit = ½)
    t = dict(N=2, T=5, bits=bits, pbit=A([0.5, 0.5, 0.5, 0.5]), na=1.0, mb=1.0)
    assert 0 <= margin("eq16-20-estimators-pi-hat", **t) <= 1e-12
    assert 0 <= margin("eq16-20-estimators-lambda-hat", **t) <= 1e-12


def test_fig4a_one_evaluation():
    assert margin("fig4a-estimation-errors-lambda-exceeds-pi", seed=0, prior=1.0) > 0


# ------------------------------------------------------------------ Lemmas 17–18

QP = dict(N=1, u1=A([0.0]), u2=A([0.0]), h1=A([1.0]), h2=A([1.0]), c=A([0.0]), pi=A([0.5]),
          q=A([0.8]), alpha=A([1.0]), diam=2.0, off=0.0, offphi=0.0)  # fmt: skip


def test_lemma17_on_the_boundary_of_w():
    # W = unit ball around w_B* = 0, F = ½‖w‖²: H = ½ attained on the sphere, margin 0
    assert margin("lemma17-eq159", **QP, rad=1.0, phi=0.3) == pytest.approx(0.0, abs=1e-15)
    assert margin("lemma17-eq159", **QP, rad=0.0, phi=0.0) == pytest.approx(1.0)
    with pytest.raises(NumericalError):  # H underflows
        margin("lemma17-eq159", **{**QP, "diam": 1e-200}, rad=1.0, phi=0.0)


def test_step171_one_client_counterexample():
    # one client, π = ½, λ₂ = 0.9, t = 1 (T_P = 0), A₀ inactive: P(active) = 1/20, so the
    # margin is (0.05 − 0.5)·g/1 + 1 = 1 − 0.45 g with g = F(w) − F* = ½·rad² (M = 2, Q = 0.8)
    i = dict(QP, rad=1.0, phi=0.0, l2=A([0.9]), state=0, s=1)
    for diam, g in ((2.0, 0.5), (20.0, 50.0)):
        i["diam"] = diam
        assert margin("lemma18-eq163-step171", **i) == pytest.approx(1 - 0.45 * g)
    assert float(exact("lemma18-eq163-step171", **i)) == pytest.approx(1 - 0.45 * 50)


def test_lemma18_generic_instance_is_decided_and_holds():
    i = dict(QP, rad=1.0, phi=0.0, l2=A([0.5]), sigma=1.0, E=2, eta_frac=1.0, a=1.0, s=100)
    assert margin("lemma18-eq163", **i) > 0
