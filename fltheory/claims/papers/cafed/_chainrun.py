"""Exact expectations of CA-Fed's scheme (2)-(3) on isotropic quadratics with Markov clients,
and an independent evaluation of the series of Theorem 2 (shared helpers; no claims here).

Setting (the instances of :mod:`._theorem2`): N ≤ 3 independent two-state clients
(eq. 236, stationary start: Assumption 1), F_k(w) = ½h_k‖w − u_k‖² in d ≤ 2, batch noise of
E‖ξ‖² = σ_k² (bounded: ±σ_k along a direction), E local steps of size η_t = η₁t^(−a), server
rate η̄, and W the ball B(0, r_W) with r_W = 1.001·r + η̄E(Σq_kσ_k)Σ_{t≤T}η_t ≥ every
iterate (u_k, w₀ ∈ B(0, r); each round is a convex combination of w_t and the u_k, since
η̄Σq_k(1 − (1 − η_th_k)^E) < 1 under eq. 12, plus noise of norm ≤ η̄η_tEΣq_kσ_k), so the
projection never binds and the recursion below is the projected scheme.

Given A_t = a, one round is affine: w_{t+1} = C_a w_t + g_a + n_a with C_a = 1 − η̄Σ_{k∈a}q_kb_k,
b_k = 1 − (1 − η_th_k)^E, g_a = η̄Σ_{k∈a}q_kb_ku_k and E‖n_a‖² = η̄²Σ_{k∈a}q_k²σ_k²η_t²
Σ_{j<E}(1 − η_th_k)^{2j}. With x_t = [w_t, S_{t−1}] (S_t = Σ_{s≤t}η_sw_s) the moments
m_a = E[x_t 1{A_t = a}] (d×2) and Γ_a = E[x_tᵀx_t 1{A_t = a}] (2×2) obey a linear recursion
over the 2^N chain states: exact E[F_B(w̄_T)] and E[F_k(w_t) 1{A_t = a}] for any T, in floats
or (object arrays of mpf) in high precision.

>>> inst = dict(BASE_INSTANCE)
>>> run = ChainRun(inst)
>>> res = run.moments()
>>> bool(res.opt_error >= 0.0), len(res.fk)
(True, 5)
"""

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.space import Instance, Integer, Real, Simplex
from fltheory.errors import NumericalError

#: ℓ = ln(1/λ(P)) ranges over [10^LOG_ELL_MIN, ln 2] (λ̄₂ up to 1 − 2·10⁻¹⁰; closer to 1 the
#: library's −ln((1 + λ̄₂)/2) loses more than 10⁻⁶ of ℓ to rounding).
LOG_ELL_MIN = -10.0
#: log10 range of the energy scale L·r² (2C_PH spans ~10⁻¹⁰…10⁷).
LOG_ENERGY = (-10.0, 6.0)
#: The series of eq. 179 is a closed form plus a bound when 1/(2C_PH) exceeds this (the
#: library's SHORTCUT_MIN + 1, see fltheory.bounds.series._negative_stretch).
CLOSED_FORM_MIN = 2.0**16 + 1.0
#: Instances whose series need more terms than this are declined (NumericalError, skipped).
MAX_SERIES_TERMS = 2**18
#: Radius slack of W around the ball holding u_k and w₀ (Assumption 2: interior points).
W_SLACK = 1.001


