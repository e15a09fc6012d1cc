"""CA-Fed (ToN, 002 App. B2) — Lemmas 11–13: Lemma 11 (eq. 116, C_0 with the printed 4L and the
proved 8L), Lemma 12 (eq. 125, and the convexity sandwich (126) of its proof, printed and in
the correct order) and Lemma 13 (eq. 128, the length of a server step).

Lemma 11 is checked on the exact trajectories of Theorem 2's instances (:mod:`._theorem2`,
moment recursion of :mod:`._chainrun`); Lemma 12 on quadratic federations with v, w anywhere in
a box W; Lemma 13 pathwise (σ = 0) on the round of :mod:`._lemmas_round`, W a box that the
projection can bind.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:lemma12-eq126-printed").exact(LEMMA12_COUNTEREXAMPLE)
(Fraction(-1, 1), 'exact rationals')
"""

from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _lemmas_round as rd
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed import _theorem2 as t2
from fltheory.claims.papers.cafed._verify import verify_lemma12
from fltheory.claims.space import Instance, Real, Space

# --- Lemma 11 (eq. 116) ---------------------------------------------------------------------------
_L11_NOTES = (
    "Same instances as Theorem 2 (exact expectations by the moment recursion, stationary start, "
    "W never binding); the LHS is maximised over t₀ ∈ [1, T]. C_0 computed here from the "
    "sup-constants (no library code implements it). Budget 300."
)
_LEMMA11_QUOTE = (
    "Lemma 11. … for any t₀ ≤ T: Σ_{t=t₀}^T η_tE[Σ_{k∈A_t}q_k(F_k(w_{t,0}) − F_k(w_B*))] ≤ "
    "(2/E)diam(W)² + (E+1)(Σπ_kq_k²σ_k²)(Ση_t²) + 2E²G²(Σπ_kq_k)(Ση_t²) + "
    "4L(1+EQ)Γ(Σπ_kq_k)(Ση_t²) =: C_0 (116) — 002 App. B2, l.862–923"
)
for _factor, _suffix, _expected, _note in (
    (
        4,
        "printed",
        "holds",
        "As printed (4L(1 + EQ)Γ). The proof gives 8L (dividing (122) by E/2 "
        "turns 4η²LE(1 + EQ)Γ into 8η²L(1 + EQ)Γ) and rests on Lemma 8 (false: cafed:lemma8-eq98); "
        "the statement itself held under search (the diam² term gives slack).",
    ),
    (
        8,
        "proved",
        "holds",
        "With the factor the proof's algebra gives (8L(1 + EQ)Γ); weaker "
        "than the printed form, so it holds wherever that one does.",
    ),
):
    _m11, _e11 = t2.lemma11_margins(_factor)
    register_claim(
        f"cafed:lemma11-eq116-{_suffix}",
        "App. B2",
        f"Lemma 11, eq. (116) ({_suffix})",
        (862, 923),
        f"Σ_{{t=t₀}}^T η_tE[Σ_{{A_t}}q_k(F_k(w_t) − F_k(w_B*))] ≤ (2/E)diam(W)² + "
        f"(E+1)(Σπ_kq_k²σ_k²)Ση_t² + 2E²G²(πᵀq)Ση_t² + {_factor}L(1+EQ)Γ(πᵀq)Ση_t² = C_0",
        space=t2.t2_space(),
        margin=_m11,
        exact=_e11,
        simplify=t2.t2_simplify,
        notes=f"{_L11_NOTES} {_note}",
        budget=300,
        expected=_expected,
        reading=Reading(
            quote=_LEMMA11_QUOTE,
            hypotheses=t2.T2_HYPOTHESES,
            interpretation=f"The left side maximised over t₀ ∈ [1, T]; C_0 with "
            f"{_factor}L(1 + EQ)Γ ({'as printed' if _factor == 4 else 'as the proof gives'}).",
        ),
    )


# --- Lemma 12 ------------------------------------------------------------------------------------
def _lemma12_params() -> list[Any]:
    return [
        *cq.qf_params(),
        *(Real(f"c{i}", -10.0, 10.0, special=(0.0,)) for i in range(1, cq.D_MAX + 1)),
        Real("lr", -3.0, 1.5, special=(0.0,)),
        *(
            Real(f"v{i}", -1.0, 1.0, closed=(True, True), special=(-1.0, 0.0, 1.0))
            for i in range(1, cq.D_MAX + 1)
        ),
        *(
            Real(f"x{i}", -1.0, 1.0, closed=(True, True), special=(-1.0, 0.0, 1.0))
            for i in range(1, cq.D_MAX + 1)
        ),
    ]


