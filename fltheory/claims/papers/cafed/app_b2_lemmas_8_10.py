"""CA-Fed (ToN, 002 App. B2) — Lemmas 8–10: Lemma 8 (eq. 98, and the step (104) of its proof),
Lemma 9 (eq. 106, the local drift) and Lemma 10 (eq. 111, the dissimilarity bound).

Lemmas 8 and 10 are checked on quadratic federations (:mod:`._quadratic`) with the algorithm's
own local iterates (E deterministic local steps, σ = 0 allowed by Assumption 5), in floats and
exactly (Fractions); no library code implements them. Lemma 9 takes batch expectations in closed
form on the noisy round of :mod:`._lemmas_round`. The refuted Lemma 8 explains its witness in the
paper's quantities (``explain``) and has a standalone ``verify`` (stdlib only) that the errata
scripts embed.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:lemma8-eq98")
>>> round(claim.margin(LEMMA8_COUNTEREXAMPLE), 4), claim.exact(LEMMA8_COUNTEREXAMPLE)[0] < 0
(-0.6, True)
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _lemmas_round as rd
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

#: Default evaluations of Lemmas 8 and 10 (a margin costs ~1-3 ms; the search's own sampling
#: about as much).
BUDGET = 500


# --- Lemma 8 -------------------------------------------------------------------------------------
def _round_params_at() -> list[Any]:
    """One round from a start w_{t,0} given in the paper's coordinates (w1…w3 ∈ [−10, 10], the
    box of the minimisers u_k): eq. 98's space, so that its witnesses read as plain numbers."""
    return [
        *cq.qf_params(),
        Integer("act", 1, 2**cq.N_MAX - 1),
        Integer("E", 1, 4),
        Real("feta", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        *(Real(f"w{i}", -10.0, 10.0, special=(0.0, 1.0)) for i in range(1, cq.D_MAX + 1)),
    ]


def _lemma8_terms(inst: Instance, exact: bool) -> dict[str, Any]:
    """The pieces of (98) and (104) for one round (sums over the active clients)."""
    f_float = cq.qf(inst)
    f = cq.qf(inst, exact=True) if exact else f_float
    conv = cq.to_exact if exact else (lambda x: [float(v) for v in x])
    w0 = conv(rd.start(inst, f_float))
    E = int(inst["E"])
    eta_float = float(inst["feta"]) / (
        2.0 * float(f_float.L) * (1.0 + 2.0 * E * float(sum(f_float.q)))
    )
    if not eta_float > 0.0:
        raise NumericalError("η_t underflows to 0 (Lemma 8 needs η_t > 0)")
    eta = Fraction(eta_float) if exact else eta_float
    return _lemma8_pieces(f, w0, rd.active(inst), E, eta)


def _lemma8_pieces(f: cq.QF, w0: list[Any], active: list[int], E: int, eta: Any) -> dict[str, Any]:
    L = f.L
    Q = sum(f.q[1:], f.q[0])
    gamma = 2 * eta * (1 - eta * L * (1 + 2 * E * Q))
    zero = f.q[0] * 0
    gaps, S, drift, bias = zero, zero, zero, zero
    iterates: dict[int, list[list[Any]]] = {}
    for k in active:
        base = f.gap(k, f.w_B)
        w = list(w0)
        iterates[k] = []
        for _ in range(E):  # j = 0 … E−1: the local iterates of eq. 2 (σ = 0)
            iterates[k].append(list(w))
            gaps = gaps + f.q[k] * (f.gap(k, w) - base)
            e = cq.sub(w, w0)
            drift = drift + f.q[k] * cq.dot(e, e)
            w = cq.sub(w, [eta * g for g in f.grad(k, w)])
        S = S + f.q[k] * (f.gap(k, w0) - base)
        bias = bias + f.q[k] * base
    return {
        "eta": eta,
        "gamma": gamma,
        "E": E,
        "L": L,
        "gaps": gaps,
        "S": S,
        "drift": drift,
        "bias": bias,
        "Q": Q,
        "iterates": iterates,
    }


def _lemma8_sides(t: dict[str, Any], form: str) -> tuple[Any, Any, Any]:
    """(rhs, lhs, total size of the terms) of (98) ("printed") or (104) ("step104")."""
    eta, gamma, E, L = t["eta"], t["gamma"], t["E"], t["L"]
    lhs = -gamma * t["gaps"]
    if form == "printed":
        terms = [-eta * E * t["S"] / 2, t["drift"], 2 * eta * eta * L * E * t["bias"]]
    else:
        terms = [
            -gamma * E * (1 - eta * L) * t["S"],
            gamma / (2 * eta) * t["drift"],
            gamma * eta * L * E * t["bias"],
        ]
    rhs = sum(terms[1:], terms[0])
    return rhs, lhs, abs(lhs) + sum((abs(x) for x in terms), 0 * lhs)


def _lemma8(form: str) -> tuple[Any, Any]:
    def margin(inst: Instance) -> float:
        rhs, lhs, size = _lemma8_sides(_lemma8_terms(inst, exact=False), form)
        return cq.relative_gap(rhs, lhs, floor=1e-7 * float(size))

    def exact(inst: Instance) -> tuple[Any, str]:
        rhs, lhs, _ = _lemma8_sides(_lemma8_terms(inst, exact=True), form)
        scale = max(abs(rhs), abs(lhs))
        return ((rhs - lhs) / scale if scale else Fraction(0)), "exact rationals"

    return margin, exact


def _qf_decimal(inst: Instance) -> cq.QF:
    """The federation of ``inst`` as a reader sees it: every parameter as its printed decimal
    (:func:`~fltheory.claims.explain.dec`), h_k = 10^lh as the decimal of the float."""
    n, d = int(inst["n"]), int(inst["d"])
    h = [[dec(10.0 ** float(inst[f"lh{i + 1}"][k])) for i in range(d)] for k in range(n)]
    H: list[list[list[Fraction]]] = []
    for k in range(n):
        count = d * (d - 1) // 2
        s = [dec(inst[f"s{i + 1}"][k]) for i in range(count)] or [Fraction(0)]
        R = cq.cayley(s, d)
        D = [[h[k][i] if i == j else Fraction(0) for j in range(d)] for i in range(d)]
        H.append(cq.matmul(cq.matmul(R, D), cq.transpose(R)))
    u = [[dec(inst[f"u{i + 1}"][k]) for i in range(d)] for k in range(n)]
    alpha = list(decs(inst["alpha"]))
    return cq.QF(n, d, h, H, u, alpha, list(decs(inst["pi"])), list(decs(inst["q"])))


def _loss_formula(f: cq.QF, k: int) -> str:
    if f.d == 1:
        h, u = f.H[k][0][0], f.u[k][0]
        lead = "½" if h == 1 else f"{show(h)}/2·"
        return f"F_{k + 1}(w) = {lead}(w {signed(-u)})²"
    return (
        f"F_{k + 1}(w) = ½(w − u_{k + 1})ᵀH_{k + 1}(w − u_{k + 1}), u_{k + 1} = "
        f"{show(f.u[k])}, H_{k + 1} = {show([tuple(r) for r in f.H[k]])}"
    )


def _vec(w: list[Any]) -> Any:
    return w[0] if len(w) == 1 else tuple(w)


def _lemma8_explain(inst: Instance) -> Explanation:
    """Lemma 8's round in the paper's terms: the clients' losses, q, π, w_B*, L, Q, E, η_t,
    γ_t, A_t, w_{t,0} and the local iterates; both sides of (98) in exact rationals."""
    f = _qf_decimal(inst)
    E, active = int(inst["E"]), rd.active(inst)
    w0 = [dec(x) for x in rd.start(inst, cq.qf(inst))]
    Q = sum(f.q[1:], f.q[0])
    eta = dec(inst["feta"]) / (2 * f.L * (1 + 2 * E * Q))
    t = _lemma8_pieces(f, w0, active, E, eta)
    rhs, lhs, _ = _lemma8_sides(t, "printed")
    losses = tuple(
        Quantity(f"F_{k + 1}", f"loss of client {k + 1}", k, _loss_formula(f, k))
        for k in range(f.n)
    )
    steps = [
        Step("w_B*", "argmin Σ_k p_kF_k, p_k = π_kq_k/Σ_hπ_hq_h", _vec(f.w_B)),
        Step("γ_t", "2η_t(1 − η_tL(1 + 2EQ))", t["gamma"]),
    ]
    for k in active:
        its = ", ".join(show(_vec(w)) for w in t["iterates"][k])
        steps.append(Step(f"w_(t,j)^{k + 1}, j = 0…{E - 1}", "w_(t,j+1) = w_(t,j) − η_t∇F_k", its))
    steps += [
        Step("S", "Σ_{k∈A_t} q_k(F_k(w_(t,0)) − F_k(w_B*)) (negative: (105) needs S ≥ 0)", t["S"]),
        Step("drift", "Σ_{k∈A_t} q_kΣ_{j<E}‖w_(t,j)^k − w_(t,0)‖²", t["drift"]),
        Step("bias", "Σ_{k∈A_t} q_k(F_k(w_B*) − F_k*)", t["bias"]),
    ]
    return Explanation(
        quantities=(
            *losses,
            Quantity("q", "aggregation weights", tuple(f.q)),
            Quantity("π", "availability of each client", tuple(f.pi)),
            Quantity("L", "smoothness constant (largest Hessian eigenvalue)", f.L),
            Quantity("Q", "Σ_k q_k", Q),
            Quantity("E", "local steps", E),
            Quantity("η_t", "step size, feta/(2L(1 + 2EQ)) ≤ 1/(2L(1 + 2EQ))", eta),
            Quantity("A_t", "active clients", tuple(k + 1 for k in active)),
            Quantity("w_(t,0)", "model at the start of round t", _vec(w0)),
        ),
        steps=tuple(steps),
        lhs=Step("LHS of (98)", "−γ_tΣ_{k∈A_t}q_kΣ_{j<E}(F_k(w_(t,j)^k) − F_k(w_B*))", lhs),
        relation="≤",
        rhs=Step("RHS of (98)", "−½η_tE·S + drift + 2η_t²LE·bias", rhs),
        holds=lhs <= rhs,
        verify_args={
            "H": [[list(r) for r in Hk] for Hk in f.H],
            "u": [list(x) for x in f.u],
            "pi": list(f.pi),
            "q": list(f.q),
            "active": list(active),
            "E": E,
            "L": f.L,
            "eta": eta,
            "w0": list(w0),
        },
        note="(98) fails because (105) bounds −γ_tE(1 − η_tL)·S by −½η_tE·S, which needs S ≥ 0; "
        "(104), the line before, holds (cafed:lemma8-eq104).",
    )


def _verify_lemma8_eq98(H, u, pi, q, active, E, L, eta, w0):  # type: ignore[no-untyped-def]
    """Both sides of Lemma 8, eq. (98), for F_k(w) = ½(w − u_k)ᵀH_k(w − u_k) (F_k* = 0), one
    round of E exact local gradient steps (σ = 0) from w0 by the active clients (0-based)."""
    d, n = len(w0), len(u)
    zero = eta * 0  # a Fraction (the arguments are Fractions)

    def mv(A, x):  # type: ignore[no-untyped-def]
        return [sum((a * b for a, b in zip(row, x, strict=False)), zero) for row in A]

    def F(k, w):  # type: ignore[no-untyped-def]
        e = [a - b for a, b in zip(w, u[k], strict=False)]
        return sum((a * b for a, b in zip(e, mv(H[k], e), strict=False)), zero) / 2

    Q = sum(q, zero)
    assert 0 < eta <= 1 / (2 * L * (1 + 2 * E * Q)), "Lemma 8 needs 0 < η_t ≤ 1/(2L(1 + 2EQ))"
    # w_B* minimises Σ p_kF_k, p_k ∝ π_kq_k: solve (Σ p_kH_k) w = Σ p_kH_ku_k exactly
    p = [pk * qk for pk, qk in zip(pi, q, strict=False)]
    A = [[sum((p[k] * H[k][i][j] for k in range(n)), zero) for j in range(d)] for i in range(d)]
    b = [sum((p[k] * mv(H[k], u[k])[i] for k in range(n)), zero) for i in range(d)]
    M = [[*row[:], bi] for row, bi in zip(A, b, strict=False)]
    for c in range(d):
        r = next(r for r in range(c, d) if M[r][c] != 0)
        M[c], M[r] = M[r], M[c]
        M[c] = [v / M[c][c] for v in M[c]]
        for r in range(d):
            if r != c:
                M[r] = [x - M[r][c] * y for x, y in zip(M[r], M[c], strict=False)]
    w_B = [M[i][d] for i in range(d)]
    gamma = 2 * eta * (1 - eta * L * (1 + 2 * E * Q))
    gaps = S = drift = bias = zero
    for k in active:
        w = list(w0)
        for _ in range(E):
            gaps += q[k] * (F(k, w) - F(k, w_B))
            drift += q[k] * sum(((a - c) ** 2 for a, c in zip(w, w0, strict=False)), zero)
            w = [
                a - eta * g
                for a, g in zip(
                    w, mv(H[k], [x - y for x, y in zip(w, u[k], strict=False)]), strict=False
                )
            ]
        S += q[k] * (F(k, w0) - F(k, w_B))
        bias += q[k] * F(k, w_B)
    lhs = -gamma * gaps
    rhs = -eta * E * S / 2 + drift + 2 * eta**2 * L * E * bias
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs}


