"""CA-Fed (ToN, 002 App. B): the per-round lemmas of Theorem 2's proof not covered by
:mod:`.cafed_lemmas` — Lemmas 2–7, 9, 12, 13 (Lemma 15 is executable on the exact trajectories of
:mod:`.cafed_theorem2`).

One communication round on a quadratic federation (:mod:`._cafed_quadratic`): the active clients
A_t run E local steps (eq. 2) from w_{t,0} with additive Gaussian batch noise ξ_{t,j}^k ~
N(0, s_k²I_d) (so σ_k² = d·s_k², independent across steps and clients; s_k = 0 allowed by
Assumption 5), and the server sets w_{t+1,0} = Proj_W(w_{t,0} − η_tg_t) (eq. 3, η̄ = 1). The
dynamics are affine in the noise, so every iterate is w = m + MZ with Z ~ N(0, diag(v)) and every
batch expectation the lemmas take (of a linear or quadratic function) is in closed form —
computed in floats (numpy) or exactly (numpy object arrays of Fractions). Where a projection is
involved (Lemmas 3 and 13) the expectation of a projected Gaussian has no closed form, so those
are checked pathwise with σ = 0. W is the box centred at w_B* (Assumption 2: w_B* ∈ W) with
half-widths max(10^lr·S, |w_{t,0} − w_B*|_i) (so w_{t,0} ∈ W and the projection can bind).

The step size is η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1] (eq. 12's cap), which EXCEEDS 1 when
L(1 + 2EQ) < ½: this refutes Lemma 3 as printed (η_t E‖ḡ‖² where the proof gives η_t²).

>>> from fltheory.claims import CLAIMS
>>> m = CLAIMS.get("cafed:lemma3-eq53-printed").margin(LEMMA3_COUNTEREXAMPLE)
>>> round(m, 4)
-0.04
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, Source, register
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._verify import verify_lemma3, verify_lemma12
from fltheory.claims.papers.cafed.cafed_lemmas import _active, _round_params, _start
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

PAPER = "cafed"
#: Default evaluations of the float (numpy) margins (~1-3 ms each).
BUDGET = 400
#: Default evaluations of the margins computed in exact rationals (~10-30 ms each).
BUDGET_EXACT = 150
#: Float rounding slack of the relative margins (identities such as (57) hold with equality).
TOL = 1e-6


def _src(section: str, label: str, lines: tuple[int, int]) -> Source:
    return Source(PAPER, section, label, lines)


# --- one round, affine in the noise ---------------------------------------------------------------
def _noise_params() -> list[Any]:
    """A round with noise: N ≤ 3, d ≤ 2, E ≤ 3 keep the noise dimension ≤ 18."""
    params = [p for p in _round_params() if p.name not in ("n", "d", "E")]
    return [
        Integer("n", 1, 3),
        Integer("d", 1, 2),
        Integer("E", 1, 3),
        *params,
        Real("ls", -3.0, 1.0, size="n", special=(0.0,)),  # log10 s_k
        Integer("noisy", 0, 1),
        Real("lr", -3.0, 1.0, special=(0.0,)),  # log10 of W's half-width / S
    ]


#: η_t up to this multiple of eq. (12)'s cap 1/(2L(1 + 2EQ)) where a lemma states no step-size
#: condition (Lemmas 2, 4–7, 9, 13): the claims are checked beyond the theorem's regime too.
ETA_WIDE = 10.0


def _wide_eta(params: list[Any]) -> list[Any]:
    """``params`` with feta ranging over (0, ETA_WIDE] (the lemmas without a step condition)."""
    return [
        Real("feta", 0.0, ETA_WIDE, closed=(False, True), special=(1.0, 0.5))
        if p.name == "feta"
        else p
        for p in params
    ]


def _pathwise_params() -> list[Any]:
    """Lemma 8's round parameters, the eigenvalues also tried at the smallest curvature 10⁻⁴
    (where eq. 12 lets η_t exceed 1), and W's half-width."""
    params = [
        Real(p.name, *cq.LOG_H, size="n", special=(0.0, cq.LOG_H[0])) if p.name.startswith("lh")
        else p for p in _round_params()
    ]  # fmt: skip
    return [*params, Real("lr", -3.0, 1.0, special=(0.0,))]