def _lemma12_terms(inst: Instance, exact: bool) -> tuple[cq.QF, list[Any], list[Any], Any]:
    """(federation, v, w, D²) with W = c + r[−1, 1]^d, D := L·max_k max_{x∈W}‖x − u_k‖."""
    f = cq.qf(inst, exact=exact)
    conv = cq.to_exact if exact else (lambda x: [float(v) for v in x])
    d = f.d
    c = conv([inst[f"c{i + 1}"] for i in range(d)])
    r = conv([10.0 ** float(inst["lr"])])[0]
    v = [ci + r * vi for ci, vi in zip(c, conv([inst[f"v{i + 1}"] for i in range(d)]), strict=True)]
    w = [ci + r * xi for ci, xi in zip(c, conv([inst[f"x{i + 1}"] for i in range(d)]), strict=True)]
    far = max(
        sum(((abs(ci - ui) + r) ** 2 for ci, ui in zip(c, uk, strict=True)), r * 0) for uk in f.u
    )
    return f, v, w, f.L**2 * far


def _lemma12(form: str) -> tuple[Any, Any]:
    def value(inst: Instance, exact: bool) -> Any:
        f, v, w, D2 = _lemma12_terms(inst, exact)
        e = cq.sub(v, w)
        worst = None
        mid = [a + b for a, b in zip(v, w, strict=True)]
        for k in range(f.n):
            # F_k(v) − F_k(w) = ½(v − w)ᵀH_k(v + w − 2u_k): no cancellation
            dF = cq.dot(e, cq.matvec(f.H[k], cq.sub(mid, [2 * x for x in f.u[k]]))) / 2
            if form == "statement":  # squares of D‖v − w‖ ≥ |F_k(v) − F_k(w)|
                rhs, lhs = D2 * cq.dot(e, e), dF * dF
            else:  # printed (126): ⟨∇F(v), v−w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(w), v−w⟩
                a, b = cq.dot(f.grad(k, v), e), cq.dot(f.grad(k, w), e)
                if form == "corrected":  # ⟨∇F(w), v−w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(v), v−w⟩
                    a, b = b, a
                gap_lo, gap_hi = rd.gap(dF, a, exact), rd.gap(b, dF, exact)
                m = min(gap_lo, gap_hi)
                worst = m if worst is None else min(worst, m)
                continue
            m = rd.gap(rhs, lhs, exact)
            worst = m if worst is None else min(worst, m)
        return worst

    return (lambda i: float(value(i, False))), (lambda i: (value(i, True), "exact rationals"))


#: d = N = 1, F = ½w², W = [−1, 1], v = 1, w = 0: F(v) − F(w) = ½ > ⟨∇F(w), v − w⟩ = 0.
LEMMA12_COUNTEREXAMPLE: Instance = {
    "n": 1,
    "d": 1,
    "lh1": np.zeros(1),
    "lh2": np.zeros(1),
    "lh3": np.zeros(1),
    "s1": np.zeros(1),
    "s2": np.zeros(1),
    "s3": np.zeros(1),
    "u1": np.zeros(1),
    "u2": np.zeros(1),
    "u3": np.zeros(1),
    "alpha": np.array([1.0]),
    "pi": np.array([1.0]),
    "q": np.array([1.0]),
    "c1": 0.0,
    "c2": 0.0,
    "c3": 0.0,
    "lr": 0.0,
    "v1": 1.0,
    "v2": 0.0,
    "v3": 0.0,
    "x1": 0.0,
    "x2": 0.0,
    "x3": 0.0,
}

_LEMMA12_HYPOTHESES = (
    Hypothesis(
        "F_k convex and L-smooth on W (Assumption 3, convexity in Lemma 12)",
        "quadratic clients, Hessian eigenvalues in [10⁻⁴, 10⁴], N ≤ 4, d ≤ 3",
    ),
    Hypothesis(
        "v, w ∈ W, W convex and compact (Assumption 2)",
        "W a box c + r[−1, 1]^d, v and w anywhere in it, corners included",
    ),
)