#: Inventory's instance: F₁ = ½w², F₂ = ½(w − 1)², q = (1, 1), π = (½, ½) (w_B* = ½), L = 1,
#: E = 1, A_t = {1}, w_{t,0} = 0, η = 1/20 (half the cap 1/10): LHS = 3/320 > RHS = 3/800.
LEMMA8_COUNTEREXAMPLE: Instance = {
    "n": 2,
    "d": 1,
    "lh1": np.zeros(2),
    "lh2": np.zeros(2),
    "lh3": np.zeros(2),
    "s1": np.zeros(2),
    "s2": np.zeros(2),
    "s3": np.zeros(2),
    "u1": np.array([0.0, 1.0]),
    "u2": np.zeros(2),
    "u3": np.zeros(2),
    "alpha": np.array([0.5, 0.5]),
    "pi": np.array([0.5, 0.5]),
    "q": np.array([1.0, 1.0]),
    "act": 1,
    "E": 1,
    "feta": 0.5,
    "w1": 0.0,
    "w2": 0.0,
    "w3": 0.0,
}


def _lemma8_simplify(inst: Instance) -> list[Instance]:
    """cq.simplify, plus the start rounded to an integer (eq. 98's space)."""
    out = cq.simplify(inst)
    d = int(inst["d"])
    rounded = {f"w{i + 1}": float(round(float(inst[f"w{i + 1}"]))) for i in range(d)}
    if any(rounded[k] != float(inst[k]) for k in rounded):
        out.append({**inst, **rounded})
    return out