class _Round:
    """One round of eq. (2)–(3) on the federation of ``inst`` (floats, or Fractions)."""

    def __init__(self, inst: Instance, exact: bool, noise: bool) -> None:
        f_float = cq.qf(inst)
        self.exact = exact
        self.f = f = cq.qf(inst, exact=True) if exact else f_float
        conv = cq.to_exact if exact else (lambda x: [float(v) for v in x])
        dt = object if exact else float
        self.arr = lambda x: np.array(x, dtype=dt)
        self.zero, self.one = f.q[0] * 0, f.q[0] * 0 + 1
        d, self.E, self.L = f.d, int(inst["E"]), f.L
        self.Q = sum(f.q[1:], f.q[0])
        eta = float(inst["feta"]) / (2.0 * float(f_float.L) * (1.0 + 2.0 * self.E * float(self.Q)))
        if not (eta > 0.0 and math.isfinite(eta)):
            raise NumericalError("η_t is not a positive finite float")
        self.eta = Fraction(eta) if exact else eta
        self.w0 = self.arr(conv(_start(inst, f_float)))
        self.wB = self.arr(f.w_B)
        self.act = _active(inst)
        s = [10.0 ** float(x) for x in inst["ls"]] if noise and int(inst.get("noisy", 1)) else None
        self.s2 = [conv([x * x])[0] for x in s] if s else [self.zero] * f.n
        nz = len(self.act) * self.E * d if s else 0
        self.v = self.arr([self.s2[k] for k in self.act for _ in range(self.E * d)] or [])
        eye = self.arr([[self.one if i == j else self.zero for j in range(d)] for i in range(d)])
        self.paths: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
        for idx, k in enumerate(self.act):
            H, u = self.arr(f.H[k]), self.arr(f.u[k])
            m, M = self.w0.copy(), np.empty((d, nz), dtype=dt)
            M.fill(self.zero)
            path = []
            for j in range(self.E):
                path.append((m, M))
                m = m - self.eta * (H @ (m - u))
                M = M - self.eta * (H @ M)
                if nz:
                    col = (idx * self.E + j) * d
                    M[:, col : col + d] = M[:, col : col + d] - self.eta * eye
            path.append((m, M))
            self.paths[k] = path
        u_all = np.array(f_float.u, dtype=float)
        S = float(np.max(np.linalg.norm(u_all[:, None] - u_all[None, :], axis=-1))) or 1.0
        base = conv([10.0 ** float(inst.get("lr", 0.0)) * S])[0]
        self.half = [max(base, abs(a - b)) for a, b in zip(self.w0, self.wB, strict=True)]

    # affine helpers: (c, C) stands for c + CZ
    def mean_sq(self, c: np.ndarray, C: np.ndarray) -> Any:
        """E‖c + CZ‖²."""
        return self.inner(c, C, c, C)

    def inner(self, a: np.ndarray, A: np.ndarray, b: np.ndarray, B: np.ndarray) -> Any:
        """E⟨a + AZ, b + BZ⟩."""
        total = cq.dot(list(a), list(b))
        if A.shape[1]:
            total = total + cq.dot(list((A * B).sum(axis=0)), list(self.v))
        return total

    def gap(self, k: int, m: np.ndarray, M: np.ndarray) -> Any:
        """E[F_k(m + MZ)] − F_k* = ½(m − u)ᵀH(m − u) + ½Σ_i v_i M_iᵀHM_i."""
        H = self.arr(self.f.H[k])
        e = m - self.arr(self.f.u[k])
        return self.inner(e, M, H @ e, H @ M) / 2

    def gbar(self) -> tuple[np.ndarray, np.ndarray]:
        """ḡ_t = Σ_{A_t}q_kΣ_{j<E}∇F_k(w_{t,j}^k) (eq. 40), affine in Z."""
        d = self.f.d
        c, C = self.arr([self.zero] * d), None
        for k in self.act:
            H, u, qk = self.arr(self.f.H[k]), self.arr(self.f.u[k]), self.f.q[k]
            for m, M in self.paths[k][:-1]:
                c = c + qk * (H @ (m - u))
                C = qk * (H @ M) if C is None else C + qk * (H @ M)
        return c, (C if C is not None else self.arr(np.zeros((d, 0))))

    def g_from_deltas(self) -> tuple[np.ndarray, np.ndarray]:
        """g_t = Σ_{A_t}q_k(w_{t,0} − w_{t,E}^k)/η_t: what the server aggregates (eq. 39)."""
        d = self.f.d
        c, C = self.arr([self.zero] * d), None
        for k in self.act:
            m, M = self.paths[k][-1]
            c = c + self.f.q[k] * (self.w0 - m) / self.eta
            C = -self.f.q[k] * M / self.eta if C is None else C - self.f.q[k] * M / self.eta
        return c, (C if C is not None else self.arr(np.zeros((d, 0))))

    def project(self, w: np.ndarray) -> np.ndarray:
        return self.arr(
            [min(max(x, c - h), c + h) for x, c, h in zip(w, self.wB, self.half, strict=True)]
        )

    def sum_q(self) -> Any:
        return sum((self.f.q[k] for k in self.act), self.zero)


def _gap(rhs: Any, lhs: Any, exact: bool, size: Any = 0) -> Any:
    """(rhs − lhs)/max(|rhs|, |lhs|, size) (Fraction when exact)."""
    scale = max(abs(rhs), abs(lhs), size)
    if scale == 0:
        return Fraction(0) if exact else 0.0
    return (rhs - lhs) / scale if exact else float((rhs - lhs) / scale)


