"""CA-Fed (ToN, 002 App. B1) — Lemmas 2–7, the decomposition of one communication round:
Lemma 2 (eq. 44, E[g_t] = E[ḡ_t]), Lemma 3 (eq. 53, printed with η_t and proved with η_t²),
Lemma 4 (the display before eq. 59), Lemma 5 (eq. 66), Lemma 6 (eq. 72), Lemma 7 (eq. 91).

One round on a quadratic federation (:mod:`._lemmas_round`), batch expectations in closed form
(iterates affine in the Gaussian noise), in floats and exactly (Fractions). Where a projection is
involved (Lemma 3) the expectation of a projected Gaussian has no closed form, so it is checked
pathwise with σ = 0. The step size is η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1] (eq. 12's cap),
which EXCEEDS 1 when L(1 + 2EQ) < ½: this refutes Lemma 3 as printed (η_t E‖ḡ‖² where the proof
gives η_t²).

>>> from fltheory.claims import CLAIMS
>>> m = CLAIMS.get("cafed:lemma3-eq53-printed").margin(LEMMA3_COUNTEREXAMPLE)
>>> round(m, 4)
-0.04
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _lemmas_round as rd
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._verify import verify_lemma3
from fltheory.claims.space import Instance, Space


# --- Lemma 2 -------------------------------------------------------------------------------------
def _lemma2(inst: Instance) -> Fraction:
    r = rd.Round(inst, exact=True, noise=True)
    (cg, _), (cb, _) = r.g_from_deltas(), r.gbar()
    diff = cq.dot(list(cg - cb), list(cg - cb))
    scale = max(cq.dot(list(cg), list(cg)), cq.dot(list(cb), list(cb)))
    return -diff / scale if scale else Fraction(0)


register_claim(
    "cafed:lemma2-eq44",
    "App. B1",
    "Lemma 2, eq. (44)",
    (548, 578),
    "E_{B_t|A_t,H_t}[g_t] = E_{B_t|A_t,H_t}[ḡ_t]",
    space=Space(rd.wide_eta(rd.noise_params()), where=cq.positive_pq),
    margin=lambda i: float(_lemma2(i)),
    exact=lambda i: (_lemma2(i), "exact rationals"),
    simplify=cq.simplify,
    notes="TRUE. E[g_t] is computed from the server's aggregate Σq_k(w_{t,0} − w_{t,E}^k)/η_t "
    "and E[ḡ_t] from Σq_kΣ_j∇F_k(E w_{t,j}^k) (eq. 40), both exactly (Fractions; the margin "
    "is −‖E g − E ḡ‖²/max(‖E g‖², ‖E ḡ‖²), 0 iff equal). For affine noise the identity is a "
    "telescoping sum, so this is an exactness probe of the round's bookkeeping. N ≤ 3, d ≤ 2, "
    f"E ≤ 3. Budget {rd.BUDGET_EXACT} (exact margin).",
    reading=Reading(
        quote="Lemma 2. Let g_t(A_t, B_t) and ḡ_t(A_t, B_t) be defined as in (39) and (40), "
        "respectively. The following equality holds: E_{B_t|A_t,H_t}[g_t] = "
        "E_{B_t|A_t,H_t}[ḡ_t] (44)",
        hypotheses=rd.NOISE_HYPS,
        interpretation="As printed, with g_t read from the server's aggregate "
        "Σq_k(w_{t,0} − w_{t,E}^k)/η_t "
        "(eq. 39 with E local steps) and η_t up to 10× eq. (12)'s cap (the lemma states no "
        "step condition).",
    ),
    budget=rd.BUDGET_EXACT,
    tolerance=rd.TOL,
    expected="holds",
)


# --- Lemma 3 -------------------------------------------------------------------------------------
def _lemma3(form: str) -> Any:
    def sides(r: rd.Round) -> tuple[Any, Any, Any]:
        gb, _ = r.gbar()  # σ = 0: g_t = ḡ_t, the Lemma 6 and 7 terms vanish
        lhs = cq.dot(
            list(r.project(r.w0 - r.eta * gb) - r.wB), list(r.project(r.w0 - r.eta * gb) - r.wB)
        )
        e = r.w0 - r.wB
        sq = cq.dot(list(gb), list(gb))
        terms = [
            cq.dot(list(e), list(e)),
            -2 * r.eta * cq.dot(list(e), list(gb)),
            (r.eta if form == "printed" else r.eta * r.eta) * sq,
        ]
        return sum(terms[1:], terms[0]), lhs, rd.abs_sum(lhs, *terms)

    return rd.pair(sides, noise=False)


#: d = N = E = 1, F = ½·10⁻⁴w² (L = 10⁻⁴), q = 1 (Q = 1), w_{t,0} = 1, feta = 1: η_t =
#: 1/(2·10⁻⁴·3) = 5000/3 > 1, ḡ = 10⁻⁴, w_{t+1,0} = 5/6: LHS = 25/36 > RHS = 2/3 + 1/60000.
LEMMA3_COUNTEREXAMPLE: Instance = {
    "n": 1,
    "d": 1,
    "lh1": np.array([-4.0]),
    "lh2": np.zeros(1),
    "lh3": np.zeros(1),
    "s1": np.zeros(1),
    "s2": np.zeros(1),
    "s3": np.zeros(1),
    "u1": np.array([0.0]),
    "u2": np.zeros(1),
    "u3": np.zeros(1),
    "alpha": np.array([1.0]),
    "pi": np.array([1.0]),
    "q": np.array([1.0]),
    "act": 1,
    "E": 1,
    "feta": 1.0,
    "wd1": 1.0,
    "wd2": 0.0,
    "wd3": 0.0,
    "lw": 0.0,
    "lr": 1.0,
}


def _lemma3_explain(form: str) -> Any:
    """explain(inst) for Lemma 3: the federation, the active set, η_t, w_{t,0}, the box W, the
    local paths and ḡ_t, both sides of (53) without noise, in exact decimals/rationals."""

    def explain(inst: Instance) -> Explanation:
        pf = cq.paper_federation(inst)
        f_float = cq.qf(inst)
        f = pf.qf()
        E = int(inst["E"])
        L, Q = f.L, sum(f.q, Fraction(0))
        eta = dec(inst["feta"]) / (2 * L * (1 + 2 * E * Q))
        w0 = list(decs(rd.start(inst, f_float)))
        active = rd.active(inst)
        u_all = np.array(f_float.u, dtype=float)
        S = float(np.max(np.linalg.norm(u_all[:, None] - u_all[None, :], axis=-1))) or 1.0
        base = dec(10.0 ** float(inst.get("lr", 0.0)) * S)
        half = [max(base, abs(a - b)) for a, b in zip(w0, f.w_B, strict=True)]
        lo = [c - r for c, r in zip(f.w_B, half, strict=True)]
        hi = [c + r for c, r in zip(f.w_B, half, strict=True)]
        args = {
            "form": form,
            "h": pf.h,
            "R": pf.R,
            "u": pf.u,
            "pi": pf.pi,
            "q": pf.q,
            "active": active,
            "E": E,
            "eta": eta,
            "w0": w0,
            "lo": lo,
            "hi": hi,
        }
        out = verify_lemma3(**args)
        term = "η_t‖ḡ_t‖²" if form == "printed" else "η_t²‖ḡ_t‖²"
        return Explanation(
            quantities=(
                *cq.federation_quantities(pf),
                Quantity("A_t", "active clients this round", tuple(k + 1 for k in active)),
                Quantity("E", "local steps", E),
                Quantity("η_t", "step size, at feta × the eq. (12) cap 1/(2L(1 + 2EQ))", eta),
                Quantity("w_{t,0}", "model at the start of the round", tuple(w0)),
                Quantity("W", "the box [lo, hi] (centred at w_B*)", (tuple(lo), tuple(hi))),
                Quantity("σ_k", "batch noise (none: g_t = ḡ_t)", 0),
            ),
            steps=(
                Step("L", "largest Hessian eigenvalue", L),
                Step("Q", "Σ_k q_k", Q),
                Step("w_B*", "minimiser of F_B", tuple(f.w_B)),
            ),
            lhs=Step("‖w_{t+1,0} − w_B*‖²", "w_{t+1,0} = Proj_W(w_{t,0} − η_tḡ_t)", out["lhs"]),
            relation="≤",
            rhs=Step(
                f"‖w_{{t,0}} − w_B*‖² − 2η_t⟨w_{{t,0}} − w_B*, ḡ_t⟩ + {term}",
                "eq. (53) with σ = 0",
                out["rhs"],
            ),
            holds=bool(out["holds"]),
            verify_args=args,
            note="η_t exceeds 1 here (eq. 12 allows it when L(1 + 2EQ) < ½), where "
            "η_t‖ḡ_t‖² < η_t²‖ḡ_t‖²."
            if form == "printed" and eta > 1
            else "",
        )

    return explain


def _lemma3_reading(interpretation: str, alternatives: str = "") -> Reading:
    return Reading(
        quote="Lemma 3 (Decomposition of the error in a global communication round). Let "
        "Assumption 2 hold. We have: E‖w_{t+1,0} − w_B*‖² ≤ ‖w_{t,0} − w_B*‖² − 2η_tE⟨w_{t,0} − "
        "w_B*, ḡ_t⟩ + η_tE‖ḡ_t‖² + 2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ + η_t²E‖g_t − ḡ_t‖² "
        "(eq. 53, l.584; the third term is 'bounded in Lemma 5')",
        hypotheses=(
            Hypothesis(
                "Assumption 2: W convex, compact, w_B* ∈ W",
                "W a box centred at w_B* containing w_{t,0}",
            ),
            Hypothesis(
                "η_t ≤ 1/(2L(1 + 2EQ)) (eq. 12, used by the Lemmas the proof combines)",
                "η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1]",
            ),
            Hypothesis(
                "Assumptions 3–5 (used by Lemmas 4–7, not by Lemma 3)",
                "quadratic "
                "clients, σ_k = 0 (the batch expectation of a projected Gaussian has no "
                "closed form)",
            ),
        ),
        interpretation=interpretation,
        alternatives=alternatives,
    )


_LEMMA3_FINDINGS: dict[str, dict[str, Any]] = {
    "printed": dict(
        reading=_lemma3_reading(
            "As printed (η_t E‖ḡ_t‖²). The proof's own identity (57) has η_t²‖ḡ_t‖², and "
            "Lemma 5, which the underbrace says bounds this term, bounds η_t²‖ḡ_t‖²; so η_t is "
            "a typo for η_t² — but as printed it fails whenever η_t > 1, which eq. (12) allows "
            "(small L or small q).",
            "η_t² (eq. 57, Lemma 5): cafed:lemma3-eq53-proved (holds).",
        ),
        finding=Finding(
            "typo",
            "the third term of (53) is printed η_tE‖ḡ_t‖²; the proof's (57) and Lemma 5 have "
            "η_t², and as printed it fails when η_t > 1 (allowed by eq. 12)",
            intended="cafed:lemma3-eq53-proved",
        ),
        explain=_lemma3_explain("printed"),
        verify=verify_lemma3,
    ),
    "proved": dict(
        reading=_lemma3_reading(
            "With η_t² in the third term, as the proof's (57) and Lemma 5 have; η_t up to 10× "
            "eq. (12)'s cap (the lemma states no step condition)."
        ),
    ),
}
for _form, _expected, _stmt, _note in (
    (
        "printed",
        "refuted",
        "η_t E‖ḡ_t‖²",
        "REFUTED: (57) gives η_t²‖ḡ_t‖², which is ≤ η_t‖ḡ_t‖² only if η_t ≤ 1; eq. (12) allows "
        "η_t up to 1/(2L(1 + 2EQ)) > 1 when L(1 + 2EQ) < ½ (small curvature or small q). Shrunk "
        "counterexample LEMMA3_COUNTEREXAMPLE: d = N = E = 1, F = ½·10⁻⁴w², q = 1, w_{t,0} = 1, "
        "η_t = 5000/3, W = [−10, 10]: w_{t+1,0} = 5/6, LHS = 25/36 > RHS = 2/3 + 1/60000 (margin "
        "−0.03998, negative in exact rationals too). The largest relative violation is ≈ 1/25.",
    ),
    (
        "proved",
        "holds",
        "η_t² E‖ḡ_t‖²",
        "TRUE: projection is non-expansive and w_B* ∈ W (54)–(55); (57) is an identity.",
    ),
):
    _m, _e = _lemma3(_form)
    register_claim(
        f"cafed:lemma3-eq53-{_form}",
        "App. B1",
        f"Lemma 3, eq. (53) ({_form})",
        (582, 599),
        "E‖w_{t+1,0} − w_B*‖² ≤ ‖w_{t,0} − w_B*‖² − 2η_tE⟨w_{t,0} − w_B*, ḡ_t⟩ + "
        f"{_stmt} + 2η_tE⟨w_{{t,0}} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ + η_t²E‖g_t − ḡ_t‖²",
        space=Space(
            rd.wide_eta(rd.pathwise_params()) if _form == "proved" else rd.pathwise_params(),
            where=cq.positive_pq,
        ),
        margin=_m,
        exact=_e,
        simplify=cq.simplify,
        notes=rd.PATH_NOTES + " W: box centred at w_B* (half-widths max(10^lr·S, "
        "|w_{t,0} − w_B*|_i)). The batch expectation of a projected Gaussian has no closed "
        "form, so σ = 0 (then g_t = ḡ_t). " + _note + f" Budget {rd.BUDGET}.",
        budget=rd.BUDGET,
        tolerance=rd.TOL,
        expected=_expected,
        **_LEMMA3_FINDINGS[_form],
    )


# --- Lemmas 4 and 5 ------------------------------------------------------------------------------
def _lemma4(r: rd.Round) -> tuple[Any, Any, Any]:
    gb, _ = r.gbar()
    lhs = -2 * r.eta * cq.dot(list(r.w0 - r.wB), list(gb))
    gaps, drift, bias = r.zero, r.zero, r.zero
    for k in r.act:
        base = r.f.gap(k, list(r.wB))
        for m, _M in r.paths[k][:-1]:
            gaps = gaps + r.f.q[k] * (r.f.gap(k, list(m)) - base)
            drift = drift + r.f.q[k] * cq.dot(list(m - r.w0), list(m - r.w0))
        bias = bias + r.f.q[k] * base
    terms = [-2 * r.eta * (1 - r.eta * r.L) * gaps, drift, 2 * r.eta**2 * r.L * r.E * bias]
    return sum(terms[1:], terms[0]), lhs, rd.abs_sum(lhs, *terms)


def _lemma5(r: rd.Round) -> tuple[Any, Any, Any]:
    gb, _ = r.gbar()
    lhs = r.eta**2 * cq.dot(list(gb), list(gb))
    gaps, bias = r.zero, r.zero
    for k in r.act:
        base = r.f.gap(k, list(r.wB))
        for m, _M in r.paths[k][:-1]:
            gaps = gaps + r.f.q[k] * (r.f.gap(k, list(m)) - base)
        bias = bias + r.f.q[k] * base
    c = 2 * r.eta**2 * r.L * r.E * r.Q
    terms = [c * gaps, c * r.E * bias]
    return sum(terms[1:], terms[0]), lhs, rd.abs_sum(lhs, *terms)


_m4, _e4 = rd.pair(_lemma4, noise=False)
register_claim(
    "cafed:lemma4-eq58",
    "App. B1",
    "Lemma 4 (display before eq. 59)",
    (603, 649),
    "−2η_t⟨w_{t,0} − w_B*, ḡ_t⟩ ≤ −2η_t(1 − η_tL)Σ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − "
    "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + "
    "2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
    space=Space(rd.wide_eta(rd.round_params()), where=cq.positive_pq),
    margin=_m4,
    exact=_e4,
    simplify=cq.simplify,
    notes=rd.PATH_NOTES + " TRUE (convexity, Young and ‖∇F_k‖² ≤ 2L(F_k − F_k*), for any "
    "points). The statement's display is unnumbered in 002 (l.605–607; l.609–617 are "
    f"extraction garbage); labelled eq58 as the display before (59). Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 4. Let Assumption 3 hold and the local functions {F_k} be convex. "
        "We have: "
        "−2η_t⟨w_{t,0} − w_B*, ḡ_t⟩ ≤ −2η_t(1 − η_tL)Σ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − "
        "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + 2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − "
        "F_k*) (l.605–607)",
        hypotheses=rd.PATH_HYPS,
        interpretation="As printed, pathwise (the statement has no expectation over "
        "batches), η_t up to 10× "
        "eq. (12)'s cap (the lemma states no step condition).",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)
_m5, _e5 = rd.pair(_lemma5, noise=False)
register_claim(
    "cafed:lemma5-eq66",
    "App. B1",
    "Lemma 5, eq. (66)",
    (651, 668),
    "η_t²‖ḡ_t‖² ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − F_k(w_B*)) + "
    "2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
    space=Space(rd.wide_eta(rd.round_params()), where=cq.positive_pq),
    margin=_m5,
    exact=_e5,
    simplify=cq.simplify,
    notes=rd.PATH_NOTES + " TRUE (Jensen twice, Σ_{A_t}q_k ≤ Q, ‖∇F_k(w)‖² ≤ "
    f"2L(F_k(w) − F_k*)). Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 5. Let Assumption 3 hold. We have: η_t²‖ḡ_t‖² ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j<E}"
        "(F_k(w_{t,j}^k) − F_k(w_B*)) + 2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*) (66)",
        hypotheses=rd.PATH_HYPS,
        interpretation="As printed, pathwise, η_t up to 10× eq. (12)'s cap.",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)


# --- Lemmas 6 and 7 (batch expectations in closed form) ------------------------------------------
def _noise_vec(r: rd.Round) -> tuple[np.ndarray, np.ndarray]:
    """ḡ_t − g_t: from the aggregate (exact) or −Σq_kΣ_jξ_j^k (floats, no cancellation)."""
    gb, Gb = r.gbar()
    if r.exact:
        g, G = r.g_from_deltas()
        return gb - g, Gb - G
    d, nz = r.f.d, len(r.v)
    C = np.zeros((d, nz))
    for idx, k in enumerate(r.act):
        for j in range(r.E):
            col = (idx * r.E + j) * d
            C[:, col : col + d] -= r.f.q[k] * np.eye(d)
    return np.zeros(d), C


def _lemma6(r: rd.Round) -> tuple[Any, Any, Any]:
    gb, Gb = r.gbar()
    n, N = _noise_vec(r)
    lhs = 2 * r.eta * r.inner(r.w0 - r.wB - r.eta * gb, -r.eta * Gb, n, N)
    gaps, bias, var = r.zero, r.zero, r.zero
    for k in r.act:
        base = r.f.gap(k, list(r.wB))
        for m, M in r.paths[k][1:-1]:  # j = 1 … E−1
            gaps = gaps + r.f.q[k] * (r.gap(k, m, M) - base)
        bias = bias + r.f.q[k] * base
        var = var + r.f.q[k] ** 2 * r.f.d * r.s2[k]
    c = 2 * r.eta**2 * r.L * r.E * r.Q
    terms = [c * gaps, r.eta**2 * r.E * (r.E - 1) * var / 2, c * r.E * bias]
    return sum(terms[1:], terms[0]), lhs, rd.abs_sum(lhs, *terms)


def _lemma7(r: rd.Round) -> tuple[Any, Any, Any]:
    n, N = _noise_vec(r)
    lhs = r.eta**2 * r.mean_sq(n, N)
    rhs = r.eta**2 * r.E * sum((r.f.q[k] ** 2 * r.f.d * r.s2[k] for k in r.act), r.zero)
    return rhs, lhs, rd.abs_sum(lhs, rhs)


_m6, _e6 = rd.pair(_lemma6, noise=True)
register_claim(
    "cafed:lemma6-eq72",
    "App. B1",
    "Lemma 6, eq. (72)",
    (670, 748),
    "2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j=1}^{E−1}"
    "E[F_k(w_{t,j}^k) − F_k(w_B*)] + ½η_t²E(E−1)Σ_{A_t}q_k²σ_k² + "
    "2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
    space=Space(rd.wide_eta(rd.noise_params()), where=cq.positive_pq),
    margin=_m6,
    exact=_e6,
    simplify=cq.simplify,
    notes=rd.NOISE_NOTES + " TRUE on these instances (the LHS is −2η_t²Σq_k²Σ_{j'<j}"
    "E⟨∇F_k(w_j), ξ_{j'}⟩ ≤ 0 for quadratics), although the proof has slips: (88) drops a "
    "factor 2 and (90) uses Σq_k²f(k) ≤ (Σq_k)(Σq_kf(k)) with f(k) possibly negative. "
    f"Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 6. Let Assumption 5 hold. We have: 2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − "
        "g_t⟩ ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j=1}^{E−1}E[F_k(w_{t,j}^k) − F_k(w_B*)] + "
        "½η_t²E(E−1)Σ_{A_t}q_k²σ_k² + 2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*) (72)",
        hypotheses=rd.NOISE_HYPS,
        interpretation="As printed, with the batch expectation in closed form (Gaussian "
        "noise), η_t up to 10× "
        "eq. (12)'s cap.",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)
_m7, _e7 = rd.pair(_lemma7, noise=True)
register_claim(
    "cafed:lemma7-eq91",
    "App. B1",
    "Lemma 7, eq. (91)",
    (750, 777),
    "η_t²E‖g_t − ḡ_t‖² ≤ η_t²EΣ_{A_t}q_k²σ_k²",
    space=Space(rd.wide_eta(rd.noise_params()), where=cq.positive_pq),
    margin=_m7,
    exact=_e7,
    simplify=cq.simplify,
    notes=rd.NOISE_NOTES + " TRUE with equality for additive independent noise (the exact "
    "margin is 0: an exactness probe; the float margin sees rounding only). "
    f"Budget {rd.BUDGET}.",
    reading=Reading(
        quote="Lemma 7. Let Assumption 5 hold. We have: η_t²E‖g_t − ḡ_t‖² ≤ "
        "η_t²EΣ_{A_t}q_k²σ_k² (91)",
        hypotheses=rd.NOISE_HYPS,
        interpretation="As printed (equality for additive independent noise).",
    ),
    budget=rd.BUDGET,
    tolerance=rd.TOL,
    expected="holds",
)