_L8_NOTES = (
    "Quadratic federations (N ≤ 4, d ≤ 3, κ up to 10⁸, q ≥ 0 with zeros), an active set A_t, "
    "E ≤ 4 exact local gradient steps (σ = 0), η_t = feta/(2L(1 + 2EQ)) ∈ (0, cap], "
    "Q = Σ_k q_k. Margin (rhs − lhs)/max(|rhs|, |lhs|, 1e-7·Σ|terms|); exact margin in "
    f"Fractions (the float η and w_(t,0) taken exactly). Budget {BUDGET}."
)
_L8_HYPOTHESES = (
    Hypothesis(
        "Assumption 3: F_k L-smooth; F_k convex",
        "F_k(w) = ½(w − u_k)ᵀH_k(w − u_k), "
        "H_k ≻ 0 with eigenvalues in [10⁻⁴, 10⁴], L = the largest of them",
    ),
    Hypothesis("0 < η_t ≤ 1/(2L(1 + 2EQ)), γ_t > 0", "η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1]"),
    Hypothesis(
        "w_(t,j)^k: the local iterates of eq. 2 from w_(t,0)",
        "E ≤ 4 exact gradient steps (σ_k = 0, allowed by Assumption 5); any active set A_t ≠ ∅",
    ),
)

_m8, _e8 = _lemma8("printed")
register_claim(
    "cafed:lemma8-eq98",
    "App. B2",
    "Lemma 8, eq. (98)",
    (779, 821),
    "−γ_tΣ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − F_k(w_B*)) ≤ −½η_tEΣ_{A_t}q_k(F_k(w_{t,0}) − "
    "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + "
    "2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
    space=Space(_round_params_at(), where=cq.positive_pq),
    margin=_m8,
    exact=_e8,
    simplify=_lemma8_simplify,
    notes=_L8_NOTES + " w_(t,0) = (w1, …) ∈ [−10, 10]^d. REFUTED: step (105) replaces "
    "−γE(1 − ηL)S by −½ηES, valid only when S = Σ_{A_t}q_k(F_k(w_{t,0}) − F_k(w_B*)) ≥ 0; "
    "S < 0 whenever the active clients fit w_{t,0} better than w_B*. Counterexample "
    "(LEMMA8_COUNTEREXAMPLE, exact): F₁ = ½w², F₂ = ½(w − 1)², q = (1, 1), π = (½, ½), "
    "E = 1, A_t = {1}, w_{t,0} = 0, η = 1/20: LHS = 3/320 > RHS = 1/320 + 1/1600 = 3/800 "
    "(margin −3/5). It enters Lemma 11 (122).",
    budget=BUDGET,
    expected="refuted",
    reading=Reading(
        quote="Lemma 8. Let Assumption 3 hold and let the local functions {F_k} be convex. "
        "Define γ_t := 2η_t(1 − η_tL(1 + 2EQ)). For a diminishing step-size 0 < η_t ≤ "
        "1/(2L(1 + 2EQ)), satisfying γ_t > 0, we have: −γ_tΣ_{k∈A_t}q_kΣ_{j=0}^{E−1}"
        "(F_k(w_{t,j}^k) − F_k(w_B*)) ≤ −½η_tEΣ_{k∈A_t}q_k(F_k(w_{t,0}) − F_k(w_B*)) + "
        "Σ_{k∈A_t}q_kΣ_{j=0}^{E−1}‖w_{t,j}^k − w_{t,0}‖² + 2η_t²LEΣ_{k∈A_t}q_k(F_k(w_B*) "
        "− F_k*) (98)",
        hypotheses=_L8_HYPOTHESES,
        interpretation="Pathwise, for one round with a given A_t and w_{t,0}, as printed: "
        "(98) has no expectation, and its proof (99)–(105) is pathwise (convexity, Young, "
        "smoothness at the given points); Lemma 11 applies it before taking expectations. "
        "The authors meant exactly this inequality; the failing step is (105), which "
        "replaces −γ_tE(1 − η_tL)·S by −½η_tE·S — valid only when S = Σ_{k∈A_t}q_k"
        "(F_k(w_{t,0}) − F_k(w_B*)) ≥ 0, which fails whenever the active clients fit "
        "w_{t,0} better than w_B* (the correlated-availability regime the paper studies).",
        alternatives="The line before, (104), holds: cafed:lemma8-eq104. In expectation "
        "over A_t the sign of S is still not guaranteed (A_t is correlated with w_{t,0}).",
    ),
    finding=Finding(
        "error",
        "step (105) bounds −γ_tE(1 − η_tL)S by −½η_tES, which needs S = Σ_{A_t}q_k(F_k"
        "(w_{t,0}) − F_k(w_B*)) ≥ 0; S < 0 when the active clients fit w_{t,0} better than "
        "w_B*",
        severity="step",
        survives="Not as printed: (104) holds and gives Lemma 11 with the coefficient "
        "γ_tE(1 − η_tL) ∈ [½η_tE, 2η_tE] in place of ½η_tE, but dividing by it to reach "
        "(116) again needs E[S_t] ≥ 0; the negative part of E[S_t] (correlated A_t and "
        "w_{t,0}) must be bounded separately (e.g. through Lemma 18's J_t argument), which "
        "the proof does not do.",
    ),
    explain=_lemma8_explain,
    verify=_verify_lemma8_eq98,
)
_m104, _e104 = _lemma8("step104")
register_claim(
    "cafed:lemma8-eq104",
    "App. B2",
    "Lemma 8's proof, eq. (104) (before step 105)",
    (800, 812),
    "−γ_tΣq_kΣ_{j<E}(F_k(w_j) − F_k(w_B*)) ≤ −γ_tE(1 − η_tL)Σq_k(F_k(w_0) − F_k(w_B*)) + "
    "(γ_t/2η_t)Σq_kΣ_j‖w_j − w_0‖² + γ_tη_tLEΣq_k(F_k(w_B*) − F_k*) (sums over A_t)",
    space=Space(rd.round_params(), where=cq.positive_pq),
    margin=_m104,
    exact=_e104,
    simplify=cq.simplify,
    notes=_L8_NOTES + " w_(t,0) = w_B* + 10^lw·S·direction (offsets from 1e-6 to 100 "
    "times the spread S of the u_k). TRUE: convexity (101), Young (102) and ‖∇F_k‖² ≤ "
    "2L(F_k − F_k*) (103) hold for any points; this is what the proof establishes before "
    "the faulty step.",
    budget=BUDGET,
    expected="holds",
    reading=Reading(
        quote="(104): −γ_tΣq_kΣ_j(F_k(w_{t,j}^k) − F_k(w_B*)) ≤ −γ_tE(1 − η_tL)Σq_k"
        "(F_k(w_{t,0}) − F_k(w_B*)) + (γ_t/2η_t)Σq_kΣ_j‖w_{t,j}^k − w_{t,0}‖² + "
        "γ_tη_tLEΣq_k(F_k(w_B*) − F_k*)",
        hypotheses=_L8_HYPOTHESES,
        interpretation="Pathwise, as (98). The space is narrower than the paper's in d ≤ 3 "
        "and N ≤ 4 (exact rational arithmetic) and in quadratic F_k (the inequality uses "
        "only convexity and L-smoothness at the given points, which quadratics with any "
        "spectrum exercise).",
    ),
)


