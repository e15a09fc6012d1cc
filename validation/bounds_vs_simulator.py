"""Bounds of :mod:`fltheory.bounds` (CA-Fed ToN Theorems 1–3) vs the PyTorch simulator.

Setup: a strongly convex quadratic problem (:class:`fltheory.problems.quadratic.QuadraticProblem`,
diagonal Hessians, c_k = 0) simulated in float64 with exact local gradients (σ_k = 0),
availability from independent two-state clients (a ``ProductChain`` / ``TwoStateChains``), and
CA-Fed eq. 3 with fixed weights q (simulator ``FedAvg(rule="fixed", q)``).

Mapping to the paper (eqs. 2–3): the simulator's local lr at 0-based round t is the paper's
η_{t+1}; ``Schedule(η₁, "inverse", t0=1)`` gives η₁/(1 + t) = η₁/t_paper, i.e. η_t = η₁/t^a with
a = 1 (eq. 12 holds: Σ η_t = ∞, Σ ln t·η_t² < ∞); the proof of Theorem 2 takes the server
lr η̄ = 1, and W is the ball of ``ServerOptions.diameter`` centred at 0 (the projection of eq. 3).
w̄_T = Σ_{t=1}^T η_t w_{t,0} / Σ η_t (eq. 13) is accumulated from w_{1,0} = w₀ and the models
after simulator rounds 0..T−2.

Checks (exit status 1 if any fails):
1. Theorem 2 (eq. 13): E[F_B(w̄_T) − F_B*] (mean + BAND·SE over independent seeds) ≤ ε̄_opt,
   with every hypothesis of the theorem satisfied; the ratio bound/measured is reported.
2. Theorem 1 (eq. 10) at every seed's final iterate: ε(w) ≤ 2κ²(ε_opt(w) + ε_bias), exact sides.
3. Bias bounds eq. 11 (χ²) and eq. 15 (TV) ≥ the exact ε_bias = F(w_B*) − F*.
4. CA-Fed eq. 4: with a faster decaying schedule, the long-run point approaches w_B*, the
   minimiser of F_B with p = π⊙q/πᵀq, and not w*: ‖seed mean of w_T − w_B*‖ ≤ 5% of ‖w* − w_B*‖.
"""

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.bounds.theorem1 import bias_bound_chi2, total_error_at
from fltheory.bounds.theorem2 import optimization_error_bound
from fltheory.bounds.theorem3 import bias_bound_tv
from fltheory.markov.product import ProductChain
from fltheory.problems.quadratic import QuadraticProblem
from fltheory.problems.steps import StepSizes
from fltheory.rng import generator
from fltheory.sim.algorithms import FedAvg
from fltheory.sim.availability import TwoStateChains
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

#: Monte Carlo band: ± this many standard errors across independent seeds.
BAND = 5.0
#: Check 4: the long-run point must be this close to w_B*, relative to ‖w* − w_B*‖.
LONG_RUN_RTOL = 0.05


@dataclass(frozen=True)
class BoundsCase:
    """A small instance: N clients, dimension d, E local steps, T rounds, R seeds."""

    n: int = 4
    d: int = 2
    E: int = 2
    T: int = 2000
    reps: int = 200
    long_rounds: int = 5000
    seed: int = 5

    def problem(self) -> QuadraticProblem:
        """u_k in [−2, 2]^d, H_k = diag in [1, 3], α uniform, π spread, q ∝ π (biased:
        p ∝ π², favouring the more available clients)."""
        rng = generator(self.seed, "validation/bounds-vs-sim/problem")
        u = rng.uniform(-2.0, 2.0, (self.n, self.d))
        h = rng.uniform(1.0, 3.0, (self.n, self.d))
        pi = np.linspace(0.3, 0.9, self.n)
        alpha = np.full(self.n, 1.0 / self.n)
        q = pi / pi.sum()
        return QuadraticProblem.from_diagonal(u, h, 0.0, alpha, pi, q)

    def lambda2(self) -> np.ndarray:
        return np.linspace(0.6, 0.1, self.n)

    @property
    def diameter(self) -> float:
        """W = ball at 0 containing every u_k (hence w*, w_B*) well inside."""
        u = self.problem().u
        return 2.0 * (float(np.linalg.norm(u, axis=1).max()) + 1.0)


