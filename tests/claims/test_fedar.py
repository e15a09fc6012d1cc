"""FedAR paper claims (fltheory/claims/papers/fedar/): hand traces, the
limit of FedAR against the simulator, the paper's rule under bounded staleness and an exact
constant-step computation, the noise formula of Remark 1's reading, and Table 3's arithmetic
(every claim's verdict: test_expected_verdicts.py)."""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch

from fltheory.claims import CLAIMS
from fltheory.claims.claim import select
from fltheory.claims.papers.fedar import _limits as FL
from fltheory.claims.papers.fedar import s4_rules as F
from fltheory.claims.papers.fedar import s5_1_theorem1 as FT
from fltheory.claims.papers.fedar import s6_2_experiments as FE
from fltheory.rng import generator
from fltheory.sim import algorithms as algs
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings

A = np.array
CLAIMS_HERE = select(paper="fedar")


def claim(cid):
    return CLAIMS.get(f"fedar:{cid}")


def margin(cid, **inst):
    return claim(cid).margin(inst)


def exact(cid, **inst):
    return claim(cid).exact(inst)[0]


def test_every_claim_has_a_verdict_expectation_or_a_reason():
    for c in CLAIMS_HERE:
        assert c.expected in ("holds", "refuted") if c.executable else c.reason, c.id


# --- eqs. (4)–(7) ---------------------------------------------------------------------------

HAND = dict(n=2, avail=A([0.5, 0.5]), u=A([0.0, 1.0]), gamma=1.0, p=1.0, use_cutoff=0,
            log_cutoff=0.0, rounds=3, seed=0)  # fmt: skip
HAND_TRACE = A([[True, False], [False, True], [False, False]])


def test_paper_rules_on_a_hand_trace():
    # t=0: client 0 active, G₀ = 0, τ = (0, 1), client 1 never seen: N = 1, w = 0
    # t=1: client 1 active, G₁ = 1·(1 − 0) = 1, τ = (1, 0), ψ = (2, 1), N = 2: w = ½
    # t=2: nobody, τ = (2, 1), ψ = (2, 2): w = ½ + (2·0 + 2·1)/2 = 3/2
    ref = F._paper_fedar(HAND, HAND_TRACE, exact=True)
    assert ref["tau"] == [[0, 1], [1, 0], [2, 1]]
    assert ref["N"] == [1, 2, 2]
    assert ref["w"] == [0, Fraction(1, 2), Fraction(3, 2)]
    assert ref["G"][-1] == [0, 1]
    code = F._code_fedar(HAND, HAND_TRACE)
    assert code["tau"] == ref["tau"]
    assert code["G"][-1] == [0.0, 1.0]
    assert code["w"] == [0.0, 0.5, 1.5]
    assert code["coef"][0] == [1.0, 0.0] and code["coef"][1] == [1.0, 0.5]


def test_trace_margins_hold_on_a_generic_and_a_cut_off_instance():
    inst = dict(n=4, avail=A([0.1, 0.5, 0.9, 0.0]), u=A([0.0, 1.0, -1.0, 0.5]), gamma=0.4, p=0.1,
                use_cutoff=1, log_cutoff=-1.0, rounds=25, seed=3)  # fmt: skip
    for cid in ("eq4", "eq7-nt"):
        assert abs(margin(cid, **inst)) < 1e-14
        assert exact(cid, **inst) > 0
    assert margin("eq5", **inst) == 0.0


def test_eq6_hand_values():
    from fltheory.sim.algorithms.fedar import fedar_psi

    assert fedar_psi(A([0, 3, 3]), 1.0, 10.0).tolist() == [1.0, 2.0, 2.0]
    assert fedar_psi(A([5]), 0.5, 4.0).tolist() == [0.0]  # beyond the cut-off
    assert margin("eq6", tau=3, p=0.5, g=10.0) == pytest.approx(0.0)  # ψ(3) = ψ(4) = 2
    assert margin("eq6", tau=0, p=0.1, g=0.0) == pytest.approx(0.0, abs=1e-15)
    assert exact("eq6", tau=1, p=0.1, g=3.0) == 0  # the ψ(0) = 1 check is exactly tight
    assert F.fedar_psi_paper(2, 0.1, 3.0) - F.fedar_psi_paper(1, 0.1, 3.0) == pytest.approx(
        3**0.1 - 2**0.1
    )