# --- Lemma 9 -------------------------------------------------------------------------------------
def _lemma9(r: rd.Round) -> tuple[Any, Any, Any]:
    lhs, G2 = r.zero, r.zero
    for k in r.act:
        H, u = r.arr(r.f.H[k]), r.arr(r.f.u[k])
        for m, M in r.paths[k][:-1]:
            lhs = lhs + r.f.q[k] * r.mean_sq(m - r.w0, M)
            G2 = max(G2, r.mean_sq(H @ (m - u), H @ M) + r.f.d * r.s2[k])
    rhs = r.eta**2 * r.E**3 * G2 * r.sum_q() / 2
    return rhs, lhs, rd.abs_sum(lhs, rhs)


_m9, _e9 = rd.pair(_lemma9, noise=True)
register_claim(
    "cafed:lemma9-eq106",
    "App. B2",
    "Lemma 9, eq. (106)",
    (823, 840),
    "E[Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖²] ≤ ½η_t²E³G²Σ_{A_t}q_k",
    space=Space(rd.wide_eta(rd.noise_params()), where=cq.positive_pq),
    margin=_m9,
    exact=_e9,
    simplify=cq.simplify,
    notes=rd.NOISE_NOTES + " G² := max_{k∈A_t, j<E}E‖∇F_k(w_{t,j}^k, B)‖² (the smallest G the "
    "proof's hypothesis allows at the visited iterates; Lemma 1's G is larger, so holding "
    "here implies holding there). TRUE (Σ_{j<E}j² ≤ E³/2; loose by ≥ 3/2). "
    f"Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 9. Let Assumptions 2, 3 and 5 hold, the local functions be convex "
        "and G be "
        "defined as in Lemma 1, Equation (7). … E[Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖²] ≤ "
        "½η_t²E³G²(Σ_{A_t}q_k) (106)",
        hypotheses=rd.NOISE_HYPS,
        interpretation="With the least G the hypothesis allows at the visited iterates "
        "(stronger than "
        "Lemma 1's), η_t up to 10× eq. (12)'s cap.",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)