_m12, _e12 = _lemma12("statement")
register_claim(
    "cafed:lemma12-eq125",
    "App. B2",
    "Lemma 12, eq. (125)",
    (925, 942),
    "|F_k(v) − F_k(w)| ≤ D‖v − w‖ for all v, w ∈ W",
    space=Space(_lemma12_params()),
    margin=_m12,
    exact=_e12,
    simplify=cq.simplify,
    notes="Quadratic federations (N ≤ 4, d ≤ 3, κ ≤ 10⁸), W a box c + r[−1, 1]^d (r from "
    "10⁻³ to 10^1.5), v and w anywhere in W (corners included); D := L·max_k max_{x∈W}"
    "‖x − u_k‖ (Lemma 1's D, eq. 42, on the box); both sides squared, exact in Fractions. "
    f"TRUE (mean value theorem). Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 12. Let Assumptions 2 and 3 hold, and the local functions be convex. "
        "We have: "
        "|F_k(v) − F_k(w)| ≤ D·‖v − w‖, ∀v, w ∈ W (125)",
        hypotheses=_LEMMA12_HYPOTHESES,
        interpretation="As printed, D the constant of Lemma 1 (eq. 42) on the box W.",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)


def _lemma12_explain(form: str) -> Any:
    """explain(inst) for eq. (126): the client whose sandwich is tightest (violated for the
    printed order), v, w, and the three numbers of (126), exactly."""

    def explain(inst: Instance) -> Explanation:
        pf = cq.paper_federation(inst)
        d = pf.d
        c = [dec(inst[f"c{i + 1}"]) for i in range(d)]
        r = dec(10.0 ** float(inst["lr"]))
        v = [ci + r * dec(inst[f"v{i + 1}"]) for i, ci in enumerate(c)]
        w = [ci + r * dec(inst[f"x{i + 1}"]) for i, ci in enumerate(c)]
        outs = [verify_lemma12(form, pf.h[k], pf.R[k], pf.u[k], v, w) for k in range(pf.n)]

        def slack(o: dict[str, Any]) -> Any:
            low, high = o["rhs"]
            return min(o["lhs"] - low, high - o["lhs"])

        k = min(range(pf.n), key=lambda j: slack(outs[j]))
        out = outs[k]
        first, second = ("∇F(v)", "∇F(w)") if form == "printed" else ("∇F(w)", "∇F(v)")
        return Explanation(
            quantities=(
                *cq.federation_quantities(pf)[: pf.n],
                Quantity("W", "the box c + r[−1, 1]^d", (tuple(c), r)),
                Quantity("v", "a point of W", tuple(v)),
                Quantity("w", "a point of W", tuple(w)),
            ),
            steps=(Step("k", "the client checked", k + 1),),
            lhs=Step(f"F_{k + 1}(v) − F_{k + 1}(w)", "", out["lhs"]),
            relation="∈",
            rhs=Step(f"[⟨{first}, v − w⟩, ⟨{second}, v − w⟩]", f"eq. (126) ({form})", out["rhs"]),
            holds=bool(out["holds"]),
            verify_args={"form": form, "h": pf.h[k], "R": pf.R[k], "u": pf.u[k], "v": v, "w": w},
        )

    return explain


_LEMMA12_QUOTE = (
    "Moreover, from the convexity of {F_k}, it follows that: ⟨∇F_k(v), v − w⟩ ≤ F_k(v) − "
    "F_k(w) ≤ ⟨∇F_k(w), v − w⟩ (eq. 126, l.934), then |F_k(v) − F_k(w)| ≤ max{‖∇F_k(v)‖, "
    "‖∇F_k(w)‖}·‖v − w‖ (127)"
)

