"""Problem (212): minimise (½ qᵀ diag(s) q + v) / πᵀq  s.t.  q ≥ 0, ‖q‖₁ = Q.

This is ε̄_opt of Theorem 2 (eq. 13) with the q-independent ψ + φ/ln(1/λ) dropped (eq. 208).
Two solvers:

* :func:`solve_cvxpy`: the perspective reformulation of Appendix E1 (eq. 214) with
  σ := 1/πᵀq and y := σq:  minimise ½ Σ s_k y_k²/σ + vσ  s.t.  y ≥ 0, πᵀy = 1, 1ᵀy = Qσ.
  ½·quad_over_lin(√s⊙y, σ) is the perspective of ½qᵀSq, so the problem is DCP.
* :func:`solve_closed_form`: the active-set solution of Appendix E2–E3, O(N log N).

Reading of Appendix E2–E3 implemented here (derived afresh from the KKT conditions in q, since
eqs. 225–227 still contain the unknown s* = 1/πᵀq* and so are not a closed form by themselves):
stationarity s_k q_k/D − (N/D²)π_k + μ − ω_k = 0 (N = ½qᵀSq + v, D = πᵀq) gives

    q_k* = (ι π_k − θ)₊ / s_k,  ι = N/D (the optimal value itself),  θ = μD = (v − ½q*ᵀSq*)/Q,

i.e. eq. 224 with a = 1/s_k. Clients are excluded iff π_k ≤ τ := θ/ι, so the active set is
always a set of MOST available clients, whatever s is (Guideline A). On an active set with sums
A_j = Σ π_k^j / s_k, the constraint 1ᵀq = Q and ι = N/D (i.e. ½ι²Σ(π_k − τ)²/s_k + ιτQ = v)
reduce to a quadratic in τ,

    (Q² + 2vA₀) τ² − 4vA₁ τ + (2vA₁² − Q²A₂)/A₀ = 0,

whose smaller root is the threshold (the larger exceeds the weighted mean A₁/A₀ of π, leaving
no client active); then ι = Q/(A₁ − τA₀). Scanning prefixes of π sorted in decreasing order
finds the unique consistent active set (O(N log N) for the sort, O(N) for the scan).

Degenerate clients with s_k = 0 (no noise cost): their stationarity forces θ ≥ ιπ_k, with
equality if q_k > 0. If the threshold of the s > 0 clients alone is below π_Z := max{π_k: s_k=0},
the optimum sets τ = π_Z, gives ι(π_k − π_Z)/s_k to s > 0 clients above it, and the rest of the
mass to the s = 0 clients with π_k = π_Z (split equally among ties; the optimum is not unique
then), where ι solves ½B₂ι² + π_Z Q ι − v = 0 with B₂ = Σ (π_k − π_Z)²/s_k.
"""

import time
import warnings

import cvxpy as cp
import numpy as np

from fltheory import checks
from fltheory.errors import NumericalError
from fltheory.optimize.objective import opt_fraction, opt_fraction_grad, structured_hessian
from fltheory.optimize.polish import refine
from fltheory.optimize.result import KKT_TOL, OptimizationResult, finalize

DEFAULT_SOLVER = "CLARABEL"
#: Clarabel's defaults (1e-8) leave q off by ~√(1e-8) on this flat objective; 1e-10 gets ~1e-6.
CLARABEL_TOLERANCES = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}
ACCEPTED_STATUSES = (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)


def _inputs(pi: object, s: object, v: object, Q: object) -> tuple:
    pi_arr = checks.availability(pi, allow_zero=False)
    return (
        pi_arr,
        checks.nonnegative_vector(s, "s", pi_arr.size),
        checks.positive(v, "v"),
        checks.positive(Q, "Q"),
    )


