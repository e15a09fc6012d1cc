"""One communication round of CA-Fed's scheme (2)–(3) on a quadratic federation, shared by the
per-round lemmas of App. B1 and B2 (:mod:`.app_b1_lemmas_2_7`, :mod:`.app_b2_lemmas_8_10`,
:mod:`.app_b2_lemmas_11_13`); registers nothing.

The active clients A_t run E local steps (eq. 2) from w_{t,0} with additive Gaussian batch noise
ξ_{t,j}^k ~ N(0, s_k²I_d) (so σ_k² = d·s_k², independent across steps and clients; s_k = 0
allowed by Assumption 5), and the server sets w_{t+1,0} = Proj_W(w_{t,0} − η_tg_t) (eq. 3,
η̄ = 1). The dynamics are affine in the noise, so every iterate is w = m + MZ with
Z ~ N(0, diag(v)) and every batch expectation the lemmas take (of a linear or quadratic
function) is in closed form — computed in floats (numpy) or exactly (numpy object arrays of
Fractions). W is the box centred at w_B* (Assumption 2: w_B* ∈ W) with half-widths
max(10^lr·S, |w_{t,0} − w_B*|_i) (so w_{t,0} ∈ W and the projection can bind).

>>> import numpy as np
>>> active({"n": 3, "act": 5}), ETA_WIDE
([0, 2], 10.0)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.finding import Hypothesis
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.space import Instance, Integer, Real
from fltheory.errors import NumericalError

#: Default evaluations of the float (numpy) margins (~1-3 ms each).
BUDGET = 400
#: Default evaluations of the margins computed in exact rationals (~10-30 ms each).
BUDGET_EXACT = 150
#: Float rounding slack of the relative margins (identities such as (57) hold with equality).
TOL = 1e-6


def round_params() -> list[Any]:
    """One round from w_{t,0} = w_B* + 10^lw·S·direction (Lemmas 4, 5, 8 and the noisy rounds)."""
    return [
        *cq.qf_params(),
        Integer("act", 1, 2**cq.N_MAX - 1),  # bitmask of A_t (reduced modulo 2^n)
        Integer("E", 1, 4),
        Real("feta", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        *(Real(f"wd{i}", -1.0, 1.0, special=(0.0, 1.0)) for i in range(1, cq.D_MAX + 1)),
        Real("lw", -6.0, 2.0, special=(0.0,)),
    ]


def active(inst: Instance) -> list[int]:
    """A_t: the clients (0-based) of the bitmask ``act``, reduced modulo 2^n."""
    n = int(inst["n"])
    mask = int(inst["act"]) % 2**n
    return [k for k in range(n) if (mask >> k) & 1]


def start(inst: Instance, f_float: cq.QF) -> list[float]:
    """w_{t,0}: the coordinates w1… when given, else w_B* + 10^lw·S·direction (S: largest
    distance between two u_k, or 1)."""
    d = int(inst["d"])
    if "w1" in inst:
        return [float(inst[f"w{i + 1}"]) for i in range(d)]
    u = np.array(f_float.u, dtype=float)
    spread = float(np.max(np.linalg.norm(u[:, None] - u[None, :], axis=-1)))
    direction = np.array([float(inst[f"wd{i + 1}"]) for i in range(d)])
    offset = 10.0 ** float(inst["lw"]) * (spread if spread > 0.0 else 1.0) * direction
    return [float(x) for x in np.array(f_float.w_B) + offset]


# --- one round, affine in the noise ---------------------------------------------------------------
def noise_params() -> list[Any]:
    """A round with noise: N ≤ 3, d ≤ 2, E ≤ 3 keep the noise dimension ≤ 18."""
    params = [p for p in round_params() if p.name not in ("n", "d", "E")]
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


def wide_eta(params: list[Any]) -> list[Any]:
    """``params`` with feta ranging over (0, ETA_WIDE] (the lemmas without a step condition)."""
    return [
        Real("feta", 0.0, ETA_WIDE, closed=(False, True), special=(1.0, 0.5))
        if p.name == "feta"
        else p
        for p in params
    ]


def pathwise_params() -> list[Any]:
    """Lemma 8's round parameters, the eigenvalues also tried at the smallest curvature 10⁻⁴
    (where eq. 12 lets η_t exceed 1), and W's half-width."""
    params = [
        Real(p.name, *cq.LOG_H, size="n", special=(0.0, cq.LOG_H[0]))
        if p.name.startswith("lh")
        else p
        for p in round_params()
    ]
    return [*params, Real("lr", -3.0, 1.0, special=(0.0,))]