# --- the limit ------------------------------------------------------------------------------


def test_staleness_weights_by_hand_mp_and_monte_carlo():
    assert FL.staleness_weight(0.1, 1.0) == pytest.approx(1.9)  # 0.1·1 + 0.9·2
    assert FL.staleness_weight(0.1, 0.1) == pytest.approx(1.2109097393, rel=1e-9)
    assert float(FL.staleness_weight_mp(Fraction(1, 10), Fraction(1, 10))) == pytest.approx(
        FL.staleness_weight(0.1, 0.1), rel=1e-13
    )
    assert FL.staleness_weight(0.3, 0.0) == 1.0 and FL.staleness_weight(1.0, 0.7) == 1.0
    tau = generator(0, "tests/fedar-tau").geometric(0.2, size=200_000) - 1  # P(τ=k) = a(1−a)^k
    mc = np.minimum((tau + 1.0) ** 0.5, 2.0).mean()
    assert FL.staleness_weight(0.2, 0.5) == pytest.approx(mc, abs=5e-3)
    # bounded staleness: P(τ = k) ∝ (1 − a)^k, k ≤ v. a = ½, v = 2, p = 1: (1 + ½·2 + ¼·2)/(7/4)
    assert FL.staleness_weight(0.5, 1.0, 2) == pytest.approx(10 / 7, rel=1e-15)
    assert FL.staleness_weight_mp(Fraction(1, 2), Fraction(1), 2) == pytest.approx(10 / 7)
    assert FL.staleness_weight(0.0, 1.0, 1) == 1.5  # every other round: ψ = 1, 2
    assert FL.staleness_weight(1.0, 1.0, 5) == 1.0


def _bounded_trace(a, v, rounds, rng):
    """Availability with bounded staleness: w.p. a each round, surely after v absences."""
    n = len(a)
    out, tau = np.zeros((rounds, n), dtype=bool), np.zeros(n, dtype=int)
    for t in range(rounds):
        active = (rng.random(n) < a) | (tau >= v)
        tau = np.where(active, 0, tau + 1)
        out[t] = active
    return out


def test_bounded_staleness_law_by_simulation():
    rng = generator(3, "tests/fedar-bounded")
    trace = _bounded_trace(A([0.3]), 3, 40_000, rng)
    tau, counts = 0, np.zeros(4)
    for active in trace[:, 0]:
        tau = 0 if active else tau + 1
        counts[tau] += 1
    law = 0.7 ** np.arange(4) / np.sum(0.7 ** np.arange(4))
    np.testing.assert_allclose(counts / counts.sum(), law, atol=1e-2)


LIMIT = dict(n=2, avail=A([0.0, 1.0]), v=1, p=1.0, u=A([0.0, 1.0]), h=A([1.0, 1.0]))


def test_thm1_limit_hand_instance_explain_and_verify():
    # client 1 available every other round (a = 0, v = 1): ω = (1.5, 1), w_ω = 1/2.5 = 0.4,
    # w* = 0.5, f(w_ω) − f(w*) = ½(0.4 − 0.5)² = 0.005
    assert margin("thm1-limit", **LIMIT) == pytest.approx(-0.1, rel=1e-12)
    assert float(exact("thm1-limit", **LIMIT)) == pytest.approx(-0.1, rel=1e-12)
    assert margin("thm1-limit", **{**LIMIT, "p": 0.0}) == 0.0  # ψ ≡ 1: unbiased
    e = claim("thm1-limit").explain(LIMIT)
    result = claim("thm1-limit").verify(**e.verify_args)
    assert not e.holds and not result["holds"]
    assert float(result["lhs"]) == pytest.approx(0.005, rel=1e-30)
    assert claim("thm1-limit").finding.cls == "error"
    # the moderate witness of the default search: a = (1, 0), v = 9, p = 1, u = (0, −0.2),
    # h = (10, 6): ω₂ = (1 + 9·2)/10 = 1.9, w_ω = −2.28/21.4, w* = −1.2/16
    inst = dict(n=2, avail=A([1.0, 0.0]), v=9, p=1.0, u=A([0.0, -0.2]), h=A([10.0, 6.0]))
    w_omega, w_star = Fraction(-228, 2140), Fraction(-12, 160)
    gap = (Fraction(10) * w_omega**2 + 6 * (w_omega + Fraction(1, 5)) ** 2) / 4 - (
        Fraction(10) * w_star**2 + 6 * (w_star + Fraction(1, 5)) ** 2
    ) / 4
    result = claim("thm1-limit").verify(**claim("thm1-limit").explain(inst).verify_args)
    assert float(result["lhs"]) == pytest.approx(float(gap), rel=1e-25)