def _scan(pi: np.ndarray, s: np.ndarray, v: float, Q: float) -> tuple[np.ndarray, float]:
    """Closed form for clients with s > 0 only: (q, τ).

    For each prefix of π sorted decreasingly (A_j = Σ_prefix π^j/s, π̄ = A₁/A₀), the smaller root
    of the quadratic is τ = π̄ − δ with δ = (Q²A₂ + A₁√Δ)/(A₀(2vA₁ + √Δ)) > 0 and
    Δ = (Q²/A₀)(Q²A₂ + 2v(A₀A₂ − A₁²)); writing the gaps π_k − τ = (π_k − π̄) + δ this way
    keeps them accurate even when v ≫ sQ² pushes τ to within rounding of π_k.
    """
    order = np.argsort(-pi, kind="stable")
    ps = pi[order]
    a = 1.0 / s[order]
    d = ps - ps[0]  # ≤ 0; shifted sums avoid cancellation in π_k − π̄ and A₀A₂ − A₁²
    A0 = np.cumsum(a)
    S1 = np.cumsum(a * d)
    A1 = np.cumsum(a * ps)
    A2 = np.cumsum(a * ps**2)
    spread = np.maximum(A0 * np.cumsum(a * d**2) - S1**2, 0.0)
    root = np.sqrt((Q**2 / A0) * (Q**2 * A2 + 2.0 * v * spread))
    delta = (Q**2 * A2 + A1 * root) / (A0 * (2.0 * v * A1 + root))
    shift = delta - S1 / A0  # π_k − τ = d_k + shift
    last = d + shift  # gap of the prefix's least available client: must be > 0
    nxt = np.append(d[1:], -np.inf) + shift  # gap of the first client left out: must be ≤ 0
    valid = (last > 0.0) & (nxt <= 0.0)
    violation = np.maximum(np.maximum(-last, nxt), 0.0)
    m = int(np.argmax(valid)) if valid.any() else int(np.argmin(violation))
    # The chosen prefix again, without cancellation when 1/s spans many decades (the shifted
    # cumulative sums above lose A₀A₂ − A₁² and π_k − π̄ then): gaps π_k − π̄ from differences
    # to the heaviest client, the spread A₀Σa(π − π̄)² from the gaps.
    a_m, p_m = a[: m + 1], ps[: m + 1]
    ref = p_m[int(np.argmax(a_m))]
    A0_m, A1_m, A2_m = A0[m], A1[m], A2[m]
    off = float(np.dot(a_m, p_m - ref)) / A0_m  # π̄ − ref
    gaps = (p_m - ref) - off  # π_k − π̄
    spread_m = A0_m * float(np.dot(a_m, gaps**2))
    root_m = np.sqrt((Q**2 / A0_m) * (Q**2 * A2_m + 2.0 * v * spread_m))
    delta_m = (Q**2 * A2_m + A1_m * root_m) / (A0_m * (2.0 * v * A1_m + root_m))
    iota = Q / (A0_m * delta_m)
    q = np.zeros_like(pi)
    top = order[: m + 1]
    q[top] = np.maximum(iota * (gaps + delta_m) / s[top], 0.0)
    return q, float(ref + off - delta_m)


def closed_form_q(pi: np.ndarray, s: np.ndarray, v: float, Q: float) -> tuple[np.ndarray, float]:
    """The minimiser q* of problem (212) and the threshold τ* (clients with π_k ≤ τ* get 0).

    Inputs are assumed validated (see :func:`solve_closed_form`).
    """
    zero = s == 0.0
    pos = ~zero
    q = np.zeros_like(pi)
    tau = -np.inf
    if pos.any():
        q[pos], tau = _scan(pi[pos], s[pos], v, Q)
    if not zero.any():
        return q, tau
    pi_z = float(pi[zero].max())
    if pos.any() and tau >= pi_z:
        return q, tau
    q[:] = 0.0
    above = pos & (pi > pi_z)
    gap = pi[above] - pi_z
    b2 = float(np.sum(gap**2 / s[above]))
    iota = 2.0 * v / (pi_z * Q + np.sqrt((pi_z * Q) ** 2 + 2.0 * b2 * v))
    q[above] = iota * gap / s[above]
    rest = max(Q - float(q.sum()), 0.0)
    ties = np.flatnonzero(zero & (pi == pi_z))
    q[ties] = rest / ties.size
    return q, pi_z


def _certify(
    pi,
    s,
    v,
    Q,
    q,
    solver: str,
    seconds: float,
    extras=None,
    status: str = "optimal",
    kkt_tol: float = KKT_TOL,
) -> OptimizationResult:
    return finalize(
        q,
        problem="212",
        pi=pi,
        Q=Q,
        objective=lambda x: opt_fraction(x, pi, s, v),
        gradient=lambda x: opt_fraction_grad(x, pi, s, v),
        solver=solver,
        solve_time=seconds,
        status=status,
        extras=extras,
        kkt_tol=kkt_tol,
    )


def solve_closed_form(pi: object, s: object, v: object, Q: object) -> OptimizationResult:
    """Problem (212) by the active-set closed form; ``extras['threshold']`` is τ* = θ*/ι*.

    >>> res = solve_closed_form([0.9, 0.5, 0.1], [1.0, 1.0, 1.0], v=1.0, Q=1.0)
    >>> res.q.round(6).tolist(), res.excluded  # Guideline A: the least available goes
    ([0.826656, 0.173344, 0.0], (2,))
    """
    pi_a, s_a, v_f, Q_f = _inputs(pi, s, v, Q)
    start = time.perf_counter()
    q, tau = closed_form_q(pi_a, s_a, v_f, Q_f)
    seconds = time.perf_counter() - start
    extras = {"threshold": tau if np.isfinite(tau) else None}
    return _certify(pi_a, s_a, v_f, Q_f, q, "closed-form", seconds, extras)