def chain_params(
    n: tuple[int, int] = (1, 3),
    T: tuple[int, int] = (1, 64),
    focus: bool = False,
    energy: tuple[float, float] = LOG_ENERGY,
) -> list[Any]:
    """The instance space of a run (see the module docstring); ``focus``: ln(1/λ) always tied
    to 2C_PH (rel = 1, lc ∈ (0, ½]; the unused absolute ``lell`` is left out), the regime where
    φ of eq. 179 is most negative; ``energy``: the range of log10(L·r²)."""
    ell_params: list[Any] = [
        Real("lell", LOG_ELL_MIN, math.log10(math.log(2.0)), closed=(True, True)),
    ]
    return [
        Integer("n", *n),
        Integer("d", 1, 2),
        # η₁ = 10^leta and L = feta/(2η₁(1 + 2EQ)) (η₁ = feta × the eq. 12 cap)
        Real("leta", -4.0, 0.5, special=(0.0,)),
        Real("le", *energy, special=(-3.0, 0.0)),  # log10 of L·r² (the energy scale)
        Real("lk", 0.0, 6.0, size="n", closed=(True, True), special=(0.0,)),  # log10 L/h_k
        Real("ua", -1.0, 1.0, size="n", special=(0.0,)),
        Real("ub", -1.0, 1.0, size="n", special=(0.0,)),
        Real("wa", -1.0, 1.0, special=(0.0, 1.0, -1.0)),
        Real("wb", -1.0, 1.0, special=(0.0,)),
        Simplex("alpha", "n"),
        Real("pi", 0.0, 1.0, size="n", special=(0.5,)),
        # ln(1/λ) either absolute (rel = 0: 10^lell) or relative to 2C_PH/e, the scale below
        # which J_t = t for a stretch of rounds (rel = 1: 10^lc·2C_PH/e, clipped to
        # [10^LOG_ELL_MIN, ln 2]); φ of eq. 179 is most negative just above lc = 0
        Integer("rel", 1 if focus else 0, 1),
        *([] if focus else ell_params),
        Real("lc", 0.0, 0.5 if focus else 2.0, special=(0.1, 0.3)),
        Integer("neg", 0, 1),
        Real("lfr", -1.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0)),
        Real("lq", -3.0, 3.0, size="n", special=(0.0,)),
        Real("sg", 0.0, 1.0, size="n", closed=(True, False), special=(0.0,)),
        Integer("E", 1, 100),
        Real("feta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
        Real("a", 0.5, 1.0, closed=(False, True), special=(1.0, 0.75)),
        Integer("T", *T),
    ]