def test_table1_fedar_less_biased_literal_and_upweighting():
    assert margin("table1-fedar-less-biased", **LIMIT) == pytest.approx(-0.1)
    assert claim("table1-fedar-less-biased").finding.cls == "literal"
    # a = 0 vs 1 with v = 1, p = 1: ω = 1.5 vs 1, margin (1.5 − 1)/1.5
    inst = dict(a1=0.0, da=1.0, bounded=1, v=1, p=1.0)
    assert margin("table1-fedar-upweights-unavailable", **inst) == pytest.approx(1 / 3)
    assert exact("table1-fedar-upweights-unavailable", **inst) == pytest.approx(1 / 3)
    inst = dict(a1=0.1, da=1.0, bounded=0, v=1, p=1.0)  # no bound: ω = 1.9 vs 1
    assert margin("table1-fedar-upweights-unavailable", **inst) == pytest.approx(0.9 / 1.9)


def _fedar_sim(p_exponent, rounds=3000, alg=None):
    problem = QuadraticSim(A([[0.0], [1.0]]), np.ones(2) / 2, dtype=torch.float64)
    settings = SimSettings(rounds=rounds, local_steps=1, eval_every=rounds // 4)
    setup = Setup(problem, BernoulliLinks(A([0.1, 1.0])), settings, seed=0, reps=16)
    alg = alg if alg is not None else algs.FedAR(p=p_exponent)
    return setup.run(AlgorithmSpec(alg.name, alg, Schedule(0.5, "inverse", 10.0))).final_w


def test_simulator_fedar_and_mifa_converge_to_the_weighted_optima():
    # unbounded (Bernoulli) staleness: the same limit with ω from the geometric law
    for p_exp in (1.0, 0.1):
        w_omega = 1.0 / (FL.staleness_weight(0.1, p_exp) + 1.0)
        final = _fedar_sim(p_exp)
        assert abs(final.mean() - w_omega) < 0.006, (p_exp, final.mean(), w_omega)
        assert abs(final.mean() - 0.5) > 0.04
    mifa = _fedar_sim(None, alg=algs.MIFA())
    assert abs(mifa.mean() - 0.5) < 0.005  # MIFA: unbiased in this sense


def test_paper_rule_with_bounded_staleness_settles_at_w_omega():
    # eqs. (4)–(7) with the paper's p = 0.1, a = (0.3, 1), v = 3, u = (0, 1), a small constant
    # step (local gain γ = 0.002): the time-averaged iterate is at w_ω, not at w* = ½
    rng = generator(4, "tests/fedar-bounded-run")
    a, v, u, gamma = A([0.3, 1.0]), 3, A([0.0, 1.0]), 0.002
    omega = np.array([FL.staleness_weight(x, 0.1, v) for x in a])
    w_omega = float(omega @ u / omega.sum())
    trace = _bounded_trace(a, v, 30_000, rng)
    G, tau, w, acc = np.zeros(2), np.zeros(2), 0.0, []
    for t, active in enumerate(trace):
        G = np.where(active, gamma * (u - w), G)
        tau = np.where(active, 0, tau + 1)
        w += np.sum(np.minimum((tau + 1.0) ** 0.1, 2.0) * G) / 2
        if t >= 10_000:
            acc.append(w)
    # ω₁ = (1 + 0.7·2^0.1 + 0.49·3^0.1 + 0.343·4^0.1)/(1 + 0.7 + 0.49 + 0.343) = 1.06243
    assert omega[0] == pytest.approx(1.062433, abs=1e-6)
    assert w_omega == pytest.approx(1 / (1 + 1.062433), abs=1e-6)
    assert np.mean(acc) == pytest.approx(w_omega, abs=2e-3)


def _constant_step_stationary_mean(a, u, gamma):
    """Exact stationary E[w] of FedAR with exponent 1 (ψ = 1 if active, 2 otherwise), all
    clients seen, N_t = N, constant local gain γ, independent availability a_i: z = (w, G)
    obeys z' = F_A z + c_A with A independent of z, so E z = (I − E F_A)⁻¹ E c_A."""
    import itertools

    import sympy

    n = len(a)
    EF = sympy.zeros(n + 1, n + 1)
    Ec = sympy.zeros(n + 1, 1)
    for bits in itertools.product((0, 1), repeat=n):
        prob = sympy.Integer(1)
        for b, ai in zip(bits, a, strict=True):
            prob *= ai if b else 1 - ai
        Fm, c = sympy.zeros(n + 1, n + 1), sympy.zeros(n + 1, 1)
        for i in range(n):  # new table entries
            if bits[i]:
                Fm[1 + i, 0], c[1 + i] = -gamma, gamma * u[i]
            else:
                Fm[1 + i, 1 + i] = 1
        Fm[0, 0] = 1
        for i in range(n):  # w' = w + (1/N) Σ ψ_i G_i'
            psi = 1 if bits[i] else 2
            Fm[0, :] += sympy.Rational(psi, n) * Fm[1 + i, :]
            c[0] += sympy.Rational(psi, n) * c[1 + i]
        EF += prob * Fm
        Ec += prob * c
    z = (sympy.eye(n + 1) - EF).LUsolve(Ec)
    return Fraction(str(z[0]))


def test_constant_step_exact_mean_is_the_weighted_optimum():
    # With exponent 1, ψ_i depends only on whether i ∈ A_t, which is independent of the stored
    # G_i: stationarity gives E G_i = γ(u_i − E w) and E[ψ_iG_i'] = ω_iγ(u_i − E w), so the
    # constant-step stationary mean is argmin Σω_if_i EXACTLY, for every step size.
    a = [sympy_rational(1, 10), sympy_rational(1, 1)]
    for gamma in (sympy_rational(1, 10), sympy_rational(1, 100), sympy_rational(1, 3)):
        assert _constant_step_stationary_mean(a, [0, 1], gamma) == Fraction(10, 29)  # 1/2.9
    three = [sympy_rational(1, 4), sympy_rational(1, 2), sympy_rational(1, 1)]
    u = [0, 1, 3]
    omega = [2 - x for x in (Fraction(1, 4), Fraction(1, 2), Fraction(1))]  # a + 2(1 − a)
    w_omega = sum(o * v for o, v in zip(omega, u, strict=True)) / sum(omega)
    assert _constant_step_stationary_mean(three, u, sympy_rational(1, 5)) == w_omega
    assert w_omega != Fraction(4, 3)  # w* = mean(u)


def sympy_rational(p, q):
    import sympy

    return sympy.Rational(p, q)


def test_thm2_limit_hand_instance():
    # ω = (1.5, 1): w_ω = 0.4, ∇f = ((0.4 − 0) + (0.4 − 1))/2 = −0.1
    assert margin("thm2-limit", **LIMIT) == pytest.approx(-0.01, rel=1e-12)
    assert float(exact("thm2-limit", **LIMIT)) == pytest.approx(-0.01, rel=1e-12)
    assert margin("thm2-limit", **{**LIMIT, "avail": A([1.0, 1.0])}) == 0.0
    result = claim("thm2-limit").verify(**claim("thm2-limit").explain(LIMIT).verify_args)
    assert float(result["lhs"]) == pytest.approx(0.01, rel=1e-30) and not result["holds"]


def test_thm2_plateau_by_direct_iteration():
    # deterministic periodic availability, exact gradients, η = 1/√T: the iterate settles at 0.4
    u, T = A([0.0, 1.0]), 40_000
    eta = 1 / math.sqrt(T)
    G, tau, w, acc = np.zeros(2), np.zeros(2), 0.0, 0.0
    for t in range(T):
        active = A([t % 2 == 0, True])
        G = np.where(active, eta * (u - w), G)
        tau = np.where(active, 0, tau + 1)
        w += np.sum(np.minimum(tau + 1.0, 2.0) * G) / 2
        acc += ((w - u[0]) + (w - u[1])) ** 2 / 4
    assert w == pytest.approx(0.4, abs=2e-3)
    assert acc / T == pytest.approx(0.01, rel=0.25)


def test_mifa_biased_refuted_everywhere_and_literal():
    inst = dict(n=3, avail=A([0.1, 0.5, 1.0]), u=A([0.0, 1.0, -1.0]), h=A([1.0, 2.0, 0.5]))
    assert margin("table1-mifa-biased", **inst) == pytest.approx(-1e-12, abs=1e-15)
    assert exact("table1-mifa-biased", **inst) == -1
    assert claim("table1-mifa-biased").finding.cls == "literal"


def test_remark1_tau_bar_hand_values_and_the_noise_formula():
    # a = ½, v = 1, p = 1: J ∈ {0, 1} w.p. ½ each, R = 1 or 1 + 2 = 3: E R = 2, E R² = 5
    EL, ER, ER2 = FT._holding_moments(0.5, 1, 1.0, 1.0, lambda b, e: float(b) ** e)
    assert (EL, ER, ER2) == (1.5, 2.0, 5.0)
    assert margin("remark1-tau-bar", a1=0.5, da=1.0, v=1, p=1.0) == pytest.approx(1 - 1 / 2.5)
    # p = 0 without a bound (v large): E R²/E R = 1 + 2τ̄ = 1 + 2(1 − a)/a
    assert FT._noise_ratio(0.25, 400, 0.0) == pytest.approx(1 + 2 * 3, rel=1e-9)
    assert exact("remark1-tau-bar", a1=0.2, da=0.5, v=4, p=0.1) > 0


def test_remark1_noise_formula_against_the_paper_rule():
    # stationary E(w − w*)² ≈ ησ²E[R²]/(2N·h̄·E[R]) for a small step; two clients sharing a,
    # h = 1, σ = 1, p = 1, v = 4, η = 0.004 (Monte Carlo, seeded; band 8 %)
    rng = generator(5, "tests/fedar-noise")
    runs, T, v, eta, a = 48, 40_000, 4, 0.004, 0.3
    u = A([0.0, 1.0])
    w, G, tau, acc = np.full(runs, 0.5), np.zeros((runs, 2)), np.zeros((runs, 2), int), []
    for t in range(T):
        active = (rng.random((runs, 2)) < a) | (tau >= v)
        G = np.where(active, eta * (u - w[:, None] + rng.normal(size=(runs, 2))), G)
        tau = np.where(active, 0, tau + 1)
        w = w + (np.minimum(tau + 1.0, 2.0) * G).sum(1) / 2
        if t >= 5_000 and t % 5 == 0:
            acc.append(((w - 0.5) ** 2).mean())
    predicted = eta * FT._noise_ratio(a, v, 1.0) / (2 * 2)
    assert np.mean(acc) == pytest.approx(predicted, rel=0.08)


def test_table3_arithmetic():
    value = exact("table3-var-convention", clients=100)
    # best: Var = std² (MIFA 13.55² = 183.6025 > 182.55 is its worst row); (N − 1)/N leaves
    # FedVARP out by 0.99·20.75² − 432.45 = −6.19, the reverse MIFA by −2.9
    assert value == (Fraction("182.55") - Fraction("13.55") ** 2) / Fraction("182.5")
    for factor, row in ((Fraction(99, 100), "FedVARP"), (Fraction(100, 99), "MIFA")):
        _, std, var = FE.TABLE3[row]
        assert FE._overlap(std, var, factor) < value
    assert margin("table3-text", clients=100) == pytest.approx(0.4 / 40.9)
    # row by row: FedVARP's Var interval [432.45, 432.55] lies inside 100/99·[20.65², 20.75²]
    # = [430.73, 434.91]: overlap 0.1/432.5, the tightest row
    assert exact("table3-var-rowwise", clients=100) == Fraction(1, 4325)
    e = claim("table3-var-convention").explain({"clients": 100})
    result = claim("table3-var-convention").verify(**e.verify_args)
    assert e.lhs.value == 0 == result["lhs"] and not result["holds"]
    assert claim("table3-var-convention").finding.cls == "typo"
