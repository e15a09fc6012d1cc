"""CA-Fed (ToN, 002 App. B): lemmas inside the proof of Theorem 2 that are pathwise or exact
statements — Lemma 8 (eq. 98, and its step 104), Lemma 10 (eq. 111) and the step (141) → (142)
of Lemma 14 (J_t ≤ ln(2C_PHt)/ln(1/λ)).

Lemmas 8 and 10 are checked on quadratic federations (:mod:`._cafed_quadratic`) with the
algorithm's own local iterates (E deterministic local steps, σ = 0 allowed by Assumption 5),
in floats and exactly (Fractions); no library code implements them. The Lemma 14 step is
arithmetic on J_t (eq. 132), with the library's :func:`fltheory.bounds.series.delays` as the
code path and a 30-digit mpmath re-evaluation.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:lemma8-eq98")
>>> round(claim.margin(LEMMA8_COUNTEREXAMPLE), 4), claim.exact(LEMMA8_COUNTEREXAMPLE)[0] < 0
(-0.6, True)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, Source, register
from fltheory.claims.papers import _cafed_quadratic as cq
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

PAPER = "cafed"
#: Default evaluations (a margin costs ~1-3 ms; the search's own sampling about as much).
BUDGET = 500


def _src(section: str, label: str, lines: tuple[int, int]) -> Source:
    return Source(PAPER, section, label, lines)


# --- Lemma 8 -------------------------------------------------------------------------------------
def _round_params() -> list[Any]:
    return [
        *cq.qf_params(),
        Integer("act", 1, 2**cq.N_MAX - 1),  # bitmask of A_t (reduced modulo 2^n)
        Integer("E", 1, 4),
        Real("feta", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        *(Real(f"wd{i}", -1.0, 1.0, special=(0.0, 1.0)) for i in range(1, cq.D_MAX + 1)),
        Real("lw", -6.0, 2.0, special=(0.0,)),
    ]


def _active(inst: Instance) -> list[int]:
    n = int(inst["n"])
    mask = int(inst["act"]) % 2**n
    return [k for k in range(n) if (mask >> k) & 1]


def _start(inst: Instance, f_float: cq.QF) -> list[float]:
    """w_{t,0} = w_B* + 10^lw·S·direction (S: largest distance between two u_k, or 1)."""
    d = int(inst["d"])
    u = np.array(f_float.u, dtype=float)
    spread = float(np.max(np.linalg.norm(u[:, None] - u[None, :], axis=-1)))
    direction = np.array([float(inst[f"wd{i + 1}"]) for i in range(d)])
    offset = 10.0 ** float(inst["lw"]) * (spread if spread > 0.0 else 1.0) * direction
    return [float(x) for x in np.array(f_float.w_B) + offset]


def _lemma8_terms(inst: Instance, exact: bool) -> dict[str, Any]:
    """The pieces of (98) and (104) for one round (sums over the active clients)."""
    f_float = cq.qf(inst)
    f = cq.qf(inst, exact=True) if exact else f_float
    conv = cq.to_exact if exact else (lambda x: [float(v) for v in x])
    w0 = conv(_start(inst, f_float))
    E, L = int(inst["E"]), f.L
    Q = sum(f.q[1:], f.q[0])
    eta_float = float(inst["feta"]) / (
        2.0 * float(f_float.L) * (1.0 + 2.0 * E * float(sum(f_float.q)))
    )
    if not eta_float > 0.0:
        raise NumericalError("η_t underflows to 0 (Lemma 8 needs η_t > 0)")
    eta = Fraction(eta_float) if exact else eta_float
    gamma = 2 * eta * (1 - eta * L * (1 + 2 * E * Q))
    zero = f.q[0] * 0
    gaps, S, drift, bias = zero, zero, zero, zero
    for k in _active(inst):
        base = f.gap(k, f.w_B)
        w = list(w0)
        for _ in range(E):  # j = 0 … E−1: the local iterates of eq. 2 (σ = 0)
            gaps = gaps + f.q[k] * (f.gap(k, w) - base)
            e = cq.sub(w, w0)
            drift = drift + f.q[k] * cq.dot(e, e)
            w = cq.sub(w, [eta * g for g in f.grad(k, w)])
        S = S + f.q[k] * (f.gap(k, w0) - base)
        bias = bias + f.q[k] * base
    return {"eta": eta, "gamma": gamma, "E": E, "L": L, "gaps": gaps, "S": S, "drift": drift,
            "bias": bias}  # fmt: skip


def _lemma8_sides(t: dict[str, Any], form: str) -> tuple[Any, Any, Any]:
    """(rhs, lhs, total size of the terms) of (98) ("printed") or (104) ("step104")."""
    eta, gamma, E, L = t["eta"], t["gamma"], t["E"], t["L"]
    lhs = -gamma * t["gaps"]
    if form == "printed":
        terms = [-eta * E * t["S"] / 2, t["drift"], 2 * eta * eta * L * E * t["bias"]]
    else:
        terms = [-gamma * E * (1 - eta * L) * t["S"], gamma / (2 * eta) * t["drift"],
                 gamma * eta * L * E * t["bias"]]  # fmt: skip
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


#: Inventory's instance: F₁ = ½w², F₂ = ½(w − 1)², q = (1, 1), π = (½, ½) (w_B* = ½), L = 1,
#: E = 1, A_t = {1}, w_{t,0} = 0, η = 1/20 (half the cap 1/10): LHS = 3/320 > RHS = 3/800.
LEMMA8_COUNTEREXAMPLE: Instance = {
    "n": 2, "d": 1, "lh1": np.zeros(2), "lh2": np.zeros(2), "lh3": np.zeros(2),
    "s1": np.zeros(2), "s2": np.zeros(2), "s3": np.zeros(2), "u1": np.array([0.0, 1.0]),
    "u2": np.zeros(2), "u3": np.zeros(2), "alpha": np.array([0.5, 0.5]),
    "pi": np.array([0.5, 0.5]), "q": np.array([1.0, 1.0]), "act": 1, "E": 1, "feta": 0.5,
    "wd1": -1.0, "wd2": 0.0, "wd3": 0.0, "lw": math.log10(0.5),
}  # fmt: skip

_L8_NOTES = (
    "Quadratic federations (N ≤ 4, d ≤ 3, κ up to 10⁸, q ≥ 0 with zeros), an active set A_t, "
    "E ≤ 4 exact local gradient steps from w_{t,0} = w_B* + 10^lw·S·direction (σ = 0), "
    "η_t = feta/(2L(1 + 2EQ)) ∈ (0, cap], Q = Σ_k q_k. Margin (rhs − lhs)/max(|rhs|, |lhs|, "
    "1e-7·Σ|terms|); exact margin in Fractions (the float η and w_{t,0} taken exactly). Budget "
    f"{BUDGET}."
)

_m8, _e8 = _lemma8("printed")
register(
    Claim(
        "cafed:lemma8-eq98",
        _src("App. B2", "Lemma 8, eq. (98)", (779, 821)),
        "−γ_tΣ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − F_k(w_B*)) ≤ −½η_tEΣ_{A_t}q_k(F_k(w_{t,0}) − "
        "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + "
        "2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
        Space(_round_params(), where=cq.positive_pq),
        _m8,
        exact=_e8,
        simplify=cq.simplify,
        notes=_L8_NOTES + " REFUTED: step (105) replaces −γE(1 − ηL)S by −½ηES, valid only "
        "when S = Σ_{A_t}q_k(F_k(w_{t,0}) − F_k(w_B*)) ≥ 0; S < 0 whenever the active clients "
        "fit w_{t,0} better than w_B*. Counterexample (LEMMA8_COUNTEREXAMPLE, exact): F₁ = ½w², "
        "F₂ = ½(w − 1)², q = (1, 1), π = (½, ½), E = 1, A_t = {1}, w_{t,0} = 0, η = 1/20: "
        "LHS = 3/320 > RHS = 1/320 + 1/1600 = 3/800 (margin −3/5). It enters Lemma 11 (122).",
        budget=BUDGET,
        expected="refuted",
    )
)
_m104, _e104 = _lemma8("step104")
register(
    Claim(
        "cafed:lemma8-eq104",
        _src("App. B2", "Lemma 8's proof, eq. (104) (before step 105)", (800, 812)),
        "−γ_tΣq_kΣ_{j<E}(F_k(w_j) − F_k(w_B*)) ≤ −γ_tE(1 − η_tL)Σq_k(F_k(w_0) − F_k(w_B*)) + "
        "(γ_t/2η_t)Σq_kΣ_j‖w_j − w_0‖² + γ_tη_tLEΣq_k(F_k(w_B*) − F_k*) (sums over A_t)",
        Space(_round_params(), where=cq.positive_pq),
        _m104,
        exact=_e104,
        simplify=cq.simplify,
        notes=_L8_NOTES + " TRUE: convexity (101), Young (102) and ‖∇F_k‖² ≤ 2L(F_k − F_k*) "
        "(103) hold for any points; this is what the proof establishes before the faulty step.",
        budget=BUDGET,
        expected="holds",
    )
)


# --- Lemma 10 ------------------------------------------------------------------------------------
def _lemma10(inst: Instance, exact: bool) -> tuple[Any, Any]:
    f = cq.qf(inst, exact=exact)
    lhs = sum((pk * qk * f.gap(k, f.w_B) for k, (pk, qk) in enumerate(zip(f.pi, f.q, strict=True))),
              f.q[0] * 0)  # fmt: skip
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


register(
    Claim(
        "cafed:lemma10-eq111",
        _src("App. B2", "Lemma 10, eq. (111)", (842, 860)),
        "E[Σ_{k∈A_t}q_k(F_k(w_B*) − F_k*)] ≤ (Σ_kπ_kq_k)Γ (A_t ~ ρ: the LHS is "
        "Σ_kπ_kq_k(F_k(w_B*) − F_k*))",
        Space(cq.qf_params(), where=cq.positive_pq),
        lambda i: cq.relative_gap(*_lemma10(i, exact=False), floor=_l10_floor(i)),
        exact=_lemma10_exact,
        notes="TRUE: Σp_k(F_k(w_B*) − F_k*) = F_B(w_B*) − Σp_kF_k* ≤ F_B(w*) − Σp_kF_k* ≤ Γ. "
        "Quadratic federations as for Theorem 1 (N ≤ 4, d ≤ 3, κ ≤ 10⁸, q with zeros); "
        f"stationary A_t (Assumption 1). Budget {BUDGET}.",
        budget=BUDGET,
        expected="holds",
    )
)


# --- Lemma 14, step (141) → (142) ----------------------------------------------------------------
def _jt_sums(inst: Instance, high: bool) -> tuple[Any, Any]:
    """(Σ_t ln(Kt)/ℓ·η²_{t−J_t}, Σ_t J_t·η²_{t−J_t}) over t ≤ T, η_t = t^(−a) (η₁ cancels)."""
    T, a = int(inst["T"]), float(inst["a"])
    log_K, ell = float(inst["lK"]), 10.0 ** float(inst["lell"])
    if not high:
        from fltheory.bounds.series import delays

        ts = np.arange(1, T + 1)
        Js = delays(ts, log_K, ell, 0)
        w = np.maximum(ts - Js, 1).astype(float) ** (-2.0 * a)
        return float(np.sum((log_K + np.log(ts)) / ell * w)), float(np.sum(Js * w))
    import mpmath

    rhs, lhs = mpmath.mpf(0), mpmath.mpf(0)
    lk, el, ma = mpmath.mpf(log_K), mpmath.mpf(ell), mpmath.mpf(a)
    for t in range(1, T + 1):
        x = (lk + mpmath.log(t)) / el
        J = min(max(int(mpmath.ceil(x)), 0), t)
        w = mpmath.mpf(max(t - J, 1)) ** (-2 * ma)
        rhs, lhs = rhs + x * w, lhs + J * w
    return rhs, lhs


def _jt_exact(inst: Instance) -> tuple[Any, str]:
    import mpmath

    with mpmath.workdps(30):
        rhs, lhs = _jt_sums(inst, high=True)
        return float((rhs - lhs) / max(abs(rhs), abs(lhs))), "mpmath 30 digits"


register(
    Claim(
        "cafed:lemma14-eq142-step",
        _src("App. B3", "Lemma 14's proof, (141) → (142) (J_t ≤ ln(2C_PHt)/ln(1/λ))", (995, 1012)),
        "Σ_{t≤T}J_tη²_{t−J_t} ≤ Σ_{t≤T}(ln(2C_PHt)/ln(1/λ(P)))η²_{t−J_t} (T_P = 0)",
        Space(
            [
                Real("lK", -12.0, 30.0, special=(0.0,)),  # ln(2C_PH)
                Real("lell", -4.0, math.log10(math.log(2.0)), closed=(True, True)),
                Real("a", 0.5, 1.0, closed=(False, True), special=(1.0,)),
                Integer("T", 1, 2000),
            ]
        ),
        lambda i: cq.relative_gap(*_jt_sums(i, high=False)),
        exact=_jt_exact,
        notes="REFUTED: the step needs J_t ≤ ln(2C_PHt)/ln(1/λ), but J_t = min(max(⌈ratio⌉, "
        "T_P), t) is ≥ 0 where 2C_PHt < 1 makes the ratio negative, and exceeds a non-integer "
        "ratio by the ceiling (only capped rounds, J_t = t, go the other way). Shrunk "
        "counterexample: ln(2C_PH) = −4, ln(1/λ) = 10^−0.7 = 0.1995, T = 1: J₁ = 0 > "
        "−4/0.1995 = −20.05 (margin −1, also in 30-digit mpmath). The proved bound keeps J_t "
        "(cafed:thm2-eq13-proved). Code path: bounds.series.delays (J_t); sums over t ≤ T ≤ "
        f"2000 with η_t = t^(−a) (η₁ cancels). Budget {BUDGET}.",
        budget=BUDGET,
        expected="refuted",
    )
)