def negative_phi_params() -> list[Any]:
    """The simplest instances of the regime where φ of eq. 179 is negative: one client, d = 1,
    F = ½Lw² (u = 0), no noise, 2C_PH < 1 through the energy scale L·r² ∈ [10⁻⁵, 10⁻¹], and
    ln(1/λ) = 10^lc·2C_PH/e (lc ∈ (0, ½]); η₁ ∈ [10⁻¹, 10^0.5] at feta × the eq. 12 cap, q ∈
    [10⁻¹, 10], E ≤ 32. The parameters that this family fixes are zero-width ranges (so that
    instances keep the keys of :func:`chain_params`)."""

    def fixed(name: str, value: float, size: str | None = "n") -> Real:
        return Real(name, value, value, size=size, closed=(True, True))

    return [
        Integer("n", 1, 1),
        Integer("d", 1, 1),
        Real("leta", -1.0, 0.5, special=(0.0,)),
        Real("le", -5.0, -1.0, special=(-3.0,)),
        fixed("lk", 0.0),
        fixed("ua", 0.0),
        fixed("ub", 0.0),
        Real("wa", -1.0, 1.0, closed=(True, True), special=(1.0, -1.0)),
        fixed("wb", 0.0, size=None),
        Simplex("alpha", "n"),
        Real("pi", 0.0, 1.0, size="n", special=(0.5, 0.9)),
        Integer("rel", 1, 1),
        Real("lc", 0.0, 0.5, special=(0.1, 0.3)),
        Integer("neg", 0, 1),
        fixed("lfr", 1.0),
        Real("lq", -1.0, 1.0, size="n", special=(0.0,)),
        fixed("sg", 0.0),
        Integer("E", 1, 32),
        Real("feta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
        Real("a", 0.5, 1.0, closed=(False, True), special=(1.0, 0.75)),
        Integer("T", 1, 64),
    ]


#: A small valid instance (doctests and unit tests).
BASE_INSTANCE: Instance = {
    "n": 2,
    "d": 1,
    "leta": -1.0,
    "le": 0.0,
    "lk": np.array([0.0, 0.3]),
    "ua": np.array([0.5, -0.5]),
    "ub": np.zeros(2),
    "wa": 0.9,
    "wb": 0.0,
    "alpha": np.array([0.5, 0.5]),
    "pi": np.array([0.5, 0.8]),
    "rel": 0,
    "lell": -1.0,
    "lc": 0.0,
    "neg": 0,
    "lfr": np.array([1.0, 0.5]),
    "lq": np.zeros(2),
    "sg": np.array([0.1, 0.0]),
    "E": 2,
    "feta": 1.0,
    "a": 1.0,
    "T": 5,
}


@dataclass
class Moments:
    """Exact expectations of one run."""

    opt_error: Any  # E[F_B(w̄_T)] − F_B*
    fk: list[np.ndarray]  # fk[t−1][a, k] = E[F_k(w_t) 1{A_t = a}] − ρ_a F_k(w_B*), t = 1..T
    fb: list[Any]  # E[F_B(w_t)] − F_B*, t = 1..T


@dataclass
class ChainRun:
    """One instance of the Theorem 2 setting (see the module docstring)."""

    inst: Instance
    server_lr: float = 1.0
    exact: bool = False
    _cache: dict[str, Any] = field(default_factory=dict)

    # --- parameters -------------------------------------------------------------------------
    @cached_property
    def n(self) -> int:
        return int(self.inst["n"])

    @cached_property
    def d(self) -> int:
        return int(self.inst["d"])

    @cached_property
    def r(self) -> float:
        return math.sqrt(10.0 ** float(self.inst["le"]) / self.L)

    @cached_property
    def h(self) -> np.ndarray:
        lk = np.asarray(self.inst["lk"], dtype=float)
        return self.L * 10.0 ** -(lk - lk.min())

    @cached_property
    def u(self) -> np.ndarray:
        raw = np.stack([self.inst["ua"], self.inst["ub"]], axis=1)[:, : self.d].astype(float)
        scale = np.maximum(1.0, np.linalg.norm(raw, axis=1, keepdims=True))
        return self.r * raw / scale

    @cached_property
    def w0(self) -> np.ndarray:
        raw = np.array([self.inst["wa"], self.inst["wb"]], dtype=float)[: self.d]
        return self.r * raw / max(1.0, float(np.linalg.norm(raw)))

    @cached_property
    def pi(self) -> np.ndarray:
        return np.asarray(self.inst["pi"], dtype=float)

    @cached_property
    def q(self) -> np.ndarray:
        return 10.0 ** np.asarray(self.inst["lq"], dtype=float)

    @cached_property
    def sigma(self) -> np.ndarray:
        return np.asarray(self.inst["sg"], dtype=float) * self.h * self.r

    @cached_property
    def E(self) -> int:
        return int(self.inst["E"])

    @cached_property
    def T(self) -> int:
        return int(self.inst["T"])

    @cached_property
    def a(self) -> float:
        return float(self.inst["a"])

    @cached_property
    def ell(self) -> float:
        """ln(1/λ(P)) = −ln(1 + (λ̄₂ − 1)/2) of the chain actually built (λ̄₂ = max_k |λ₂,ₖ|;
        log1p keeps it accurate to ~1e-16 relative as λ̄₂ → 1)."""
        slem = float(np.max(np.abs(self.lambda2)))
        return -math.log1p((slem - 1.0) / 2.0)

    @cached_property
    def ell_target(self) -> float:
        """The intended ln(1/λ(P)) of the slowest client (λ̄₂ = 2e^(−ℓ) − 1): 10^lell, or (rel = 1)
        10^lc·2C_PH/e with C_P of the same clients at λ̄₂ = ½ (C_P depends on the λ₂ only
        through coincidences), clipped to [10^LOG_ELL_MIN, ln 2]."""
        if not int(self.inst.get("rel", 0)):
            return 10.0 ** float(self.inst["lell"])
        from fltheory.markov.product import ProductChain

        log_C_P = ProductChain(self.pi, self._lambda2_at(0.5)).log_C_P
        ref = math.log(2.0) + log_C_P + math.log(self.constants["H"]) - 1.0
        log10_ell = float(self.inst["lc"]) + ref / math.log(10.0)
        return 10.0 ** min(max(log10_ell, LOG_ELL_MIN), math.log10(math.log(2.0)))

    def _lambda2_at(self, slem: float) -> np.ndarray:
        low = cq.lambda2_low(self.pi)
        lam = np.asarray(self.inst["lfr"], dtype=float) * slem
        lam[0] = -slem if int(self.inst["neg"]) else slem
        return np.where(lam >= low, lam, np.abs(lam))

    @cached_property
    def lambda2(self) -> np.ndarray:
        return self._lambda2_at(2.0 * math.exp(-self.ell_target) - 1.0)

    @property
    def Q(self) -> float:
        """‖q‖₁ as the bound sees it: the effective weights η̄q (reading R1)."""
        return self.server_lr * float(self.q.sum())

    @cached_property
    def L(self) -> float:
        """max_k h_k, set by η₁ = feta × the eq. 12 cap 1/(2L(1 + 2EQ))."""
        return float(self.inst["feta"]) / (2.0 * self.eta1 * (1.0 + 2.0 * self.E * self.Q))

    @cached_property
    def eta1(self) -> float:
        return 10.0 ** float(self.inst["leta"])

    def eta(self, t: Any) -> Any:
        return self.eta1 * np.asarray(t, dtype=float) ** -self.a

    # --- the problem and its constants -------------------------------------------------------
    @cached_property
    def p(self) -> np.ndarray:
        w = self.pi * self.q
        if not w.sum() > 0.0:
            raise NumericalError("πᵀq underflows to 0")
        return w / w.sum()

    @cached_property
    def w_B(self) -> np.ndarray:
        return (self.p * self.h) @ self.u / float(self.p @ self.h)

    @cached_property
    def w_star(self) -> np.ndarray:
        alpha = np.asarray(self.inst["alpha"], dtype=float)
        return (alpha * self.h) @ self.u / float(alpha @ self.h)

    @cached_property
    def r_W(self) -> float:
        noise = self.server_lr * self.E * float(self.q @ self.sigma)
        return W_SLACK * self.r + noise * float(np.sum(self.eta(np.arange(1, self.T + 1))))

    @cached_property
    def constants(self) -> dict[str, float]:
        """Sup-constants over W (Lemma 1): D, G (eq. 43), H (eq. 8), Γ (eq. 9), diam(W)."""
        reach = np.linalg.norm(self.u, axis=1) + self.r_W
        D = float(np.max(self.h * reach))
        G = math.sqrt(D * D + float(np.max(self.sigma)) ** 2)
        g_B = 0.5 * self.h * np.sum((self.w_B - self.u) ** 2, axis=1)
        H = float(np.max(np.maximum(0.5 * self.h * reach**2 - g_B, g_B)))
        Gamma = float(np.max(0.5 * self.h * np.sum((self.w_star - self.u) ** 2, axis=1)))
        return {"D": D, "G": G, "H": H, "Gamma": Gamma, "diameter": 2.0 * self.r_W}

    @cached_property
    def chain(self) -> Any:
        """The library's chain constants (C_P, λ(P), T_P, ln M) of the product chain."""
        from fltheory.markov.product import ProductChain

        return ProductChain(self.pi, self.lambda2).constants()

    @cached_property
    def log_K(self) -> float:
        """ln(2C_PH)."""
        log_C_P = self.chain.log_C_P
        if log_C_P is None:
            raise NumericalError("C_P unknown")
        return math.log(2.0) + log_C_P + math.log(self.constants["H"])

    @property
    def closed_form(self) -> bool:
        """Whether the series of eq. 179 is evaluated as a closed form plus a bound (2C_PH =
        K < 1/CLOSED_FORM_MIN and β = 1 − K/(eℓ) − K ≥ K; see :func:`delayed_series`)."""
        K = math.exp(self.log_K)
        beta = 1.0 - K / (math.e * self.ell) - K
        return -700.0 < self.log_K and 1.0 / K > CLOSED_FORM_MIN and beta >= K and self.a > 0.5

    def check_cost(self) -> None:
        """Decline instances whose certified series need more than MAX_SERIES_TERMS terms."""
        if self.closed_form:
            return
        need = self.series_cutoff() - self.t_neg
        if need > MAX_SERIES_TERMS:
            raise NumericalError(
                f"declined: the series of eq. 179 need ~{need:.2g} terms (2C_PH = "
                f"{math.exp(self.log_K):.2g}, ln(1/λ) = {self.ell:.2g})"
            )

    @property
    def t_neg(self) -> int:
        """Largest t with ln(2C_PHt) ≤ 0 (0 when 2C_PH ≥ 1)."""
        if self.log_K >= 0.0:
            return 0
        t = math.floor(math.exp(min(-self.log_K, 700.0)))
        while t > 1 and self.log_K + math.log(t) > 0.0:  # rounding at the edge
            t -= 1
        return t

    def series_cutoff(self) -> int:
        """n of :func:`delayed_series`: n ≥ 4/ℓ, ln(2C_PHn) ≥ 2 and n/2 ≥ ln(2C_PHn)/ℓ + 1."""
        log_K, ell = self.log_K, self.ell
        n = max(self.t_neg + 1, 2**12, math.ceil(math.exp(min(2.0 - log_K, 700.0))))
        n = max(n, math.ceil(min(4.0 / ell, 1e300)))
        for _ in range(2000):
            if n / 2.0 >= (log_K + math.log(n)) / ell + 1.0:
                return n
            n *= 2
        raise NumericalError("no cutoff for the series of eq. 179")

    def delays(self, t: np.ndarray) -> np.ndarray:
        """J_t = min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (eq. 132), computed here."""
        ratio = (self.log_K + np.log(np.asarray(t, dtype=float))) / self.ell
        j = np.maximum(np.ceil(ratio), float(self.chain.T_P))
        return np.minimum(j, np.asarray(t, dtype=float)).astype(np.int64)

    def problem_constants(self) -> Any:
        from fltheory.problems.constants import ProblemConstants

        c = self.constants
        return ProblemConstants(
            L=self.L,
            mu=float(self.h.min()),
            Gamma=c["Gamma"],
            D=c["D"],
            G=c["G"],
            H=c["H"],
            diameter=c["diameter"],
            sigma=self.sigma,
            alpha=np.asarray(self.inst["alpha"]),
            pi=self.pi,
        )

    # --- exact moments -----------------------------------------------------------------------
    def _num(self, x: Any) -> Any:
        if not self.exact:
            return np.asarray(x, dtype=float)
        return np.array(cq.to_mp(np.asarray(x, dtype=float).tolist()), dtype=object)

    def moments(self) -> Moments:
        """Run the moment recursion for t = 1..T (see the module docstring)."""
        n, d, M = self.n, self.d, 2**self.n
        num = self._num
        sets = cq.active_sets(n)
        member = num([[1.0 if k in s else 0.0 for k in range(n)] for s in sets])  # (M, n)
        conv = cq.to_mp if self.exact else (lambda x: [float(v) for v in x])
        P = np.array(
            cq.product_matrix(conv(self.pi), conv(self.lambda2)), dtype=m_dtype(self.exact)
        )
        rho = np.array(
            cq.product_matrix(conv(self.pi), conv([0.0] * n))[0], dtype=m_dtype(self.exact)
        )
        h, q, u, sig2 = num(self.h), num(self.q), num(self.u), num(self.sigma) ** 2
        w0, eta1, etabar = num(self.w0), num(self.eta1), num(self.server_lr)
        p = num(self.pi) * q
        p = p / p.sum()
        w_B = (p * h) @ u / (p @ h)
        zero = num(0.0)
        m = np.empty((M, d, 2), dtype=m_dtype(self.exact))
        m[:, :, 0] = rho[:, None] * w0[None, :]
        m[:, :, 1] = zero
        G = np.empty((M, 2, 2), dtype=m_dtype(self.exact))
        G[...] = zero
        G[:, 0, 0] = rho * (w0 @ w0)
        uu = np.einsum("kd,kd->k", u, u)
        g_uB = h * np.einsum("kd,kd->k", u - w_B[None, :], u - w_B[None, :]) / 2
        fk: list[np.ndarray] = []
        fb: list[Any] = []
        total_eta = zero
        for t in range(1, self.T + 1):
            eta = eta1 * (cq.to_mp(float(t)) ** -cq.to_mp(self.a) if self.exact else t**-self.a)
            # E[F_k(w_t) 1{a}] − ρ_a F_k(w_B*), F_k* = 0
            sq = G[:, 0, 0][:, None] - 2 * np.einsum("ad,kd->ak", m[:, :, 0], u) + rho[:, None] * uu
            fk.append(h[None, :] * sq / 2 - rho[:, None] * g_uB[None, :])
            ew = m[:, :, 0].sum(axis=0)
            fb.append((p @ h) * (G[:, 0, 0].sum() - 2 * (ew @ w_B) + w_B @ w_B) / 2)
            beta = 1 - eta * h
            b = 1 - beta**self.E
            nv = eta * eta * _geometric(eta * h, self.E, self.exact)
            C = 1 - etabar * (member @ (q * b))  # (M,)
            g = etabar * (member @ ((q * b)[:, None] * u))  # (M, d)
            N = etabar * etabar * (member @ (q * q * sig2 * nv))  # (M,)
            Phi = np.empty((M, 2, 2), dtype=m_dtype(self.exact))
            Phi[:, 0, 0], Phi[:, 0, 1], Phi[:, 1, 0], Phi[:, 1, 1] = C, eta, zero, 1 + zero
            Gx = np.empty((M, d, 2), dtype=m_dtype(self.exact))
            Gx[:, :, 0], Gx[:, :, 1] = g, zero
            new_m = np.einsum("adi,aij->adj", m, Phi) + rho[:, None, None] * Gx
            cross = np.einsum("aji,adj,adk->aik", Phi, m, Gx)
            new_G = (
                np.einsum("aji,ajk,akl->ail", Phi, G, Phi)
                + cross
                + np.transpose(cross, (0, 2, 1))
                + rho[:, None, None] * np.einsum("adi,adj->aij", Gx, Gx)
            )
            new_G[:, 0, 0] = new_G[:, 0, 0] + rho * N
            m = np.einsum("ab,adj->bdj", P, new_m)
            G = np.einsum("ab,aij->bij", P, new_G)
            total_eta = total_eta + eta
        ES = m[:, :, 1].sum(axis=0)
        ESS = G[:, 1, 1].sum()
        err = (ESS - 2 * total_eta * (ES @ w_B) + total_eta**2 * (w_B @ w_B)) / total_eta**2
        return Moments((p @ h) * err / 2, fk, fb)


def _geometric(x: Any, E: int, exact: bool) -> Any:
    """Σ_{j<E} β^(2j) with β = 1 − x, x ∈ (0, 1): (1 − β^(2E))/(1 − β²) via expm1 and log1p
    (no cancellation for tiny x), in floats or elementwise in mpmath."""
    if exact:
        import mpmath

        return np.array(
            [-mpmath.expm1(2 * E * mpmath.log1p(-xi)) / (xi * (2 - xi)) for xi in x], dtype=object
        )
    return -np.expm1(2 * E * np.log1p(-x)) / (x * (2 - x))


def m_dtype(exact: bool) -> Any:
    return object if exact else float


# --- an independent evaluation of the delayed series of eq. 179 --------------------------------
def _zeta_head(s: float, m: int, log_K: float) -> float:
    """Σ_{t=1}^{m} (ln K + ln t)·t^(−s) (mpmath Hurwitz zeta and its derivative)."""
    import mpmath

    if m <= 0:
        return 0.0
    if m < 10**5:
        t = np.arange(1, m + 1, dtype=float)
        return math.fsum(((log_K + np.log(t)) * t**-s).tolist())
    zs = mpmath.zeta(s) - mpmath.zeta(s, m + 1)
    dz = mpmath.zeta(s, 1, 1) - mpmath.zeta(s, m + 1, 1)  # −Σ ln t·t^(−s)
    return float(log_K * zs - dz)


def negative_head(run: ChainRun, terms: int = 2**14) -> float:
    """Σ_{t ≤ min(1/K, terms)} ln(Kt)·η_t² ≤ 0 (K = 2C_PH): the first terms of eq. 179 with
    J_t = 0 (T_P = 0), summed directly (a scale for the margins; not a bound)."""
    if run.log_K >= 0.0:
        return 0.0
    m = min(math.floor(math.exp(min(-run.log_K, 700.0))), terms)
    t = np.arange(1, m + 1, dtype=float)
    return run.eta1**2 * float(np.sum((run.log_K + np.log(t)) * t ** (-2.0 * run.a)))


def delayed_series(run: ChainRun, kind: str) -> tuple[float, float]:
    """(partial, certified tail) of Σ_{t≥1} f(t), computed here (not by fltheory.bounds):

    * ``"phi"`` (eq. 179): f(t) = ln(2C_PHt)·η²_{t−J_t}, with η₀ read as η₁;
    * ``"000"`` (000's eq. 13): f(t) = ln(2C_PHt)·η_t²·J_t.

    Product chains only (T_P = 0). On t ≤ 1/K (K = 2C_PH) J_t = 0: closed form in Hurwitz
    zeta values; then direct terms (math.fsum) up to n; past n, J_t ≤ ln(Kt)/ℓ + 1 ≤ t/2 and
    the terms are below c·ln(Kt)^m·t^(−2a), whose integral bounds the tail.

    When ``run.closed_form`` (K < 2⁻¹⁶, β = 1 − K/(eℓ) − K ≥ K) there are no direct terms: for
    t > 1/K, J_t ≤ ln(Kt)/ℓ + 1 ≤ Kt/(eℓ) + Kt (ln x ≤ x/e) so t − J_t ≥ βt, and the terms are
    below c²g(t) with g(x) = ln(Kx)^m·x^(−2a)·(β^(−2a) for "phi"), unimodal on [1/K, ∞): the
    sum is at most ∫_{1/K}^∞ g + max g, i.e. K^b·m!/b^(m+1) + (m/(2a))^m·e^(−m)·K^(2a)
    (b = 2a − 1; "000" adds the m = 2 bound divided by ℓ to the m = 1 one).
    """
    if run.chain.T_P != 0:
        raise NumericalError("the independent series needs T_P = 0 (product chains)")
    run.check_cost()
    log_K, ell, a, eta1 = run.log_K, run.ell, run.a, run.eta1
    p = 2.0 * a
    t_neg = run.t_neg
    head = eta1 * eta1 * _zeta_head(p, t_neg, log_K) if kind == "phi" else 0.0
    if run.closed_form:
        K, b = math.exp(log_K), p - 1.0
        one = K**b / b**2 + K**p / (p * math.e)  # ∫ + max of ln(Kx)·x^(−p)
        if kind == "phi":
            beta = 1.0 - K / (math.e * ell) - K
            return head, eta1 * eta1 * beta**-p * one
        two = 2.0 * K**b / b**3 + (2.0 / p) ** 2 * math.exp(-2.0) * K**p  # ln(Kx)²·x^(−p)
        return head, eta1 * eta1 * (two / ell + one)
    n = run.series_cutoff()
    t = np.arange(t_neg + 1, n + 1, dtype=np.int64)
    J = run.delays(t)
    ln = log_K + np.log(t.astype(float))
    if kind == "phi":
        terms = ln * run.eta(np.maximum(t - J, 1)) ** 2
    else:
        terms = ln * J * run.eta(t) ** 2
    partial = head + math.fsum(terms.tolist())
    b, Ln = p - 1.0, log_K + math.log(n)
    if kind == "phi":
        tail = 4.0**a * eta1**2 * n ** (-b) * (Ln / b + 1.0 / b**2)
    else:
        sq = Ln * Ln / b + 2.0 * Ln / b**2 + 2.0 / b**3
        tail = eta1**2 * n ** (-b) * (sq / ell + Ln / b + 1.0 / b**2)
    return partial, tail