def simulated(case: BoundsCase, problem: QuadraticProblem) -> tuple[QuadraticSim, TwoStateChains]:
    """The simulator problem (same u, α, diagonal H) and the availability process."""
    hess = np.diagonal(problem.H, axis1=1, axis2=2).copy()
    return QuadraticSim(problem.u.copy(), problem.alpha.copy(), hess), TwoStateChains(
        problem.pi.copy(), case.lambda2()
    )


def eps_opt_rows(problem: QuadraticProblem, w: np.ndarray) -> np.ndarray:
    """F_B(w) − F_B* for each row of w (quadratic identity ½ eᵀ(Σp_kH_k)e, e = w − w_B*)."""
    e = w - problem.w_B_star
    return 0.5 * np.einsum("ri,ij,rj->r", e, problem.hessian(problem.p), e)


def theorem2_check(case: BoundsCase) -> dict:
    """Simulate with the step sizes of Theorem 2 and compare E[F_B(w̄_T) − F_B*] with eq. 13."""
    problem = case.problem()
    sim, process = simulated(case, problem)
    Q = float(problem.q.sum())
    eta1 = 1.0 / (2.0 * problem.L * (1.0 + 2.0 * case.E * Q))  # eq. 12, with equality
    steps = StepSizes.power_law(eta1, 1.0)
    chain = ProductChain(problem.pi, case.lambda2())
    consts = problem.constants(np.zeros(case.d), case.diameter, 0.0)
    bound = optimization_error_bound(consts, chain.constants(), problem.q, case.E, steps, case.T)

    settings = SimSettings(rounds=case.T, local_steps=case.E, eval_every=case.T)
    setup = Setup(sim, process, settings, case.seed, case.reps)
    spec = AlgorithmSpec(
        "eq3-fixed-q",
        FedAvg(rule="fixed", q=problem.q),
        Schedule(eta1, "inverse", 1.0),
        ServerOptions(lr=1.0, diameter=case.diameter),
    )
    eta = steps.eta(np.arange(1, case.T + 1))
    acc = torch.as_tensor(setup.w0, dtype=torch.float64).expand(case.reps, -1) * eta[0]
    acc = acc.clone()

    def observe(t: int, w: torch.Tensor) -> None:
        if t + 2 <= case.T:  # after simulator round t the model is w_{t+2,0}
            acc.add_(w, alpha=float(eta[t + 1]))

    result = setup.run(spec, observe=observe)
    w_bar = acc.numpy() / eta.sum()
    gaps = eps_opt_rows(problem, w_bar)
    mean, se = float(gaps.mean()), float(gaps.std(ddof=1) / np.sqrt(case.reps))
    upper = mean + BAND * se
    final = result.final_w
    thm1 = [total_error_at(problem, w) for w in final]
    thm1_margin = min(r.value - r.exact for r in thm1)
    eps_bias = problem.eps_bias
    chi2, tv = bias_bound_chi2(problem), bias_bound_tv(problem)
    return {
        "eta1": eta1,
        "T": case.T,
        "T_P": int(bound.details["T_P"]),
        "conditions": bound.conditions,
        "bound": bound.value,
        "bound_vacuous": bool(bound.vacuous),
        "measured_mean": mean,
        "measured_se": se,
        "ratio_bound_over_measured": bound.value / mean,
        "thm2_ok": not bound.conditions and upper <= bound.value,
        "thm1_min_margin": thm1_margin,
        "thm1_ok": all(r.holds for r in thm1),
        "eps_bias": eps_bias,
        "eq11": chi2.value,
        "eq15": tv.value,
        "bias_ok": eps_bias <= chi2.value and eps_bias <= tv.value,
    }