_m126, _e126 = _lemma12("printed")
register_claim(
    "cafed:lemma12-eq126-printed",
    "App. B2",
    "Lemma 12's proof, eq. (126) as printed",
    (930, 936),
    "⟨∇F_k(v), v − w⟩ ≤ F_k(v) − F_k(w) ≤ ⟨∇F_k(w), v − w⟩",
    space=Space(_lemma12_params()),
    margin=_m126,
    exact=_e126,
    simplify=cq.simplify,
    notes="REFUTED: the convexity inequalities are swapped; the correct order is "
    "⟨∇F(w), v − w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(v), v − w⟩ (it does not change the Lemma's "
    "conclusion, which takes absolute values). Counterexample LEMMA12_COUNTEREXAMPLE: "
    "F = ½w², v = 1, w = 0: F(v) − F(w) = ½ > ⟨∇F(w), v − w⟩ = 0 (exact margin −1). "
    f"Budget {rd.BUDGET}.",
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="refuted",
    reading=Reading(
        quote=_LEMMA12_QUOTE,
        hypotheses=_LEMMA12_HYPOTHESES,
        interpretation="As printed, for every client and v, w ∈ W. The convexity "
        "inequalities are ⟨∇F(w), v − w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(v), v − w⟩: the printed "
        "order swaps ∇F(v) and ∇F(w). The next step (127) only uses that F(v) − F(w) lies "
        "between the two inner products, so the swap does not touch Lemma 12 (which "
        "holds: cafed:lemma12-eq125).",
        alternatives="The swapped (correct) order: cafed:lemma12-eq126-corrected (holds).",
    ),
    finding=Finding(
        "typo",
        "(126) swaps ∇F_k(v) and ∇F_k(w) in the convexity sandwich; the correct order "
        "holds, and (127) and Lemma 12 are unaffected",
        intended="cafed:lemma12-eq126-corrected",
    ),
    explain=_lemma12_explain("printed"),
    verify=verify_lemma12,
)
_m126c, _e126c = _lemma12("corrected")
register_claim(
    "cafed:lemma12-eq126-corrected",
    "App. B2",
    "Lemma 12's proof, eq. (126) with ∇F(v) and ∇F(w) swapped",
    (930, 936),
    "⟨∇F_k(w), v − w⟩ ≤ F_k(v) − F_k(w) ≤ ⟨∇F_k(v), v − w⟩ for all v, w ∈ W",
    space=Space(_lemma12_params()),
    margin=_m126c,
    exact=_e126c,
    simplify=cq.simplify,
    notes="The convexity sandwich in its correct order (the evident intent of the printed "
    "(126)): first-order convexity at w and at v. Same instances and exact evaluation as "
    f"cafed:lemma12-eq126-printed. TRUE. Budget {rd.BUDGET}.",
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
    reading=Reading(
        quote=_LEMMA12_QUOTE,
        hypotheses=_LEMMA12_HYPOTHESES,
        interpretation="The printed sandwich with ∇F_k(v) and ∇F_k(w) exchanged (the "
        "first-order convexity inequalities at w and at v), which is what (127) uses.",
    ),
)


# --- Lemma 13 ------------------------------------------------------------------------------------
def _lemma13(r: rd.Round) -> tuple[Any, Any, Any]:
    gb, _ = r.gbar()
    step = r.project(r.w0 - r.eta * gb) - r.w0
    lhs = cq.dot(list(step), list(step))
    G2 = r.zero
    for k in r.act:
        for m, _M in r.paths[k][:-1]:
            g = r.arr(r.f.grad(k, list(m)))
            G2 = max(G2, cq.dot(list(g), list(g)))
    rhs = (r.eta * r.E * r.sum_q()) ** 2 * G2
    return rhs, lhs, rd.abs_sum(lhs, rhs)


_m13, _e13 = rd.pair(_lemma13, noise=False)
register_claim(
    "cafed:lemma13-eq128",
    "App. B2",
    "Lemma 13, eq. (128)",
    (944, 959),
    "E‖w_{t+1,0} − w_{t,0}‖ ≤ η_tEGΣ_{A_t}q_k (η̄ = 1)",
    space=Space(rd.wide_eta(rd.pathwise_params()), where=cq.positive_pq),
    margin=_m13,
    exact=_e13,
    simplify=cq.simplify,
    notes=rd.PATH_NOTES + " W: box centred at w_B* containing w_{t,0}. σ = 0 (E‖·‖ of a "
    "projected Gaussian has no closed form); both sides squared (exact rationals); G² := "
    "max_{k∈A_t, j<E}‖∇F_k(w_{t,j}^k)‖² (the smallest G the hypothesis allows). TRUE "
    f"(projection non-expansive, w_{{t,0}} ∈ W, triangle inequality). Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 13. Let Assumptions 2, 3, and 5 hold. We have: E‖w_{t+1,0} − w_{t,0}‖ ≤ "
        "η_tEG(Σ_{A_t}q_k) (128)",
        hypotheses=rd.PATH_HYPS,
        interpretation="Pathwise with σ = 0: the batch expectation of a projected Gaussian "
        "has no closed form "
        "(narrower than Assumption 5's σ_k ≥ 0, which a Monte Carlo could not refute with "
        "this slack); the box W lets the projection bind; η_t up to 10× eq. (12)'s cap.",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)