# --- Lemma 10 ------------------------------------------------------------------------------------
def _lemma10(inst: Instance, exact: bool) -> tuple[Any, Any]:
    f = cq.qf(inst, exact=exact)
    lhs = sum(
        (pk * qk * f.gap(k, f.w_B) for k, (pk, qk) in enumerate(zip(f.pi, f.q, strict=True))),
        f.q[0] * 0,
    )
    rhs = f.pi_q * max(f.gap(k, f.w_star) for k in range(f.n))
    return rhs, lhs


def _lemma10_exact(inst: Instance) -> tuple[Any, str]:
    rhs, lhs = _lemma10(inst, exact=True)
    scale = max(abs(rhs), abs(lhs))
    return ((rhs - lhs) / scale if scale else Fraction(0)), "exact rationals"


def _l10_floor(inst: Instance) -> float:
    f = cq.qf(inst)
    reach = max(cq.dot(uk, uk) for uk in f.u)
    return 1e-7 * float(f.L) * float(reach) * (1.0 + float(f.L / f.mu)) * float(f.pi_q)


register_claim(
    "cafed:lemma10-eq111",
    "App. B2",
    "Lemma 10, eq. (111)",
    (842, 860),
    "E[Σ_{k∈A_t}q_k(F_k(w_B*) − F_k*)] ≤ (Σ_kπ_kq_k)Γ (A_t ~ ρ: the LHS is "
    "Σ_kπ_kq_k(F_k(w_B*) − F_k*))",
    space=Space(cq.qf_params(), where=cq.positive_pq),
    margin=lambda i: cq.relative_gap(*_lemma10(i, exact=False), floor=_l10_floor(i)),
    exact=_lemma10_exact,
    notes="TRUE: Σp_k(F_k(w_B*) − F_k*) = F_B(w_B*) − Σp_kF_k* ≤ F_B(w*) − Σp_kF_k* ≤ Γ. "
    "Quadratic federations as for Theorem 1 (N ≤ 4, d ≤ 3, κ ≤ 10⁸, q with zeros); "
    f"stationary A_t (Assumption 1). Budget {BUDGET}.",
    budget=BUDGET,
    expected="holds",
    reading=Reading(
        quote="Lemma 10 (Bound on the dissimilarity of local functions). Let Assumption 1 "
        "hold … E[Σ_{k∈A_t}q_k(F_k(w_B*) − F_k*)] ≤ (Σ_kπ_kq_k)Γ (111)",
        hypotheses=(
            Hypothesis(
                "Assumption 1: A_t stationary, P(k ∈ A_t) = π_k",
                "the expectation as Σ_kπ_kq_k(F_k(w_B*) − F_k*)",
            ),
            Hypothesis(
                "Γ := max_k{F_k(w*) − F_k*} (eq. 9)",
                "quadratic F_k, N ≤ 4, d ≤ 3, κ ≤ 10⁸, q ≥ 0 with zeros",
            ),
        ),
        interpretation="The expectation is over the stationary A_t (w_B* is fixed), so it "
        "is exact. Narrower than the paper only in N, d and quadratic F_k (exact rationals).",
    ),
)