class Round:
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
        self.w0 = self.arr(conv(start(inst, f_float)))
        self.wB = self.arr(f.w_B)
        self.act = active(inst)
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


def gap(rhs: Any, lhs: Any, exact: bool, size: Any = 0) -> Any:
    """(rhs − lhs)/max(|rhs|, |lhs|, size) (Fraction when exact)."""
    scale = max(abs(rhs), abs(lhs), size)
    if scale == 0:
        return Fraction(0) if exact else 0.0
    return (rhs - lhs) / scale if exact else float((rhs - lhs) / scale)


def pair(sides: Any, noise: bool, floor: float = 1e-9) -> tuple[Any, Any]:
    """(margin, exact) from ``sides(round) -> (rhs, lhs, size)``."""

    def margin(inst: Instance) -> float:
        rhs, lhs, size = sides(Round(inst, exact=False, noise=noise))
        return float(gap(rhs, lhs, False, floor * float(size)))

    def exact(inst: Instance) -> tuple[Any, str]:
        rhs, lhs, _ = sides(Round(inst, exact=True, noise=noise))
        return gap(rhs, lhs, True), "exact rationals"

    return margin, exact


def abs_sum(*xs: Any) -> Any:
    """Σ|x| of the terms (the size that scales a margin's rounding floor)."""
    return sum((abs(x) for x in xs[1:]), abs(xs[0]))


PATH_HYPS = (
    Hypothesis(
        "Assumptions 2–3, convex F_k",
        "quadratic clients (N ≤ 4, d ≤ 3, Hessian "
        "eigenvalues in [10⁻⁴, 10⁴]), q ≥ 0 with zeros, any active set, E ≤ 4; W a box "
        "centred at w_B* containing w_{t,0}",
    ),
    Hypothesis("batch noise (Assumption 5)", "σ_k = 0 (pathwise)"),
)
NOISE_HYPS = (
    Hypothesis(
        "Assumptions 2–3, convex F_k",
        "quadratic clients (N ≤ 3, d ≤ 2), q ≥ 0 with zeros, any active set, E ≤ 3",
    ),
    Hypothesis(
        "Assumption 5: E‖∇F_k(w, B) − ∇F_k(w)‖² ≤ σ_k²",
        "additive Gaussian noise N(0, s_k²I_d) per local step (σ_k² = d·s_k²), s_k = 0 allowed",
    ),
)


PATH_NOTES = (
    "Pathwise (σ = 0) on quadratic federations (N ≤ 4, d ≤ 3, κ ≤ 10⁸, q with zeros), an "
    "active set A_t, E ≤ 4 local gradient steps from w_{t,0} = w_B* + 10^lw·S·direction, "
    "η_t = feta/(2L(1 + 2EQ)), feta ∈ (0, 1]; exact re-evaluation in Fractions."
)

NOISE_NOTES = (
    "Quadratic federations (N ≤ 3, d ≤ 2, κ ≤ 10⁸, q with zeros), E ≤ 3 local steps with "
    "additive noise N(0, s_k²I_d) (σ_k² = d·s_k², s_k = 10^ls_k or 0), batch expectations in "
    "closed form (iterates affine in the noise); exact re-evaluation in Fractions, where ḡ_t − g_t "
    "is computed from the server's aggregate Σq_k(w_{t,0} − w_{t,E}^k)/η_t."
)