def _pair(sides: Any, noise: bool, floor: float = 1e-9) -> tuple[Any, Any]:
    """(margin, exact) from ``sides(round) -> (rhs, lhs, size)``."""

    def margin(inst: Instance) -> float:
        rhs, lhs, size = sides(_Round(inst, exact=False, noise=noise))
        return float(_gap(rhs, lhs, False, floor * float(size)))

    def exact(inst: Instance) -> tuple[Any, str]:
        rhs, lhs, _ = sides(_Round(inst, exact=True, noise=noise))
        return _gap(rhs, lhs, True), "exact rationals"

    return margin, exact


def _abs_sum(*xs: Any) -> Any:
    return sum((abs(x) for x in xs[1:]), abs(xs[0]))


_PATH_HYPS = (
    Hypothesis(
        "Assumptions 2–3, convex F_k",
        "quadratic clients (N ≤ 4, d ≤ 3, Hessian "
        "eigenvalues in [10⁻⁴, 10⁴]), q ≥ 0 with zeros, any active set, E ≤ 4; W a box "
        "centred at w_B* containing w_{t,0}",
    ),
    Hypothesis("batch noise (Assumption 5)", "σ_k = 0 (pathwise)"),
)
_NOISE_HYPS = (
    Hypothesis("Assumptions 2–3, convex F_k", "quadratic clients (N ≤ 3, d ≤ 2), q ≥ 0 with "
               "zeros, any active set, E ≤ 3"),
    Hypothesis("Assumption 5: E‖∇F_k(w, B) − ∇F_k(w)‖² ≤ σ_k²", "additive Gaussian noise "
               "N(0, s_k²I_d) per local step (σ_k² = d·s_k²), s_k = 0 allowed"),
)  # fmt: skip


# --- Lemma 2 -------------------------------------------------------------------------------------
def _lemma2(inst: Instance) -> Fraction:
    r = _Round(inst, exact=True, noise=True)
    (cg, _), (cb, _) = r.g_from_deltas(), r.gbar()
    diff = cq.dot(list(cg - cb), list(cg - cb))
    scale = max(cq.dot(list(cg), list(cg)), cq.dot(list(cb), list(cb)))
    return -diff / scale if scale else Fraction(0)


register(
    Claim(
        "cafed:lemma2-eq44",
        _src("App. B1", "Lemma 2, eq. (44)", (548, 578)),
        "E_{B_t|A_t,H_t}[g_t] = E_{B_t|A_t,H_t}[ḡ_t]",
        Space(_wide_eta(_noise_params()), where=cq.positive_pq),
        lambda i: float(_lemma2(i)),
        exact=lambda i: (_lemma2(i), "exact rationals"),
        simplify=cq.simplify,
        notes="TRUE. E[g_t] is computed from the server's aggregate Σq_k(w_{t,0} − w_{t,E}^k)/η_t "
        "and E[ḡ_t] from Σq_kΣ_j∇F_k(E w_{t,j}^k) (eq. 40), both exactly (Fractions; the margin "
        "is −‖E g − E ḡ‖²/max(‖E g‖², ‖E ḡ‖²), 0 iff equal). For affine noise the identity is a "
        "telescoping sum, so this is an exactness probe of the round's bookkeeping. N ≤ 3, d ≤ 2, "
        f"E ≤ 3. Budget {BUDGET_EXACT} (exact margin).",
        reading=Reading(
            quote="Lemma 2. Let g_t(A_t, B_t) and ḡ_t(A_t, B_t) be defined as in (39) and (40), "
            "respectively. The following equality holds: E_{B_t|A_t,H_t}[g_t] = "
            "E_{B_t|A_t,H_t}[ḡ_t] (44)",
            hypotheses=_NOISE_HYPS,
            interpretation="As printed, with g_t read from the server's aggregate "
            "Σq_k(w_{t,0} − w_{t,E}^k)/η_t "
            "(eq. 39 with E local steps) and η_t up to 10× eq. (12)'s cap (the lemma states no "
            "step condition).",
        ),
        budget=BUDGET_EXACT,
        tolerance=TOL,
        expected="holds",
    )
)


# --- Lemma 3 -------------------------------------------------------------------------------------
def _lemma3(form: str) -> Any:
    def sides(r: _Round) -> tuple[Any, Any, Any]:
        gb, _ = r.gbar()  # σ = 0: g_t = ḡ_t, the Lemma 6 and 7 terms vanish
        lhs = cq.dot(
            list(r.project(r.w0 - r.eta * gb) - r.wB), list(r.project(r.w0 - r.eta * gb) - r.wB)
        )
        e = r.w0 - r.wB
        sq = cq.dot(list(gb), list(gb))
        terms = [cq.dot(list(e), list(e)), -2 * r.eta * cq.dot(list(e), list(gb)),
                 (r.eta if form == "printed" else r.eta * r.eta) * sq]  # fmt: skip
        return sum(terms[1:], terms[0]), lhs, _abs_sum(lhs, *terms)

    return _pair(sides, noise=False)


