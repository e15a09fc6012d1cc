"""Problem (14): minimise c_opt·ε̄_opt(q) + c_bias·ε̄_bias(q)  s.t.  q ≥ 0, ‖q‖₁ = Q.

With ε̄_opt(q) = ((½qᵀdiag(s)q + v)/πᵀq + const)/denom (eq. 13) and ε̄_bias = Γ·χ²(α‖p(q))
(eq. 11), p = π⊙q/πᵀq. The paper's objective (14) is c_opt = c_bias = 1; other weights give
the κ̄²-style trade-off of Section IV (eq. 16).

DCP form, in the perspective variables of Appendix E1 (σ = 1/πᵀq, y = σq, so p = π⊙y and
πᵀy = 1): χ² = Σ_k α_k²/p_k − 2Σα_k + Σp_k = Σ_k (α_k²/π_k)·inv_pos(y_k) − 1, convex in y;
the opt term is ½·quad_over_lin(√s⊙y, σ) + vσ as in problem (212). The weights
w_opt = c_opt/denom and w_bias = c_bias·Γ are non-negative cvxpy Parameters multiplying convex
expressions, so the problem is DPP: :class:`Problem14` compiles once and re-solves cheaply.
Constant terms (c_opt·const/denom, −w_bias) are added back in numpy. For conditioning the
solver works with z = y/r, r = α/π (z = 1 at the unbiased point), so the bias term is
Σ α_k·inv_pos(z_k).

Every client with α_k > 0 gets q_k > 0 (χ² is infinite otherwise), so ``excluded`` is empty
unless some α_k = 0.
"""

import time

import cvxpy as cp
import numpy as np

from fltheory import checks
from fltheory.defaults import KAPPA2 as DEFAULT_KAPPA2
from fltheory.divergence import biased_importance, chi_square
from fltheory.errors import InputError, NumericalError
from fltheory.optimize.objective import (
    chi_square_grad,
    opt_fraction,
    opt_fraction_grad,
    structured_hessian,
)
from fltheory.optimize.polish import kkt_residual, newton_polish, refine
from fltheory.optimize.problem212 import (
    DEFAULT_SOLVER,
    closed_form_q,
    opt_term,
    recover_q,
    run_solver,
)
from fltheory.optimize.result import KKT_TOL, OptimizationResult, finalize

#: Scale floor (relative to 1/N) for clients with α_k ≈ 0 in the change of variables y = r⊙z.
ALPHA_FLOOR = 1e-3
#: Blend weights ε of the fallback starts (1 − ε)q*₂₁₂ + ε·q_unbiased.
BLENDS = (1e-2, 1e-4, 1e-6, 1e-9, 1e-12)


