"""§4 — FedAR's rules, eqs. (4)–(7) and Algorithm 1, of the FedAR paper (seed
``003_7bfc4ba284d104ce.txt``, ``l.N`` its lines; the OCR is poor and the appendix with the proofs
is missing): the simulator's FedAR step against the paper's rules on traces, and the statements on
ψ_max = 2 (l.295–301) and the cut-off g(t) (l.289 and Remark 2).

Readings of the garbled text (as in :mod:`fltheory.sim.algorithms.fedar`): eq. (4) l.245–260 G_i[t]
= the latest update of client i (G_i[0] = 0); eq. (5) l.272–279 τ(i,t) = 0 if i ∈ A(t), else
τ(i,t−1) + 1; eq. (6) l.281–301 ψ_{i,t} = 0 if τ(i,t) > g(t), else min((τ(i,t) + 1)^p, 2) with the
exponent p ∈ [0, 1] (p = 0.1 in §6); eq. (7) l.303–356 and Algorithm 1 w_{t+1} = w_t − (η/N_t)Σ_i
ψ_{i,t}G_i[t], N_t = the number of clients seen so far whose ψ > 0.

>>> from fltheory.claims.papers.fedar.s4_rules import fedar_psi_paper
>>> fedar_psi_paper(0, 0.1, 3.0), fedar_psi_paper(5, 1.0, 10.0), fedar_psi_paper(5, 1.0, 4.0)
(1.0, 2.0, 0.0)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, mp_to_fraction
from fltheory.claims.finding import Reading
from fltheory.claims.space import Instance, Integer, Real, Space


def _cutoff(inst: Instance, t: int) -> float:
    """g(t) for the 1-based round t: scale·max(√t, 1), or ∞ without a cut-off."""
    if not inst["use_cutoff"]:
        return math.inf
    return 10.0 ** inst["log_cutoff"] * math.sqrt(max(t, 1.0))


def _paper_fedar(inst: Instance, trace: np.ndarray, exact: bool = False) -> dict[str, list[Any]]:
    """Eqs. (4)–(7) and Algorithm 1 client by client, in floats or exact rationals (d = 1,
    local update Δ = γ(u_i − w) from the current global model; G is stored as that update, the
    paper's (w_t − w_K)/η up to the factor −η, so eq. (7) reads w ← w + (1/N_t)Σ_i ψ_iG_i)."""
    n = trace.shape[1]
    conv = fr if exact else float
    u = [conv(v) for v in np.asarray(inst["u"])]
    gamma, p = conv(inst["gamma"]), inst["p"]
    w = conv(0)
    G = [conv(0)] * n
    tau = [0] * n
    seen: set[int] = set()
    out: dict[str, list[Any]] = {"G": [], "tau": [], "psi": [], "N": [], "w": []}
    for t, active in enumerate(trace):
        seen |= {i for i in range(n) if active[i]}  # Algorithm 1 line 3
        for i in range(n):
            if active[i]:
                G[i] = gamma * (u[i] - w)  # eq. (4)
                tau[i] = 0  # eq. (5)
            else:
                tau[i] += 1
        g = _cutoff(inst, t + 1)
        psi = [0.0 if tau[i] > g else min((tau[i] + 1.0) ** p, 2.0) for i in range(n)]  # (6)
        N = len(seen) - sum(1 for i in seen if psi[i] == 0)  # Algorithm 1 lines 11–12
        if N > 0:
            w = w + sum((conv(psi[i]) * G[i] for i in range(n)), conv(0)) / N  # eq. (7)
        out["G"].append(list(G))
        out["tau"].append(list(tau))
        out["psi"].append(psi)
        out["N"].append(N)
        out["w"].append(w)
    return out


def _code_fedar(inst: Instance, trace: np.ndarray) -> dict[str, list[Any]]:
    """The simulator's vectorised FedAR step (fltheory.sim.algorithms.fedar.FedAR.step),
    driven round by round with the same trace and local update, server step η̄ = 1."""
    import torch

    from fltheory.sim.algorithms.base import RoundInput
    from fltheory.sim.algorithms.fedar import FedAR

    n = trace.shape[1]
    u = torch.as_tensor(np.asarray(inst["u"], dtype=float))
    gamma = float(inst["gamma"])
    alg = FedAR(
        p=float(inst["p"]),
        cutoff_scale=10.0 ** inst["log_cutoff"] if inst["use_cutoff"] else None,
        cutoff_t0=1.0,
    )
    w = torch.zeros((1, 1), dtype=torch.float64)
    memory = alg.init_memory(1, n, w)

    def local(rr: np.ndarray, kk: np.ndarray, theta0: Any) -> Any:
        target = u[torch.as_tensor(kk)][:, None]
        return theta0 + gamma * (target - theta0)

    out: dict[str, list[Any]] = {"G": [], "tau": [], "coef": [], "w": []}
    alpha = np.full(n, 1.0 / n)
    for t, active in enumerate(trace):
        inp = RoundInput(t=t, mask=active[None, :].copy(), alpha=alpha, pi=np.ones((1, n)))
        delta, moved, coef, memory = alg.step(inp, w, memory, local)
        if moved[0]:
            w = w + delta
        out["G"].append(memory["table"][0, :, 0].tolist())
        out["tau"].append(memory["tau"][0].tolist())
        out["coef"].append(coef[0].tolist())
        out["w"].append(float(w[0, 0]))
    return out


def _trace(inst: Instance) -> np.ndarray:
    from fltheory.rng import generator

    p = np.asarray(inst["avail"])
    return generator(int(inst["seed"]), "claims/fedar-trace").random((inst["rounds"], p.size)) < p


TRACE_SPACE = Space(
    [
        Integer("n", 1, 6),
        Real("avail", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0, 0.1)),
        Real("u", -1.0, 1.0, size="n", special=(0.0, 1.0)),
        Real("gamma", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 1.0)),
        Integer("use_cutoff", 0, 1),
        Real("log_cutoff", -1.0, 1.0, closed=(True, True), special=(0.0,)),
        Integer("rounds", 1, 30),
        Integer("seed", 0, 10**6),
    ]
)


