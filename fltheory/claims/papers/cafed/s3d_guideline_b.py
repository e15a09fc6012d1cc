"""CA-Fed (ToN) §III-D Guideline B (with App. F2): excluding the clients with high λ(P_k) —
λ(P′) = max over the kept clients of λ(P_k), and the bound this accelerates.
"""

from __future__ import annotations

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._chains import clients_params
from fltheory.claims.papers.cafed._clusters import dense_lam
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import InputError


def _gb_lambda(inst: Instance) -> float:
    from fltheory.optimize.guidelines import reduced_chain_lambda

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    keep = np.asarray(inst["kp"]) >= 0.5
    if not keep.any():
        raise InputError("every client excluded")
    lam_code = reduced_chain_lambda(pi, l2, keep)
    lam_dense = dense_lam(pi[keep], l2[keep])
    lam_full = dense_lam(pi, l2)
    level = (np.abs(l2) + 1.0) / 2.0  # λ(P_k), eq. 229
    m = 1e-9 - max(abs(lam_code - lam_dense), abs(lam_dense - float(level[keep].max())))
    m = min(m, 1e-9 + lam_full - lam_dense)  # λ(P′) ≤ λ(P)
    if keep[level == level.max()].any():  # a most correlated client is kept: no decrease
        m = min(m, 1e-9 - abs(lam_full - lam_dense))
    return m


register_claim(
    "cafed:guideline-b-lambda",
    "§III-D Guideline B; App. F2",
    "λ(P′) = max_{kept} λ(P_k)",
    (200, 206),
    "for independent clients, the chain P′ of the kept clients has λ(P′) = max_{kept} λ(P_k) "
    "≤ λ(P), and it is smaller only when every client attaining max_k λ(P_k) is excluded",
    space=Space([*clients_params(6), Real("kp", 0.0, 1.0, size="N", closed=(True, True))]),
    margin=_gb_lambda,
    tolerance=0.0,
    budget=400,
    expected="holds",
    reading=Reading(
        quote="P′ = ⊗_{k′: q_k′ > 0} P_k′ and λ(P′) = max_{k′: q_k′ > 0} λ(P_k′), which is "
        "potentially smaller w.r.t. the case when all clients participate (l.200)",
        hypotheses=(
            Hypothesis(
                "independent clients (§III-D)",
                "product chains of N ≤ 6 two-state clients, negative λ₂ included",
            ),
        ),
        interpretation="The spectral fact on which Guideline B rests, with λ(P_k) = (1 + "
        "|λ₂,k|)/2 (eq. 229): λ(P′) = max over the kept clients ≤ λ(P), smaller only when "
        "every maximiser is excluded.",
    ),
    notes="Code path optimize.guidelines.reduced_chain_lambda (ProductChain.exclude); oracle: "
    "numpy eigenvalues of the dense Kronecker matrix of the kept clients (N ≤ 6). A client "
    "is kept when its 'kp' entry is ≥ ½. Negative λ₂ included (λ(P_k) uses |λ₂|).",
)


def _gb_bound(inst: Instance) -> float:
    from fltheory.bounds.theorem2 import optimization_error_bound
    from fltheory.markov import ProductChain
    from fltheory.optimize.guidelines import exclude_by_correlation
    from fltheory.problems.constants import ProblemConstants
    from fltheory.problems.steps import StepSizes

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    n = pi.size
    if n < 2:
        raise InputError("Guideline B needs a client to keep")
    q = np.asarray(inst["q"], dtype=float)
    count = min(int(inst["kx"]), n - 1)
    out = np.zeros(n, dtype=bool)
    out[exclude_by_correlation(l2, count=count)] = True  # the most correlated clients
    q_new = np.where(out, 0.0, q)
    if not (pi @ q > 0.0 and pi @ q_new > 0.0):
        raise InputError("πᵀq must stay positive")
    L = float(inst["L"])
    E = int(inst["E"])
    consts = ProblemConstants(
        L=L,
        mu=L / float(inst["kappa"]),
        Gamma=float(inst["Gamma"]),
        D=float(inst["D"]),
        G=float(inst["Gd"]),
        H=float(inst["H"]),
        diameter=float(inst["diam"]),
        sigma=np.full(n, float(inst["sigma"])),
        alpha=np.full(n, 1.0 / n),
        pi=pi,
    )
    eta1 = float(inst["eta_frac"]) / (2.0 * L * (1.0 + 2.0 * E * float(q.sum())))
    steps = StepSizes.power_law(eta1, float(inst["a"]))
    T = int(inst["T"])
    full = optimization_error_bound(
        consts, ProductChain(pi, l2).constants(), q, E, steps, T, n_partial=1 << 12
    )
    reduced = optimization_error_bound(
        consts, ProductChain(pi[~out], l2[~out]).constants(), q_new, E, steps, T, n_partial=1 << 12
    )
    return float(np.clip(full.log_value - reduced.log_value, -50.0, 50.0))