class Problem14:
    """Problem (14) for one instance (π, α, s, v, Q, Γ, const, denom), compiled once.

    >>> Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0).solve().q.round(6).tolist()
    [0.528135, 0.471865]
    """

    def __init__(
        self,
        pi: object,
        alpha: object,
        s: object,
        v: object,
        Q: object,
        *,
        gamma: object = 1.0,
        const: object = 0.0,
        denom: object = 1.0,
    ) -> None:
        self.pi = checks.availability(pi, allow_zero=False)
        n = self.pi.size
        alpha_arr = checks.simplex(alpha, "alpha", n)
        self.alpha = alpha_arr / alpha_arr.sum()  # the χ² term and the KKT check take Σα = 1
        self.s = checks.nonnegative_vector(s, "s", n)
        self.v = checks.positive(v, "v")
        self.Q = checks.positive(Q, "Q")
        self.gamma = checks.nonnegative(gamma, "gamma")
        self.const = checks.finite(const, "const")
        self.denom = checks.positive(denom, "denom")
        self._w_opt = cp.Parameter(nonneg=True)
        self._w_bias = cp.Parameter(nonneg=True)
        # y = r⊙z with r_k = α_k/π_k (the unbiased point in y-space, eq. 11): z = 1 there, so
        # the solver sees O(1) variables even when α spans many decades. Clients with α_k
        # below ALPHA_FLOOR/N use that floor instead.
        self._r = np.maximum(self.alpha, ALPHA_FLOOR / n) / self.pi
        self._opt_scale = self.v + 0.5 * float(np.max(self.s)) * self.Q**2  # see opt_term
        self._z = cp.Variable(n, nonneg=True)
        self._sigma = cp.Variable(nonneg=True)
        self._problem = cp.Problem(
            cp.Minimize(self._w_opt * self._opt_expr() + self._w_bias * self._bias_expr()),
            [(self.pi * self._r) @ self._z == 1.0, self._r @ self._z == self.Q * self._sigma],
        )

    @property
    def cvxpy_problem(self) -> cp.Problem:
        """The compiled DCP/DPP problem (for inspection; solve through :meth:`solve`).

        >>> prob = Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
        >>> prob.cvxpy_problem.is_dcp(dpp=True)
        True
        """
        return self._problem

    def _opt_expr(self) -> cp.Expression:
        """(½ Σ s_k y_k²/σ + vσ)/c with y = r⊙z (the first fraction of eq. 13, over c)."""
        return opt_term(self._z, self._sigma, self.s, self.v, self._r, self.Q)

    def _bias_expr(self) -> cp.Expression:
        """Σ (α_k²/π_k)/y_k = Σ α_k²/(π_k r_k z_k)  (= χ² + 1)."""
        pos = np.flatnonzero(self.alpha > 0.0)
        coeff = self.alpha[pos] ** 2 / (self.pi[pos] * self._r[pos])
        return cp.sum(cp.multiply(coeff, cp.inv_pos(self._z[pos])))

    def objective(self, q: np.ndarray, c_opt: float, c_bias: float) -> float:
        """The original objective c_opt·ε̄_opt(q) + c_bias·ε̄_bias(q), in numpy.

        >>> prob = Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
        >>> q = np.array([2 / 3, 1 / 3])  # unbiased: p = α, so ε̄_bias = 0
        >>> round(prob.objective(q, 1.0, 1.0), 6), round(prob.objective(q, 1.0, 0.0), 6)
        (1.916667, 1.916667)
        """
        eps_opt = (opt_fraction(q, self.pi, self.s, self.v) + self.const) / self.denom
        if c_bias * self.gamma == 0.0:  # χ² may be +inf where the term is switched off
            return c_opt * eps_opt
        eps_bias = self.gamma * chi_square(self.alpha, biased_importance(q, self.pi))
        return c_opt * eps_opt + c_bias * eps_bias

    def gradient(self, q: np.ndarray, c_opt: float, c_bias: float) -> tuple[np.ndarray, float]:
        """∇_q of :meth:`objective` and the largest magnitude of its terms.

        >>> prob = Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
        >>> grad, scale = prob.gradient(prob.solve().q, 1.0, 1.0)
        >>> round(float(grad[0] - grad[1]), 6)  # equal partials at an interior optimum (KKT)
        0.0
        """
        g_opt, scale_opt = opt_fraction_grad(q, self.pi, self.s, self.v)
        w_opt, w_bias = c_opt / self.denom, c_bias * self.gamma
        if w_bias == 0.0:
            return w_opt * g_opt, w_opt * scale_opt
        g_bias, scale_bias = chi_square_grad(q, self.pi, self.alpha)
        return w_opt * g_opt + w_bias * g_bias, max(w_opt * scale_opt, w_bias * scale_bias)

    def hessian(self, q: np.ndarray, c_opt: float, c_bias: float):
        """∇² of :meth:`objective` as diag + rank 2 (objective.structured_hessian).

        >>> prob = Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
        >>> diag, U, C = prob.hessian(np.array([0.5, 0.5]), 1.0, 1.0)
        >>> hessian = np.diag(diag) + U @ C @ U.T
        >>> bool(np.all(np.linalg.eigvalsh(hessian) >= 0.0))  # convex (Appendix D)
        True
        """
        w_opt, w_bias = c_opt / self.denom, c_bias * self.gamma
        return structured_hessian(q, self.pi, self.s, self.v, w_opt, self.alpha, w_bias)

    def _solve_cvxpy(
        self, c_opt: float, c_bias: float, solver: str, polish: bool, kkt_tol: float
    ) -> tuple[np.ndarray, str, float, str]:
        """(q, solver label, seconds, status): the DPP problem (+ Newton polish), with a fallback.

        When the solver fails or its (polished) answer misses ``kkt_tol`` — typically when one
        term dwarfs the other by many decades — Newton is also started from blends
        (1 − ε)q*₂₁₂ + ε·q_unbiased, ε ∈ :data:`BLENDS`, of the problem-212 closed form and
        Guideline C's weights; the candidate with the smallest KKT residual is returned.
        """
        value = lambda x: self.objective(x, c_opt, c_bias)  # noqa: E731
        grad = lambda x: self.gradient(x, c_opt, c_bias)  # noqa: E731
        hess = lambda x: self.hessian(x, c_opt, c_bias)  # noqa: E731
        self._w_opt.value = c_opt / self.denom * self._opt_scale
        self._w_bias.value = c_bias * self.gamma
        start = time.perf_counter()
        candidates: list[tuple[np.ndarray, str, str]] = []
        failure: NumericalError | None = None
        try:
            run_solver(self._problem, solver, "14")
            q = self._r * recover_q(self._problem, self._z, self._sigma, "14")
            label = solver
            if polish:
                q, kept = refine(q, self.Q, value, grad, hess)
                label = f"{solver}+newton" if kept else solver
            candidates.append((q, label, self._problem.status))
        except NumericalError as err:
            failure = err
        if polish and (not candidates or kkt_residual(candidates[0][0], grad, self.Q) > kkt_tol):
            q212, _ = closed_form_q(self.pi, self.s, self.v, self.Q)
            unbiased = np.maximum(self.alpha, ALPHA_FLOOR / self.pi.size) / self.pi
            unbiased *= self.Q / unbiased.sum()
            for eps in BLENDS:
                q0 = (1.0 - eps) * q212 + eps * unbiased
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    q = newton_polish(q0, np.ones(q0.size, dtype=bool), value, grad, hess)
                candidates.append((q, "newton from closed-form 212", "optimal"))
        seconds = time.perf_counter() - start
        if not candidates:
            raise failure or NumericalError("problem 14: no solution candidate")
        q, label, status = min(candidates, key=lambda c: kkt_residual(c[0], grad, self.Q))
        return q, label, seconds, status

    def solve(
        self,
        c_opt: float = 1.0,
        c_bias: float = DEFAULT_KAPPA2,
        *,
        solver: str = DEFAULT_SOLVER,
        polish: bool = True,
        kkt_tol: float = KKT_TOL,
    ) -> OptimizationResult:
        """Minimise c_opt·ε̄_opt + c_bias·ε̄_bias (c_bias = κ̄² of eq. 14, default
        :data:`~fltheory.optimize.DEFAULT_KAPPA2`); ``extras`` holds both terms and the weights.

        With ``polish`` the solver's q is refined by Newton steps (module
        :mod:`fltheory.optimize.polish`); ``solver`` then reads e.g. "CLARABEL+newton" if kept.
        Without it, expect KKT residuals ~1e-6–1e-4 (raise ``kkt_tol`` to accept them).
        With c_bias·Γ = 0 the problem is (212) and its closed form is used.

        >>> prob = Problem14([0.5, 1.0], [0.5, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
        >>> prob.solve(1.0, 0.0).q.round(6).tolist(), prob.solve(1.0, 0.0).solver  # (212)
        ([0.129171, 0.870829], 'closed-form')
        >>> prob.solve(1.0, 100.0).q.round(3).tolist()  # a heavy bias term: towards α/π
        [0.665, 0.335]
        """
        c_opt = checks.nonnegative(c_opt, "c_opt")
        c_bias = checks.nonnegative(c_bias, "c_bias")
        if c_opt == 0.0 and (c_bias == 0.0 or self.gamma == 0.0):
            raise InputError("problem 14 needs a positive weight on at least one error term")
        if c_bias * self.gamma == 0.0:
            # No bias term: this is problem (212) plus a constant; the inv_pos cones would only
            # keep y off 0 for nothing and make the interior-point solve ill-conditioned.
            start = time.perf_counter()
            q, _ = closed_form_q(self.pi, self.s, self.v, self.Q)
            seconds, name, status = time.perf_counter() - start, "closed-form", "optimal"
        else:
            q, name, seconds, status = self._solve_cvxpy(c_opt, c_bias, solver, polish, kkt_tol)
        result = finalize(
            q,
            problem="14",
            pi=self.pi,
            Q=self.Q,
            objective=lambda x: self.objective(x, c_opt, c_bias),
            gradient=lambda x: self.gradient(x, c_opt, c_bias),
            solver=name,
            solve_time=seconds,
            status=status,
            kkt_tol=kkt_tol,
        )
        eps_opt = (opt_fraction(result.q, self.pi, self.s, self.v) + self.const) / self.denom
        result.extras.update(
            c_opt=c_opt,
            c_bias=c_bias,
            eps_opt=eps_opt,
            eps_bias=self.gamma * chi_square(self.alpha, result.p),
        )
        return result


def solve(
    pi: object,
    alpha: object,
    s: object,
    v: object,
    Q: object,
    *,
    c_opt: float = 1.0,
    c_bias: float = 1.0,
    gamma: object = 1.0,
    const: object = 0.0,
    denom: object = 1.0,
    solver: str = DEFAULT_SOLVER,
    polish: bool = True,
    kkt_tol: float = KKT_TOL,
) -> OptimizationResult:
    """One-shot :class:`Problem14` solve (use the class directly to sweep c_opt, c_bias)."""
    problem = Problem14(pi, alpha, s, v, Q, gamma=gamma, const=const, denom=denom)
    return problem.solve(c_opt, c_bias, solver=solver, polish=polish, kkt_tol=kkt_tol)