def _eq4_gap(inst: Instance, exact: bool) -> Any:
    trace = _trace(inst)
    ref, code = _paper_fedar(inst, trace, exact), _code_fedar(inst, trace)
    conv = fr if exact else float
    return max(
        abs(a - conv(b))
        for ga, gb in zip(ref["G"], code["G"], strict=True)
        for a, b in zip(ga, gb, strict=True)
    )


def _eq4_margin(inst: Instance) -> float:
    return -float(_eq4_gap(inst, False))


def _eq4_exact(inst: Instance) -> ExactMargin:
    return Fraction(1, 10**12) - _eq4_gap(inst, True), "exact rationals (paper) vs the code"


register_claim(
    "fedar:eq4",
    "§4",
    "eq. (4): local update approximation",
    (245, 264),
    "The server's update table keeps, for every client, its latest received update: "
    "G_i[t] = update of round t if i ∈ A(t), else G_i[t − 1]; G[0] = 0.",
    space=TRACE_SPACE,
    margin=_eq4_margin,
    exact=_eq4_exact,
    tolerance=1e-12,
    budget=400,
    expected="holds",
    notes="Code path: the simulator's vectorised FedAR step (memory table), driven on a seeded "
    "availability trace with the local update γ(u_i − w) (d = 1); oracle: eqs. (4)–(7) client by "
    "client in rationals. Margin −max |G_code − G_paper| over rounds and clients. The table "
    "stores w_K − w (the paper's G is (w − w_K)/η: same information, sign and scale "
    "conventions differ, eq. 7 compensates). Budget 400 (≈ 25 ms per trace, mostly the "
    "simulator's per-round torch calls).",
)


def _eq5_margin(inst: Instance) -> float:
    trace = _trace(inst)
    ref, code = _paper_fedar(inst, trace), _code_fedar(inst, trace)
    bad = sum(
        a != b
        for ta, tb in zip(ref["tau"], code["tau"], strict=True)
        for a, b in zip(ta, tb, strict=True)
    )
    return -float(bad)