def opt_term(
    z: cp.Variable, sigma: cp.Variable, s: np.ndarray, v: float, r: np.ndarray, Q: float
) -> cp.Expression:
    """(½ Σ s_k y_k²/σ + vσ)/c with y = r⊙z: the perspective of eq. 213, DCP.

    The change of scale y = r⊙z and the division by c = v + ½·max(s)·Q² (a bound on the
    numerator ½qᵀSq + v over the feasible set) keep the solver's numbers O(1) for any scale
    of (s, v); neither changes the minimiser.
    """
    c = v + 0.5 * float(np.max(s)) * Q**2
    expr = (v / c) * sigma
    pos = np.flatnonzero(s > 0.0)
    if pos.size:
        scaled = cp.multiply(np.sqrt(s[pos] / c) * r[pos], z[pos])
        expr = expr + 0.5 * cp.quad_over_lin(scaled, sigma)
    return expr


def build_cvxpy(pi: np.ndarray, s: np.ndarray, v: float, Q: float):
    """The DCP perspective problem (eq. 214) and (y, σ, r) with r = 1 (y = r⊙y).

    (Rescaling y to O(1) entries, r = 1/N, made Clarabel LESS accurate at N = 10⁴.)
    """
    r = np.ones(pi.size)
    z = cp.Variable(pi.size, nonneg=True)
    sigma = cp.Variable(nonneg=True)
    problem = cp.Problem(
        cp.Minimize(opt_term(z, sigma, s, v, r, Q)),
        [(pi * r) @ z == 1.0, r @ z == Q * sigma],
    )
    return problem, z, sigma, r


def recover_q(problem: cp.Problem, y: cp.Variable, sigma: cp.Variable, name: str) -> np.ndarray:
    """q = y/σ from a solved perspective problem, or NumericalError on any solver failure.

    "optimal_inaccurate" is let through: the caller's KKT check decides whether q is usable.
    """
    if problem.status not in ACCEPTED_STATUSES:
        raise NumericalError(f"problem {name}: cvxpy ended with status '{problem.status}'")
    if y.value is None or sigma.value is None or not float(sigma.value) > 0.0:
        raise NumericalError(f"problem {name}: cvxpy returned no usable (y, sigma)")
    return np.asarray(y.value, dtype=np.float64) / float(sigma.value)


def run_solver(problem: cp.Problem, solver: str, name: str) -> float:
    """Solve ``problem``; return the wall time in seconds (all attempts).

    Clarabel is tried with tight tolerances first; if it then stalls (its primal residual can
    plateau near 1e-8), it is re-run with its default tolerances. Whatever comes out is judged
    by the caller's KKT check.
    """
    attempts = [CLARABEL_TOLERANCES, {}] if solver == "CLARABEL" else [{}]
    start = time.perf_counter()
    for i, options in enumerate(attempts):
        try:
            with warnings.catch_warnings():  # "may be inaccurate": the KKT check decides
                warnings.simplefilter("ignore", UserWarning)
                problem.solve(solver=solver, **options)
        except cp.error.SolverError as err:
            if i + 1 == len(attempts):
                raise NumericalError(f"problem {name}: solver {solver} failed ({err})") from None
            continue
        if problem.status in ACCEPTED_STATUSES or i + 1 == len(attempts):
            break
    return time.perf_counter() - start


def solve_cvxpy(
    pi: object,
    s: object,
    v: object,
    Q: object,
    *,
    solver: str = DEFAULT_SOLVER,
    polish: bool = True,
    kkt_tol: float = KKT_TOL,
) -> OptimizationResult:
    """Problem (212) with cvxpy on the perspective form of Appendix E1.

    With ``polish`` the solver's q is refined by Newton steps on its support (module
    :mod:`fltheory.optimize.polish`); ``solver`` then reads e.g. "CLARABEL+newton" if kept.
    Without it, expect KKT residuals ~1e-6–1e-4 (raise ``kkt_tol`` to accept them).

    >>> res = solve_cvxpy([0.9, 0.5, 0.1], [1.0, 1.0, 1.0], v=1.0, Q=1.0)
    >>> res.q.round(6).tolist(), res.excluded  # the closed form's answer
    ([0.826656, 0.173344, 0.0], (2,))
    """
    pi_a, s_a, v_f, Q_f = _inputs(pi, s, v, Q)
    problem, z, sigma, r = build_cvxpy(pi_a, s_a, v_f, Q_f)
    seconds = run_solver(problem, solver, "212")
    q = r * recover_q(problem, z, sigma, "212")
    name = solver
    if polish:
        q, kept = refine(
            q,
            Q_f,
            lambda x: opt_fraction(x, pi_a, s_a, v_f),
            lambda x: opt_fraction_grad(x, pi_a, s_a, v_f),
            lambda x: structured_hessian(x, pi_a, s_a, v_f, 1.0),
        )
        name = f"{solver}+newton" if kept else solver
    return _certify(pi_a, s_a, v_f, Q_f, q, name, seconds, status=problem.status, kkt_tol=kkt_tol)