def long_run_check(case: BoundsCase) -> dict:
    """w_T → w_B* (eq. 4) under a faster schedule η·t0/(t0 + t) (asymptotics, not eq. 12)."""
    problem = case.problem()
    sim, process = simulated(case, problem)
    settings = SimSettings(rounds=case.long_rounds, local_steps=case.E, eval_every=100)
    setup = Setup(sim, process, settings, case.seed + 1, case.reps)
    spec = AlgorithmSpec(
        "eq3-fixed-q",
        FedAvg(rule="fixed", q=problem.q),
        Schedule(0.1, "inverse", 20.0),
        ServerOptions(lr=1.0, diameter=case.diameter),
    )
    final = setup.run(spec).final_w
    point = final.mean(axis=0)
    gap = float(np.linalg.norm(problem.w_star - problem.w_B_star))
    to_b = float(np.linalg.norm(point - problem.w_B_star))
    return {
        "rounds": case.long_rounds,
        "point": point.tolist(),
        "w_B_star": problem.w_B_star.tolist(),
        "w_star": problem.w_star.tolist(),
        "dist_point_wB": to_b,
        "dist_point_wstar": float(np.linalg.norm(point - problem.w_star)),
        "mean_dist_wT_wB": float(np.linalg.norm(final - problem.w_B_star, axis=1).mean()),
        "dist_wstar_wB": gap,
        "long_run_ok": to_b <= LONG_RUN_RTOL * gap,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and rounds")
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    case = BoundsCase(T=400, reps=40, long_rounds=1500) if args.quick else BoundsCase()
    thm = theorem2_check(case)
    run = long_run_check(case)
    print(
        f"Theorem 2 (eq. 13), η_t = {thm['eta1']:.4g}/t, T = {thm['T']} (T_P = {thm['T_P']}): "
        f"E[F_B(w̄_T) − F_B*] = {thm['measured_mean']:.4g} ± {thm['measured_se']:.2g} (SE), "
        f"bound {thm['bound']:.4g} (ratio {thm['ratio_bound_over_measured']:.3g}"
        f"{', vacuous' if thm['bound_vacuous'] else ''}); hypotheses "
        f"{'hold' if not thm['conditions'] else thm['conditions']} -> "
        f"{'ok' if thm['thm2_ok'] else 'FAIL'}"
    )
    print(
        f"Theorem 1 (eq. 10) at the final iterates: min bound − ε = {thm['thm1_min_margin']:.4g}"
        f" -> {'ok' if thm['thm1_ok'] else 'FAIL'}"
    )
    print(
        f"bias: exact ε_bias = {thm['eps_bias']:.4g}, eq. 11 = {thm['eq11']:.4g}, "
        f"eq. 15 = {thm['eq15']:.4g} -> {'ok' if thm['bias_ok'] else 'FAIL'}"
    )
    print(
        f"eq. 4, after {run['rounds']} rounds: seed-mean w_T is {run['dist_point_wB']:.3g} from "
        f"w_B* and {run['dist_point_wstar']:.3g} from w* (‖w* − w_B*‖ = {run['dist_wstar_wB']:.3g}"
        f"; per-seed mean ‖w_T − w_B*‖ = {run['mean_dist_wT_wB']:.3g}) -> "
        f"{'ok' if run['long_run_ok'] else 'FAIL'}"
    )
    ok = thm["thm2_ok"] and thm["thm1_ok"] and thm["bias_ok"] and run["long_run_ok"]
    if args.json:
        payload = {"theorems": thm, "long_run": run, "quick": args.quick, "ok": ok}
        args.json.write_text(json.dumps(payload, indent=1))
    print("ALL AGREE" if ok else "DISAGREEMENT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