register_claim(
    "fedar:eq5",
    "§4",
    "eq. (5): inactive-round counter",
    (272, 279),
    "τ(i, t) = 0 if i ∈ A(t), else τ(i, t − 1) + 1, with τ(·, 0) = 0: τ counts the consecutive "
    "rounds since client i was last available.",
    space=TRACE_SPACE,
    margin=_eq5_margin,
    tolerance=0.5,
    budget=400,
    expected="holds",
    notes="Margin −(number of (round, client) pairs where the simulator's counter differs from "
    "eq. 5). Algorithm 1 line 9 prints τ(i,t) = τ(i,t) + 1 (read τ(i,t − 1) + 1).",
)


def fedar_psi_paper(tau: int, p: float, g: float) -> float:
    """Eq. (6): 0 beyond the cut-off g, else min((τ + 1)^p, 2)."""
    return 0.0 if tau > g else min((tau + 1.0) ** p, 2.0)


def _eq6_margin(inst: Instance) -> float:
    from fltheory.sim.algorithms.fedar import fedar_psi

    tau, p, g = int(inst["tau"]), inst["p"], inst["g"]
    psi = fedar_psi(np.array([tau, tau + 1, 0]), p, g)
    checks = [
        2.0 - psi[0],  # ψ ≤ 2
        -abs(psi[0] - fedar_psi_paper(tau, p, g)),  # the formula
        -abs(psi[2] - 1.0),  # an available client gets ψ = 1 ("aligns with FedAvg")
    ]
    if tau + 1 <= g:  # non-decreasing in τ up to the cut-off
        checks.append(psi[1] - psi[0])
    if tau > g:
        checks.append(-psi[0])  # excluded beyond g(t)
    return min(checks)


def _eq6_exact(inst: Instance) -> ExactMargin:
    import mpmath

    tau, g = int(inst["tau"]), inst["g"]
    with mpmath.workdps(40):
        p = mpmath.mpf(inst["p"])

        def psi(t: int) -> Any:
            return mpmath.mpf(0) if t > g else min((t + 1) ** p, mpmath.mpf(2))

        checks = [2 - psi(tau), -abs(psi(0) - 1)]
        if tau + 1 <= g:
            checks.append(psi(tau + 1) - psi(tau))
        return mp_to_fraction(min(checks)), "mpmath, 40 digits (eq. 6)"


register_claim(
    "fedar:eq6",
    "§4",
    "eq. (6): weight function ψ",
    (281, 301),
    "ψ = 1 for an available client (τ = 0), ψ ≤ 2, ψ is non-decreasing in τ up to the cut-off "
    "and 0 beyond g(t); the simulator's ψ is eq. (6).",
    space=Space(
        [
            Integer("tau", 0, 10**6),
            Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
            Real("g", 0.0, 1e6, closed=(True, True), special=(0.0, 1.0, 3.0)),
        ]
    ),
    margin=_eq6_margin,
    exact=_eq6_exact,
    tolerance=1e-15,
    expected="holds",
    notes="Code path fltheory.sim.algorithms.fedar.fedar_psi at τ, τ + 1 and 0; margin the "
    "smallest of 2 − ψ(τ), ψ(τ + 1) − ψ(τ) (when τ + 1 ≤ g), −ψ(τ) (when τ > g), −|ψ(0) − 1| and "
    "−|ψ_code − ψ_eq6|. p ∈ [0, 1] (l.299); p = 0 gives ψ ≡ 1 (MIFA-like weights).",
)


def _eq7_gap(inst: Instance, exact: bool) -> Any:
    trace = _trace(inst)
    ref, code = _paper_fedar(inst, trace, exact), _code_fedar(inst, trace)
    conv = fr if exact else float
    err = conv(0)
    for t in range(len(trace)):
        N = ref["N"][t]
        coef_ref = [
            conv(ref["psi"][t][i]) / N if (N and _seen(trace, t, i)) else conv(0)
            for i in range(trace.shape[1])
        ]
        err = max(err, *(abs(a - conv(b)) for a, b in zip(coef_ref, code["coef"][t], strict=True)))
        err = max(err, abs(ref["w"][t] - conv(code["w"][t])))
    return err


def _eq7_margin(inst: Instance) -> float:
    return -float(_eq7_gap(inst, False))