#: d = N = E = 1, F = ½·10⁻⁴w² (L = 10⁻⁴), q = 1 (Q = 1), w_{t,0} = 1, feta = 1: η_t =
#: 1/(2·10⁻⁴·3) = 5000/3 > 1, ḡ = 10⁻⁴, w_{t+1,0} = 5/6: LHS = 25/36 > RHS = 2/3 + 1/60000.
LEMMA3_COUNTEREXAMPLE: Instance = {
    "n": 1, "d": 1, "lh1": np.array([-4.0]), "lh2": np.zeros(1), "lh3": np.zeros(1),
    "s1": np.zeros(1), "s2": np.zeros(1), "s3": np.zeros(1), "u1": np.array([0.0]),
    "u2": np.zeros(1), "u3": np.zeros(1), "alpha": np.array([1.0]), "pi": np.array([1.0]),
    "q": np.array([1.0]), "act": 1, "E": 1, "feta": 1.0, "wd1": 1.0, "wd2": 0.0, "wd3": 0.0,
    "lw": 0.0, "lr": 1.0,
}  # fmt: skip


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
        w0 = list(decs(_start(inst, f_float)))
        active = _active(inst)
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
            rhs=Step(f"‖w_{{t,0}} − w_B*‖² − 2η_t⟨w_{{t,0}} − w_B*, ḡ_t⟩ + {term}",
                     "eq. (53) with σ = 0", out["rhs"]),
            holds=bool(out["holds"]),
            verify_args=args,
            note="η_t exceeds 1 here (eq. 12 allows it when L(1 + 2EQ) < ½), where "
            "η_t‖ḡ_t‖² < η_t²‖ḡ_t‖²." if form == "printed" and eta > 1 else "",
        )  # fmt: skip

    return explain


_PATH_NOTES = (
    "Pathwise (σ = 0) on quadratic federations (N ≤ 4, d ≤ 3, κ ≤ 10⁸, q with zeros), an "
    "active set A_t, E ≤ 4 local gradient steps from w_{t,0} = w_B* + 10^lw·S·direction, "
    "η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1]; exact re-evaluation in Fractions."
)


def _lemma3_reading(interpretation: str, alternatives: str = "") -> Reading:
    return Reading(
        quote="Lemma 3 (Decomposition of the error in a global communication round). Let "
    "Assumption 2 hold. We have: E‖w_{t+1,0} − w_B*‖² ≤ ‖w_{t,0} − w_B*‖² − 2η_tE⟨w_{t,0} − "
    "w_B*, ḡ_t⟩ + η_tE‖ḡ_t‖² + 2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ + η_t²E‖g_t − ḡ_t‖² "
    "(eq. 53, l.584; the third term is 'bounded in Lemma 5')",
        hypotheses=(
            Hypothesis("Assumption 2: W convex, compact, w_B* ∈ W", "W a box centred at w_B* "
                       "containing w_{t,0}"),
            Hypothesis("η_t ≤ 1/(2L(1 + 2EQ)) (eq. 12, used by the Lemmas the proof combines)",
                       "η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1]"),
            Hypothesis("Assumptions 3–5 (used by Lemmas 4–7, not by Lemma 3)", "quadratic "
                       "clients, σ_k = 0 (the batch expectation of a projected Gaussian has no "
                       "closed form)"),
        ),
        interpretation=interpretation,
        alternatives=alternatives,
    )  # fmt: skip


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
    ("printed", "refuted", "η_t E‖ḡ_t‖²",
     "REFUTED: (57) gives η_t²‖ḡ_t‖², which is ≤ η_t‖ḡ_t‖² only if η_t ≤ 1; eq. (12) allows "
     "η_t up to 1/(2L(1 + 2EQ)) > 1 when L(1 + 2EQ) < ½ (small curvature or small q). Shrunk "
     "counterexample LEMMA3_COUNTEREXAMPLE: d = N = E = 1, F = ½·10⁻⁴w², q = 1, w_{t,0} = 1, "
     "η_t = 5000/3, W = [−10, 10]: w_{t+1,0} = 5/6, LHS = 25/36 > RHS = 2/3 + 1/60000 (margin "
     "−0.03998, negative in exact rationals too). The largest relative violation is ≈ 1/25."),
    ("proved", "holds", "η_t² E‖ḡ_t‖²",
     "TRUE: projection is non-expansive and w_B* ∈ W (54)–(55); (57) is an identity."),
):  # fmt: skip
    _m, _e = _lemma3(_form)
    register(
        Claim(
            f"cafed:lemma3-eq53-{_form}",
            _src("App. B1", f"Lemma 3, eq. (53) ({_form})", (582, 599)),
            "E‖w_{t+1,0} − w_B*‖² ≤ ‖w_{t,0} − w_B*‖² − 2η_tE⟨w_{t,0} − w_B*, ḡ_t⟩ + "
            f"{_stmt} + 2η_tE⟨w_{{t,0}} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ + η_t²E‖g_t − ḡ_t‖²",
            Space(
                _wide_eta(_pathwise_params()) if _form == "proved" else _pathwise_params(),
                where=cq.positive_pq,
            ),
            _m,
            exact=_e,
            simplify=cq.simplify,
            notes=_PATH_NOTES + " W: box centred at w_B* (half-widths max(10^lr·S, "
            "|w_{t,0} − w_B*|_i)). The batch expectation of a projected Gaussian has no closed "
            "form, so σ = 0 (then g_t = ḡ_t). " + _note + f" Budget {BUDGET}.",
            budget=BUDGET,
            tolerance=TOL,
            expected=_expected,
            **_LEMMA3_FINDINGS[_form],
        )
    )


