"""CA-Fed (ToN) §IV-B, eqs. (16)–(20) (and App. F3 eq. (238)): the estimators — π̂_k, λ̂ from the
eigenvalues of the estimated P̂, the auto-regressive loss filter (17) and the proxy
⟨F̂ − F̂*, π̂ ⊙̃ q⟩ of F_B − F_B* (eqs. 18–20).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.papers.cafed._clients import proxy_gap, quad_inputs
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space


def _estimators_proxy(inst: Instance, exact: bool = False) -> Any:
    from fltheory.sim.algorithms.cafed import error_proxy

    u, h, w, p, _ = quad_inputs(inst)
    proxy, gap = proxy_gap(inst)
    pi = np.asarray(inst["pi"], dtype=float)
    q = np.asarray(inst["q"], dtype=float)
    alpha = np.asarray(inst["alpha"], dtype=float)
    kappa2 = float(inst["kappa2"])
    gaps = np.array(
        [
            float(sum(hk[i] * (w[i] - uk[i]) ** 2 for i in (0, 1)) / 2)
            for uk, hk in zip(u, h, strict=True)
        ]
    )
    gamma = float(gaps.max())
    code = float(
        error_proxy(q[None, :], alpha[None, :], gaps[None, :], np.array([gamma]), pi, kappa2)[0]
    )
    # eq. 20 written out: ⟨F̂ − F̂*, π ⊙̃ q⟩ + 4κ̄²·d_TV(α, π ⊙̃ q)²·Γ̂′
    tv = (
        sum((abs(Fraction(float(a)) - pk) for a, pk in zip(alpha, p, strict=True)), Fraction(0)) / 2
    )
    eq20 = proxy + 4 * Fraction(kappa2) * tv * tv * Fraction(gamma)
    rel = abs(Fraction(code) - eq20) / max(eq20, Fraction(1, 10**300))
    upper = (proxy - gap) / max(proxy, Fraction(1, 10**300))  # eq. 18 over-estimates F_B − F_B*
    value = min(Fraction(1, 10**12) - rel, upper)
    return value if exact else float(value)


def _estimator_space() -> Space:
    return Space(
        [
            Integer("N", 1, 5),
            *(Real(f"u{i}", -10.0, 10.0, size="N", special=(0.0,)) for i in (1, 2)),
            *(
                Real(f"h{i}", 0.0, 100.0, size="N", closed=(False, True), special=(1.0,))
                for i in (1, 2)
            ),
            Real("c", -5.0, 5.0, size="N", special=(0.0,)),
            Real("w1", -10.0, 10.0, special=(0.0,)),
            Real("w2", -10.0, 10.0, special=(0.0,)),
            Real("pi", 0.0, 1.0, size="N", closed=(False, True), special=(1.0,)),
            Real("q", 0.0, 1.0, size="N", closed=(True, True), special=(0.0, 1.0)),
            Simplex("alpha", "N"),
            Real("kappa2", 0.0, 1e3, closed=(True, True), special=(0.0, 1.0)),
        ]
    )


register_claim(
    "cafed:eq16-20-estimators-proxy",
    "§IV-B eqs. (18)–(20)",
    "ε̂ and the proxy ⟨F̂ − F̂*, π̂ ⊙̃ q⟩ of F_B − F_B*",
    (230, 247),
    "the library's ε̂ is eq. 20, ⟨F̂ − F̂*, π̂ ⊙̃ q⟩ + 4κ̄²·d_TV²(α, π̂ ⊙̃ q)·Γ̂′, and with "
    "exact "
    "inputs (F̂ = F(w), F̂* = F_k*, π̂ = π) eq. 18's ⟨F − F*, π ⊙̃ q⟩ is an upper proxy of "
    "F_B(w) − F_B*",
    space=_estimator_space(),
    margin=_estimators_proxy,
    exact=lambda i: (_estimators_proxy(i, True), "exact rationals (quadratic clients)"),
    tolerance=1e-12,
    budget=400,
    expected="holds",
    notes="Quadratic clients F_k(w) = ½Σᵢ h_ki(wᵢ − u_ki)² + c_k in 2-D, F_B* in closed form. "
    "Code path sim.algorithms.cafed.error_proxy. Margin min(1e-12 − relative difference to eq. "
    "20 in Fractions, (proxy − (F_B(w) − F_B*))/proxy); the second part is F_B* − Σp_kF_k* ≥ "
    "0, "
    "zero iff the weighted minimisers agree (N = 1 or equal u).",
)


def _filter_margin(inst: Instance, exact: bool = False) -> Any:
    from fltheory.sim.algorithms.cafed import filter_losses

    n, T = int(inst["N"]), int(inst["T"])
    beta = float(inst["beta"])
    losses = np.asarray(inst["losses"], dtype=float)[: T * n].reshape(T, n)
    mask = (np.asarray(inst["act"], dtype=float)[: T * n] < 0.5).reshape(T, n)
    fhat = np.asarray(inst["f0"], dtype=float)[:n][None, :].copy()
    seen = np.array([True])  # after the first observation (the library's start-up rule aside)
    ref = [Fraction(float(x)) for x in fhat[0]]
    b = Fraction(beta)
    for t in range(T):
        fhat, seen = filter_losses(fhat, seen, mask[t][None, :], losses[t][None, :], beta)
        # eq. 17: F̂ = (1 − β1_A) ⊙ F̂ + β1_A ⊙ F
        ref = [
            (1 - b * int(a)) * f + b * int(a) * Fraction(float(x))
            for f, a, x in zip(ref, mask[t], losses[t], strict=True)
        ]
    err = max(
        abs(Fraction(float(x)) - r) / max(abs(r), Fraction(1))
        for x, r in zip(fhat[0], ref, strict=True)
    )
    value = Fraction(1, 10**12) - err
    if beta == 1.0:  # β = 1: the latest loss of every client seen
        for k in range(n):
            active = np.flatnonzero(mask[:, k])
            if active.size and fhat[0, k] != losses[active[-1], k]:
                value = Fraction(-1)
    return value if exact else float(value)


register_claim(
    "cafed:eq16-20-estimators-filter",
    "§IV-B eq. (17)",
    "auto-regressive loss filter",
    (232, 236),
    "the library's loss filter is eq. 17, F̂ ← (1 − β1_A) ⊙ F̂ + β1_A ⊙ F, and β = 1 keeps "
    "each "
    "client's latest reported loss",
    space=Space(
        [
            Integer("N", 1, 5),
            Integer("T", 1, 8),
            Real("beta", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
            Real("losses", 0.0, 100.0, size=40, closed=(True, True)),
            Real("act", 0.0, 1.0, size=40, closed=(True, True)),
            Real("f0", 0.0, 100.0, size=5, closed=(True, True)),
        ]
    ),
    margin=_filter_margin,
    exact=lambda i: (_filter_margin(i, True), "exact rationals"),
    tolerance=1e-12,
    budget=200,
    expected="holds",
    notes="Code path sim.algorithms.cafed.filter_losses after the first observation (its "
    "start-up rule — clients unseen at the first active round take the mean of its losses — "
    "is the library's, not eq. 17's, which leaves F̂⁽⁰⁾ unspecified). Relative error against "
    "eq. 17 in Fractions ≤ 1e-12.",
)


def _trace(inst: Instance) -> np.ndarray:
    n, T = int(inst["N"]), int(inst["T"])
    return (
        np.asarray(inst["bits"], dtype=float)[: T * n].reshape(T, n)
        < np.asarray(inst["pbit"], dtype=float)[:n]
    )


def _pi_hat(inst: Instance, exact: bool = False) -> Any:
    from fltheory.markov.estimators import BetaPrior, Priors, running_estimates

    x = _trace(inst)
    a, b = float(inst["na"]), float(inst["mb"])
    est = running_estimates(x, Priors(pi=BetaPrior(a, b)))
    worst = Fraction(0)
    for t in range(x.shape[0]):
        for k in range(x.shape[1]):
            # π̂ = (Σ_{s≤t} 1{k ∈ A_s} + n_k)/(t + n_k + m_k)
            ref = (int(x[: t + 1, k].sum()) + Fraction(a)) / (t + 1 + Fraction(a) + Fraction(b))
            worst = max(worst, abs(Fraction(float(est.pi[t, k])) - ref) / ref)
    value = Fraction(1, 10**12) - worst
    return value if exact else float(value)


def _lambda_hat(inst: Instance, exact: bool = False) -> Any:
    from fltheory.markov.estimators import estimate_availability

    x = _trace(inst)
    est = estimate_availability(x)  # Beta(1, 1) priors on P(0→1), P(1→0)
    worst = 0.0
    for k in range(x.shape[1]):
        P = est.matrices()[k]
        eig = np.sort(np.linalg.eigvals(P).real)
        lam = float(est.lambda2[k])
        # λ̂ is the second eigenvalue of P̂ (eq. 238: p₀ + p₁ − 1); the other one is 1
        worst = max(worst, abs(eig[0] - min(lam, 1.0)), abs(eig[1] - max(lam, 1.0)))
        # P̂ from the counts: posterior means (n_ij + 1)/(n_i + 2)
        up = int((~x[:-1, k] & x[1:, k]).sum())
        zeros = int((~x[:-1, k]).sum())
        worst = max(worst, abs(float(P[0, 1]) - (up + 1) / (zeros + 2)))
    value = 1e-12 - worst
    return Fraction(value) if exact else value


def _trace_space() -> Space:
    return Space(
        [
            Integer("N", 1, 4),
            Integer("T", 1, 30),
            Real("bits", 0.0, 1.0, size=120, closed=(True, False)),
            Real("pbit", 0.0, 1.0, size=4, closed=(True, True), special=(0.0, 1.0, 0.5)),
            Real("na", 0.0, 10.0, closed=(False, True), special=(1.0,)),
            Real("mb", 0.0, 10.0, closed=(False, True), special=(1.0,)),
        ]
    )


register_claim(
    "cafed:eq16-20-estimators-pi-hat",
    "§IV-B",
    "π̂_k = (Σ_{s≤t} 1{k ∈ A_s} + n_k)/(t + n_k + m_k)",
    (249, 249),
    "the library's running π̂ is the Beta-prior posterior mean of §IV-B at every round",
    space=_trace_space(),
    margin=_pi_hat,
    exact=lambda i: (_pi_hat(i, True), "exact rationals (counts)"),
    tolerance=1e-12,
    budget=300,
    expected="holds",
    notes="Code path markov.estimators.running_estimates; traces of up to 30 rounds × 4 "
    "clients, always/never active clients included (pbit ∈ {0, 1}); priors n_k, m_k ∈ (0, 10].",
)

register_claim(
    "cafed:eq16-20-estimators-lambda-hat",
    "§IV-B; App. F3 eq. (238)",
    "λ̂ from the eigenvalues of the estimated P̂",
    (286, 290),
    "λ̂_k, 'obtained computing the eigenvalues of P̂_k', is P̂₀₀ + P̂₁₁ − 1 (eq. 238), the "
    "eigenvalue of P̂_k other than 1, with P̂_k the Beta-prior posterior mean of the counted "
    "transitions",
    space=_trace_space(),
    margin=_lambda_hat,
    exact=lambda i: (_lambda_hat(i, True), "float (eigenvalues of 2×2 matrices)"),
    tolerance=1e-12,
    budget=500,
    expected="holds",
    notes="Code path markov.estimators.estimate_availability (Beta(1, 1) transition priors); "
    "numpy's eigenvalues of P̂_k against {1, λ̂_k} and P̂₀₁ against (ups + 1)/(zeros + 2).",
)