register_claim(
    "cafed:guideline-b-bound",
    "§III-D Guideline B",
    "exclude clients with high λ(P_k) to accelerate convergence",
    (200, 206),
    "excluding the most correlated clients (Guideline B: q_k ← 0 for the highest λ(P_k), the "
    "chain reduced to the kept clients) does not increase the bound ε̄_opt of eq. 13",
    space=Space(
        [
            *clients_params(5),
            Real("q", 0.0, 1.0, size="N", closed=(True, True), special=(0.0, 1.0)),
            Integer("kx", 1, 4),
            Real("L", 0.1, 10.0, special=(1.0,)),
            Real("kappa", 1.0, 1e4, special=(1.0,)),
            Real("Gamma", 0.0, 10.0, closed=(True, True), special=(0.0,)),
            Real("D", 0.01, 10.0),
            Real("Gd", 0.01, 10.0),
            Real("H", 0.001, 10.0),
            Real("diam", 0.01, 10.0),
            Real("sigma", 0.0, 5.0, closed=(True, True)),
            Integer("E", 1, 5),
            Real("eta_frac", 0.0, 1.0, closed=(False, True), special=(1.0,)),
            Real("a", 0.5, 1.0, closed=(False, True), special=(1.0,)),
            Integer("T", 1, 10**4),
        ]
    ),
    margin=_gb_bound,
    tolerance=1e-9,
    budget=300,
    expected="refuted",
    notes="Formalisation of the guideline's justification: ε̄_opt (eq. 13, the library's "
    "bounds.theorem2 with certified series, 4096 direct terms) with the full product chain "
    "and q, against the chain of the kept clients and q with the excluded entries set to 0 "
    "(Algorithm 1's get(): q⁺_k ← 0, no renormalisation); problem constants held fixed "
    "(α uniform). Margin ln ε̄(P, q) − ln ε̄(P′, q′). Refuted: the guideline lowers λ(P) "
    "only when all maximisers go, while excluding a client always removes its share of "
    "πᵀq (the fraction (½qᵀΣq + v)/πᵀq grows) and halves M; e.g. a most-correlated client "
    "carrying most of πᵀq: π = (0.9, 0.5), λ₂ = (0.9, 0.1), q = (1, 0.001), L = κ/10 = Γ = D = "
    "G = H = diam = σ = E = 1, η₁ at its cap, η_t ∝ 1/t, T = 1000 gives a margin of −1.22 "
    "(πᵀq falls from 0.9005 to 0.0005; tested). The default search shrinks to a tie "
    "λ₂ = (½, ½) with π = (0.8, 1e-12), q = (1, 1e-10), where the excluded client is the "
    "one carrying πᵀq (margin −38). The paper's argument (λ(P′) ≤ λ(P) ⇒ faster) holds "
    "only for the φ/ln(1/λ) term, and only when φ > 0 (2C_P H t > 1).",
    reading=Reading(
        quote="if the algorithm excludes some clients, it is possible to consider the state "
        "space of the Markov chain that only specifies the availability state of the "
        "remaining clients … P′ = ⊗_{k′: q_k′ > 0} P_k′ and λ(P′) = max_{k′: q_k′ > 0} "
        "λ(P_k′), which is potentially smaller … Guideline B: to accelerate convergence, "
        "we can exclude clients with high correlation (high λ(P_k)) by setting their "
        "q_k* = 0 (l.200–202)",
        hypotheses=(
            Hypothesis(
                "independent two-state clients (§III-D)",
                "product chains of N ≤ 5 two-state clients",
            ),
            Hypothesis(
                "Theorem 2's setting for ε̄_opt",
                "problem constants held fixed, η₁ at feta × the eq. (12) cap",
            ),
        ),
        interpretation="Literal: excluding the most correlated clients never increases "
        "ε̄_opt of eq. (13). Not the authors' meaning: the guideline is permissive ('we "
        "can'), its stated justification is only the spectral fact λ(P′) = max over the "
        "kept clients ≤ λ(P) ('potentially smaller'), and the paper leaves the decision to "
        "a test: CA-Fed excludes a client only if the estimated objective ε̂ decreases by "
        "more than τ (l.217 'the exact number of clients to remove … is identified by "
        "minimizing ε^(t)', l.227). Excluding a client also removes its share of πᵀq, which "
        "the guideline does not claim to be harmless.",
        alternatives="The guideline's stated fact, λ(P′) = max_{kept} λ(P_k) ≤ λ(P), "
        "smaller only when every maximiser is excluded: cafed:guideline-b-lambda (holds).",
    ),
    finding=Finding(
        "literal",
        "Guideline B says exclusion 'can' help because λ(P′) ≤ λ(P) (cafed:guideline-b-lambda "
        "holds); it does not claim ε̄_opt always falls — CA-Fed tests each exclusion (l.227)",
        intended="cafed:guideline-b-lambda",
    ),
)