# --- Lemmas 4 and 5 ------------------------------------------------------------------------------
def _lemma4(r: _Round) -> tuple[Any, Any, Any]:
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
    return sum(terms[1:], terms[0]), lhs, _abs_sum(lhs, *terms)


def _lemma5(r: _Round) -> tuple[Any, Any, Any]:
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
    return sum(terms[1:], terms[0]), lhs, _abs_sum(lhs, *terms)


_m4, _e4 = _pair(_lemma4, noise=False)
register(
    Claim(
        "cafed:lemma4-eq58",
        _src("App. B1", "Lemma 4 (display before eq. 59)", (603, 649)),
        "−2η_t⟨w_{t,0} − w_B*, ḡ_t⟩ ≤ −2η_t(1 − η_tL)Σ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − "
        "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + "
        "2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
        Space(_wide_eta(_round_params()), where=cq.positive_pq),
        _m4,
        exact=_e4,
        simplify=cq.simplify,
        notes=_PATH_NOTES + " TRUE (convexity, Young and ‖∇F_k‖² ≤ 2L(F_k − F_k*), for any "
        "points). The statement's display is unnumbered in 002 (l.605–607; l.609–617 are "
        f"extraction garbage); labelled eq58 as the display before (59). Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 4. Let Assumption 3 hold and the local functions {F_k} be convex. "
            "We have: "
            "−2η_t⟨w_{t,0} − w_B*, ḡ_t⟩ ≤ −2η_t(1 − η_tL)Σ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − "
            "F_k(w_B*)) + Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖² + 2η_t²LEΣ_{A_t}q_k(F_k(w_B*) − "
            "F_k*) (l.605–607)",
            hypotheses=_PATH_HYPS,
            interpretation="As printed, pathwise (the statement has no expectation over "
            "batches), η_t up to 10× "
            "eq. (12)'s cap (the lemma states no step condition).",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)
_m5, _e5 = _pair(_lemma5, noise=False)
register(
    Claim(
        "cafed:lemma5-eq66",
        _src("App. B1", "Lemma 5, eq. (66)", (651, 668)),
        "η_t²‖ḡ_t‖² ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j<E}(F_k(w_{t,j}^k) − F_k(w_B*)) + "
        "2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
        Space(_wide_eta(_round_params()), where=cq.positive_pq),
        _m5,
        exact=_e5,
        simplify=cq.simplify,
        notes=_PATH_NOTES + " TRUE (Jensen twice, Σ_{A_t}q_k ≤ Q, ‖∇F_k(w)‖² ≤ "
        f"2L(F_k(w) − F_k*)). Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 5. Let Assumption 3 hold. We have: η_t²‖ḡ_t‖² ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j<E}"
            "(F_k(w_{t,j}^k) − F_k(w_B*)) + 2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*) (66)",
            hypotheses=_PATH_HYPS,
            interpretation="As printed, pathwise, η_t up to 10× eq. (12)'s cap.",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)


# --- Lemmas 6, 7 and 9 (batch expectations in closed form) ---------------------------------------
def _noise_vec(r: _Round) -> tuple[np.ndarray, np.ndarray]:
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


def _lemma6(r: _Round) -> tuple[Any, Any, Any]:
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
    return sum(terms[1:], terms[0]), lhs, _abs_sum(lhs, *terms)


def _lemma7(r: _Round) -> tuple[Any, Any, Any]:
    n, N = _noise_vec(r)
    lhs = r.eta**2 * r.mean_sq(n, N)
    rhs = r.eta**2 * r.E * sum((r.f.q[k] ** 2 * r.f.d * r.s2[k] for k in r.act), r.zero)
    return rhs, lhs, _abs_sum(lhs, rhs)


def _lemma9(r: _Round) -> tuple[Any, Any, Any]:
    lhs, G2 = r.zero, r.zero
    for k in r.act:
        H, u = r.arr(r.f.H[k]), r.arr(r.f.u[k])
        for m, M in r.paths[k][:-1]:
            lhs = lhs + r.f.q[k] * r.mean_sq(m - r.w0, M)
            G2 = max(G2, r.mean_sq(H @ (m - u), H @ M) + r.f.d * r.s2[k])
    rhs = r.eta**2 * r.E**3 * G2 * r.sum_q() / 2
    return rhs, lhs, _abs_sum(lhs, rhs)


_NOISE_NOTES = (
    "Quadratic federations (N ≤ 3, d ≤ 2, κ ≤ 10⁸, q with zeros), E ≤ 3 local steps with "
    "additive noise N(0, s_k²I_d) (σ_k² = d·s_k², s_k = 10^ls_k or 0), batch expectations in "
    "closed form (iterates affine in the noise); exact re-evaluation in Fractions, where ḡ_t − g_t "
    "is computed from the server's aggregate Σq_k(w_{t,0} − w_{t,E}^k)/η_t."
)
_m6, _e6 = _pair(_lemma6, noise=True)
register(
    Claim(
        "cafed:lemma6-eq72",
        _src("App. B1", "Lemma 6, eq. (72)", (670, 748)),
        "2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − g_t⟩ ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j=1}^{E−1}"
        "E[F_k(w_{t,j}^k) − F_k(w_B*)] + ½η_t²E(E−1)Σ_{A_t}q_k²σ_k² + "
        "2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*)",
        Space(_wide_eta(_noise_params()), where=cq.positive_pq),
        _m6,
        exact=_e6,
        simplify=cq.simplify,
        notes=_NOISE_NOTES + " TRUE on these instances (the LHS is −2η_t²Σq_k²Σ_{j'<j}"
        "E⟨∇F_k(w_j), ξ_{j'}⟩ ≤ 0 for quadratics), although the proof has slips: (88) drops a "
        "factor 2 and (90) uses Σq_k²f(k) ≤ (Σq_k)(Σq_kf(k)) with f(k) possibly negative. "
        f"Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 6. Let Assumption 5 hold. We have: 2η_tE⟨w_{t,0} − w_B* − η_tḡ_t, ḡ_t − "
            "g_t⟩ ≤ 2η_t²LEQΣ_{A_t}q_kΣ_{j=1}^{E−1}E[F_k(w_{t,j}^k) − F_k(w_B*)] + "
            "½η_t²E(E−1)Σ_{A_t}q_k²σ_k² + 2η_t²LE²QΣ_{A_t}q_k(F_k(w_B*) − F_k*) (72)",
            hypotheses=_NOISE_HYPS,
            interpretation="As printed, with the batch expectation in closed form (Gaussian "
            "noise), η_t up to 10× "
            "eq. (12)'s cap.",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)
_m7, _e7 = _pair(_lemma7, noise=True)
register(
    Claim(
        "cafed:lemma7-eq91",
        _src("App. B1", "Lemma 7, eq. (91)", (750, 777)),
        "η_t²E‖g_t − ḡ_t‖² ≤ η_t²EΣ_{A_t}q_k²σ_k²",
        Space(_wide_eta(_noise_params()), where=cq.positive_pq),
        _m7,
        exact=_e7,
        simplify=cq.simplify,
        notes=_NOISE_NOTES + " TRUE with equality for additive independent noise (the exact "
        "margin is 0: an exactness probe; the float margin sees rounding only). "
        f"Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 7. Let Assumption 5 hold. We have: η_t²E‖g_t − ḡ_t‖² ≤ "
            "η_t²EΣ_{A_t}q_k²σ_k² (91)",
            hypotheses=_NOISE_HYPS,
            interpretation="As printed (equality for additive independent noise).",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)
_m9, _e9 = _pair(_lemma9, noise=True)
register(
    Claim(
        "cafed:lemma9-eq106",
        _src("App. B2", "Lemma 9, eq. (106)", (823, 840)),
        "E[Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖²] ≤ ½η_t²E³G²Σ_{A_t}q_k",
        Space(_wide_eta(_noise_params()), where=cq.positive_pq),
        _m9,
        exact=_e9,
        simplify=cq.simplify,
        notes=_NOISE_NOTES + " G² := max_{k∈A_t, j<E}E‖∇F_k(w_{t,j}^k, B)‖² (the smallest G the "
        "proof's hypothesis allows at the visited iterates; Lemma 1's G is larger, so holding "
        "here implies holding there). TRUE (Σ_{j<E}j² ≤ E³/2; loose by ≥ 3/2). "
        f"Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 9. Let Assumptions 2, 3 and 5 hold, the local functions be convex "
            "and G be "
            "defined as in Lemma 1, Equation (7). … E[Σ_{A_t}q_kΣ_{j<E}‖w_{t,j}^k − w_{t,0}‖²] ≤ "
            "½η_t²E³G²(Σ_{A_t}q_k) (106)",
            hypotheses=_NOISE_HYPS,
            interpretation="With the least G the hypothesis allows at the visited iterates "
            "(stronger than "
            "Lemma 1's), η_t up to 10× eq. (12)'s cap.",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)


# --- Lemma 13 ------------------------------------------------------------------------------------
def _lemma13(r: _Round) -> tuple[Any, Any, Any]:
    gb, _ = r.gbar()
    step = r.project(r.w0 - r.eta * gb) - r.w0
    lhs = cq.dot(list(step), list(step))
    G2 = r.zero
    for k in r.act:
        for m, _M in r.paths[k][:-1]:
            g = r.arr(r.f.grad(k, list(m)))
            G2 = max(G2, cq.dot(list(g), list(g)))
    rhs = (r.eta * r.E * r.sum_q()) ** 2 * G2
    return rhs, lhs, _abs_sum(lhs, rhs)


_m13, _e13 = _pair(_lemma13, noise=False)
register(
    Claim(
        "cafed:lemma13-eq128",
        _src("App. B2", "Lemma 13, eq. (128)", (944, 959)),
        "E‖w_{t+1,0} − w_{t,0}‖ ≤ η_tEGΣ_{A_t}q_k (η̄ = 1)",
        Space(_wide_eta(_pathwise_params()), where=cq.positive_pq),
        _m13,
        exact=_e13,
        simplify=cq.simplify,
        notes=_PATH_NOTES + " W: box centred at w_B* containing w_{t,0}. σ = 0 (E‖·‖ of a "
        "projected Gaussian has no closed form); both sides squared (exact rationals); G² := "
        "max_{k∈A_t, j<E}‖∇F_k(w_{t,j}^k)‖² (the smallest G the hypothesis allows). TRUE "
        f"(projection non-expansive, w_{{t,0}} ∈ W, triangle inequality). Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 13. Let Assumptions 2, 3, and 5 hold. We have: E‖w_{t+1,0} − w_{t,0}‖ ≤ "
            "η_tEG(Σ_{A_t}q_k) (128)",
            hypotheses=_PATH_HYPS,
            interpretation="Pathwise with σ = 0: the batch expectation of a projected Gaussian "
            "has no closed form "
            "(narrower than Assumption 5's σ_k ≥ 0, which a Monte Carlo could not refute with "
            "this slack); the box W lets the projection bind; η_t up to 10× eq. (12)'s cap.",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
)


# --- Lemma 12 ------------------------------------------------------------------------------------
def _lemma12_params() -> list[Any]:
    return [
        *cq.qf_params(),
        *(Real(f"c{i}", -10.0, 10.0, special=(0.0,)) for i in range(1, cq.D_MAX + 1)),
        Real("lr", -3.0, 1.5, special=(0.0,)),
        *(Real(f"v{i}", -1.0, 1.0, closed=(True, True), special=(-1.0, 0.0, 1.0))
          for i in range(1, cq.D_MAX + 1)),
        *(Real(f"x{i}", -1.0, 1.0, closed=(True, True), special=(-1.0, 0.0, 1.0))
          for i in range(1, cq.D_MAX + 1)),
    ]  # fmt: skip


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
                gap_lo, gap_hi = _gap(dF, a, exact), _gap(b, dF, exact)
                m = min(gap_lo, gap_hi)
                worst = m if worst is None else min(worst, m)
                continue
            m = _gap(rhs, lhs, exact)
            worst = m if worst is None else min(worst, m)
        return worst

    return (lambda i: float(value(i, False))), (lambda i: (value(i, True), "exact rationals"))


#: d = N = 1, F = ½w², W = [−1, 1], v = 1, w = 0: F(v) − F(w) = ½ > ⟨∇F(w), v − w⟩ = 0.
LEMMA12_COUNTEREXAMPLE: Instance = {
    "n": 1, "d": 1, "lh1": np.zeros(1), "lh2": np.zeros(1), "lh3": np.zeros(1),
    "s1": np.zeros(1), "s2": np.zeros(1), "s3": np.zeros(1), "u1": np.zeros(1),
    "u2": np.zeros(1), "u3": np.zeros(1), "alpha": np.array([1.0]), "pi": np.array([1.0]),
    "q": np.array([1.0]), "c1": 0.0, "c2": 0.0, "c3": 0.0, "lr": 0.0,
    "v1": 1.0, "v2": 0.0, "v3": 0.0, "x1": 0.0, "x2": 0.0, "x3": 0.0,
}  # fmt: skip

_LEMMA12_HYPOTHESES = (
    Hypothesis("F_k convex and L-smooth on W (Assumption 3, convexity in Lemma 12)",
               "quadratic clients, Hessian eigenvalues in [10⁻⁴, 10⁴], N ≤ 4, d ≤ 3"),
    Hypothesis("v, w ∈ W, W convex and compact (Assumption 2)", "W a box c + r[−1, 1]^d, v and "
               "w anywhere in it, corners included"),
)  # fmt: skip

_m12, _e12 = _lemma12("statement")
register(
    Claim(
        "cafed:lemma12-eq125",
        _src("App. B2", "Lemma 12, eq. (125)", (925, 942)),
        "|F_k(v) − F_k(w)| ≤ D‖v − w‖ for all v, w ∈ W",
        Space(_lemma12_params()),
        _m12,
        exact=_e12,
        simplify=cq.simplify,
        notes="Quadratic federations (N ≤ 4, d ≤ 3, κ ≤ 10⁸), W a box c + r[−1, 1]^d (r from "
        "10⁻³ to 10^1.5), v and w anywhere in W (corners included); D := L·max_k max_{x∈W}"
        "‖x − u_k‖ (Lemma 1's D, eq. 42, on the box); both sides squared, exact in Fractions. "
        f"TRUE (mean value theorem). Budget {BUDGET}.",
        reading=Reading(
            quote="Lemma 12. Let Assumptions 2 and 3 hold, and the local functions be convex. "
            "We have: "
            "|F_k(v) − F_k(w)| ≤ D·‖v − w‖, ∀v, w ∈ W (125)",
            hypotheses=_LEMMA12_HYPOTHESES,
            interpretation="As printed, D the constant of Lemma 1 (eq. 42) on the box W.",
        ),
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
    )
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
            rhs=Step(f"[⟨{first}, v − w⟩, ⟨{second}, v − w⟩]", f"eq. (126) ({form})",
                     out["rhs"]),
            holds=bool(out["holds"]),
            verify_args={"form": form, "h": pf.h[k], "R": pf.R[k], "u": pf.u[k], "v": v,
                         "w": w},
        )  # fmt: skip

    return explain


_LEMMA12_QUOTE = (
    "Moreover, from the convexity of {F_k}, it follows that: ⟨∇F_k(v), v − w⟩ ≤ F_k(v) − "
    "F_k(w) ≤ ⟨∇F_k(w), v − w⟩ (eq. 126, l.934), then |F_k(v) − F_k(w)| ≤ max{‖∇F_k(v)‖, "
    "‖∇F_k(w)‖}·‖v − w‖ (127)"
)

_m126, _e126 = _lemma12("printed")
register(
    Claim(
        "cafed:lemma12-eq126-printed",
        _src("App. B2", "Lemma 12's proof, eq. (126) as printed", (930, 936)),
        "⟨∇F_k(v), v − w⟩ ≤ F_k(v) − F_k(w) ≤ ⟨∇F_k(w), v − w⟩",
        Space(_lemma12_params()),
        _m126,
        exact=_e126,
        simplify=cq.simplify,
        notes="REFUTED: the convexity inequalities are swapped; the correct order is "
        "⟨∇F(w), v − w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(v), v − w⟩ (it does not change the Lemma's "
        "conclusion, which takes absolute values). Counterexample LEMMA12_COUNTEREXAMPLE: "
        "F = ½w², v = 1, w = 0: F(v) − F(w) = ½ > ⟨∇F(w), v − w⟩ = 0 (exact margin −1). "
        f"Budget {BUDGET}.",
        budget=BUDGET,
        tolerance=TOL,
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
)
_m126c, _e126c = _lemma12("corrected")
register(
    Claim(
        "cafed:lemma12-eq126-corrected",
        _src("App. B2", "Lemma 12's proof, eq. (126) with ∇F(v) and ∇F(w) swapped", (930, 936)),
        "⟨∇F_k(w), v − w⟩ ≤ F_k(v) − F_k(w) ≤ ⟨∇F_k(v), v − w⟩ for all v, w ∈ W",
        Space(_lemma12_params()),
        _m126c,
        exact=_e126c,
        simplify=cq.simplify,
        notes="The convexity sandwich in its correct order (the evident intent of the printed "
        "(126)): first-order convexity at w and at v. Same instances and exact evaluation as "
        f"cafed:lemma12-eq126-printed. TRUE. Budget {BUDGET}.",
        budget=BUDGET,
        tolerance=TOL,
        expected="holds",
        reading=Reading(
            quote=_LEMMA12_QUOTE,
            hypotheses=_LEMMA12_HYPOTHESES,
            interpretation="The printed sandwich with ∇F_k(v) and ∇F_k(w) exchanged (the "
            "first-order convexity inequalities at w and at v), which is what (127) uses.",
        ),
    )
)