def _eq7_exact(inst: Instance) -> ExactMargin:
    return Fraction(1, 10**12) - _eq7_gap(inst, True), "exact rationals (paper) vs the code"


def _seen(trace: np.ndarray, t: int, i: int) -> bool:
    return bool(trace[: t + 1, i].any())


register_claim(
    "fedar:eq7-nt",
    "§4",
    "eq. (7) and Algorithm 1: N_t and the global update",
    (303, 356),
    "w_{t+1} = w_t − (η/N_t)Σ_iψ_{i,t}G_i[t], where N_t counts the contributing clients: those "
    "seen at least once (set ℰ) with ψ_{i,t} > 0; clients never seen have G_i = 0.",
    space=TRACE_SPACE,
    margin=_eq7_margin,
    exact=_eq7_exact,
    tolerance=1e-12,
    budget=400,
    expected="holds",
    notes="Code path: the simulator's FedAR coefficients ψ_i/N_t and the resulting global model "
    "on a seeded trace; oracle: Algorithm 1 (ℰ ← ℰ ∪ {new active}, N_t = |ℰ| minus those with "
    "ψ = 0) and eq. (7) in rationals. N_t = 0 (nobody seen, or every seen client cut off): no "
    "step (the paper divides by 0; the simulator makes no step).",
)


register_claim(
    "fedar:psi-max-2",
    "§4",
    "ψ_max = 2 guarantees convergence",
    (295, 301),
    "Capping ψ at ψ_max = 2 guarantees the convergence of FedAR.",
    reading=Reading(
        quote="However, an extremely high weight ψ_{i,t} will cause the unavailable clients to "
        "dominate the global model update, which would induce bias against available clients. "
        "We therefore introduce the hyperparameter p ∈ [0, 1] in Eq. (6) to restrict the "
        "growth of ψ_{i,t}. We also set the maximum value of ψ_{i,t} (ψ_max) to 2 to guarantee "
        "the convergence of FedAR. Please refer to the Appendix for more details on the "
        "convergence analysis.",
        interpretation="A statement about the proof in the appendix (missing from the paper "
        "as available), where ψ_max enters the constants (Theorem 1's second term has "
        "Nψ_max).",
    ),
    reason="what the cap does in the (missing) proof cannot be evaluated. On the paper's update "
    "rule it has no testable effect on convergence: under the theorems' bounded staleness "
    "ψ ≤ (v + 1)^p is bounded anyway, and with diminishing steps FedAR converges for any "
    "bounded weights — to w_ω = argmin Σω_if_i, which is where the cap matters (it bounds ω_i "
    "≤ 2, hence the bias of fedar:thm1-limit); with a constant step, stability would depend on "
    "the step-size condition of the proof, lost in the OCR.",
)

register_claim(
    "fedar:cutoff-needed",
    "§4 and Remark 2",
    "the cut-off g(t) is needed for convergence",
    (289, 466),
    "A critical value g(t) excluding the clients inactive for more than g(t) rounds must exist "
    "to ensure the model's convergence.",
    reading=Reading(
        quote="We introduce g(t) to prevent local updates with many inactive rounds from "
        "negatively impacting the global model and to remove such updates from the current "
        "global update (§4). … Thus, there must exist a critical value g(t) as we express in "
        "Eq. (6) to exclude those clients from the global update to ensure the model "
        "convergence, i.e., the clients whose inactive round number exceeds g(t) will not be "
        "considered (Remark 2).",
        interpretation="A necessity statement drawn from the analysis (the theorems assume "
        "τ_max ≤ g(t)) and from Fig. 1's CIFAR-10 observation that very stale updates hurt.",
    ),
    reason="a necessity claim ('must exist … to ensure convergence') says that some instance "
    "fails without the cut-off; a finite search cannot show that none does, and on quadratics "
    "the cut-off is not what makes FedAR converge: under the theorems' bounded staleness "
    "(τ ≤ v) the growing g(t) eventually excludes no client, and without any bound FedAR "
    "without a cut-off still converges with diminishing steps, to w_ω with the finite ω_i = "
    "E[min((τ_i + 1)^p, 2)] (staleness_weight with v = None). The empirical side is "
    "fedar:sec3.2-motivation.",
)
