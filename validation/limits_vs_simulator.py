"""Limits of :mod:`fltheory.limits` vs the PyTorch simulator (:mod:`fltheory.sim`).

Checks, each on isotropic quadratics F_k = ½‖x − u_k‖² (the FedPBC counterexample):

(a) FedPBC paper, Proposition 1: FedAvg (mean over the active clients, η̄ = 1) under Bernoulli
    links with two groups p₀ ≠ p₁ — ``bernoulli_limit`` (lim E[x_t]) vs the simulator's time
    average of x_t over rounds [burn-in, T), averaged over independent seeds;
(b) Markov availability: two-state clients with λ₂ > 0 and CA-Fed eq. 3 with fixed,
    unnormalised q and server lr η̄ — ``product_markov_limit`` vs the simulator's time average.
    The theory predicts a correlation-induced shift away from the λ₂ = 0 point (= w_B*); the
    simulator must reproduce it;
(c) FedPBC (Algorithm 2, simulator ``FedPBC``): ``fedpbc_limit``'s stationary server mean vs
    the simulator, and the client-model mean x̄_t → x* (surely, at rate |1 − γ|).

Band: every coordinate of (seed mean − theory) must lie within ±BAND standard errors, the SE
taken across independent seeds (each seed's time average is one sample: the repetitions of
:class:`fltheory.sim.compare.Setup` use independent streams and exact gradients). The burn-ins
leave a transient below rate^burn_in < 1e-12 (mean-recursion rates ≈ 0.73, 0.78, 0.73). To show each
check can fail, the alternative (x* for (a), the λ₂ = 0 limit for (b)) must lie OUTSIDE the band.
``--json PATH`` saves the numbers; exit status 1 on any disagreement.
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

from fltheory.limits.aggregation import Aggregation, bernoulli_limit
from fltheory.limits.fedpbc import fedpbc_limit
from fltheory.limits.markov import product_markov_limit
from fltheory.rng import generator
from fltheory.sim.algorithms import FedAvg, FedPBC
from fltheory.sim.availability import BernoulliLinks, TwoStateChains
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

#: Monte Carlo band: ± this many standard errors (across independent seeds) per coordinate.
BAND = 5.0


@dataclass(frozen=True)
class Agreement:
    """Seed mean of the simulated long-run point vs theory, in standard-error units."""

    name: str
    theory: np.ndarray
    measured: np.ndarray
    se: np.ndarray
    alternative: np.ndarray | None = None

    @property
    def z(self) -> float:
        """max_i |measured_i − theory_i| / SE_i."""
        return float(np.max(np.abs(self.measured - self.theory) / self.se))

    @property
    def z_alternative(self) -> float | None:
        if self.alternative is None:
            return None
        return float(np.max(np.abs(self.measured - self.alternative) / self.se))

    @property
    def ok(self) -> bool:
        za = self.z_alternative
        return self.z <= BAND and (za is None or za > BAND)

    def to_dict(self) -> dict:
        alt = None if self.alternative is None else self.alternative.tolist()
        return {
            "name": self.name,
            "theory": self.theory.tolist(),
            "measured": self.measured.tolist(),
            "se": self.se.tolist(),
            "z": self.z,
            "alternative": alt,
            "z_alternative": self.z_alternative,
            "band": BAND,
            "ok": self.ok,
        }


def time_averages(setup: Setup, spec: AlgorithmSpec, burn_in: int) -> tuple[np.ndarray, object]:
    """((R, d) per-seed time averages of x_{t+1} over rounds t ∈ [burn_in, T), the RunResult)."""
    total = torch.zeros(setup.reps, setup.problem.n_params, dtype=torch.float64)

    def observe(t: int, w: torch.Tensor) -> None:
        if t >= burn_in:
            total.add_(w)

    result = setup.run(spec, observe=observe)
    return total.numpy() / (setup.settings.rounds - burn_in), result


def seed_mean(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, standard error) across the rows (independent seeds)."""
    return samples.mean(axis=0), samples.std(axis=0, ddof=1) / np.sqrt(samples.shape[0])


def two_group_problem(m: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(u, p): u_k drawn in [−1, 1]^d, group 0 shifted by +1 in coordinate 0 and given p₀ = 0.2,
    group 1 shifted by −1 and given p₁ = 0.8 — so FedAvg's bias is visible."""
    rng = generator(seed, "validation/limits-vs-sim/u")
    u = rng.uniform(-1.0, 1.0, (m, d))
    half = m // 2
    u[:half, 0] += 1.0
    u[half:, 0] -= 1.0
    p = np.where(np.arange(m) < half, 0.2, 0.8)
    return u, p


def check_bernoulli(
    *, m: int = 12, d: int = 2, lr: float = 0.1, steps: int = 3, rounds: int = 3000,
    burn_in: int = 100, reps: int = 400, seed: int = 1,
) -> Agreement:  # fmt: skip
    """(a) Proposition 1 (FedAvg, Bernoulli links) vs simulated FedAvg."""
    u, p = two_group_problem(m, d, seed)
    alpha = np.full(m, 1.0 / m)
    theory = bernoulli_limit(p, u, lr=lr, local_steps=steps).limit
    problem = QuadraticSim(u, alpha)
    settings = SimSettings(rounds=rounds, local_steps=steps, eval_every=rounds)
    setup = Setup(problem, BernoulliLinks(p), settings, seed, reps)
    spec = AlgorithmSpec("fedavg", FedAvg(rule="mean"), Schedule(lr))
    mean, se = seed_mean(time_averages(setup, spec, burn_in)[0])
    return Agreement("Proposition 1: FedAvg, Bernoulli links", theory, mean, se, problem.w_star)


def markov_instance(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(u, pi, q): two availability groups (π = 0.25 / 0.75) with u shifted apart, and
    unnormalised weights q ∝ 1/π scaled to Σq = 1 (the unbiased direction, CA-Fed Sec. III)."""
    rng = generator(seed, "validation/limits-vs-sim/markov-u")
    u = rng.uniform(-1.0, 1.0, (n, d))
    half = n // 2
    u[:half, 0] += 1.0
    u[half:, 0] -= 1.0
    pi = np.where(np.arange(n) < half, 0.25, 0.75)
    q = 1.0 / pi
    return u, pi, q / q.sum()


@dataclass(frozen=True)
class MarkovCase:
    """Parameters of check (b)."""

    n: int = 8
    d: int = 2
    lr: float = 0.5
    steps: int = 2
    server_lr: float = 1.5
    lambda2: float = 0.9
    rounds: int = 6000
    burn_in: int = 200
    reps: int = 200
    seed: int = 2

    def theory(self, lambda2: float | None = None) -> np.ndarray:
        u, pi, q = markov_instance(self.n, self.d, self.seed)
        agg = Aggregation(q=q, normalised=False, server_lr=self.server_lr)
        lam = np.full(self.n, self.lambda2 if lambda2 is None else lambda2)
        res = product_markov_limit(
            pi, lam, u, agg, lr=self.lr, local_steps=self.steps, second_moment=False
        )
        return res.limit

    def simulate(self, lambda2: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        u, pi, q = markov_instance(self.n, self.d, self.seed)
        lam = np.full(self.n, self.lambda2 if lambda2 is None else lambda2)
        problem = QuadraticSim(u, np.full(self.n, 1.0 / self.n))
        settings = SimSettings(rounds=self.rounds, local_steps=self.steps, eval_every=self.rounds)
        setup = Setup(problem, TwoStateChains(pi, lam), settings, self.seed, self.reps)
        spec = AlgorithmSpec(
            "eq3-fixed-q",
            FedAvg(rule="fixed", q=q),
            Schedule(self.lr),
            ServerOptions(lr=self.server_lr),
        )
        return seed_mean(time_averages(setup, spec, self.burn_in)[0])


def check_markov(case: MarkovCase | None = None) -> Agreement:
    """(b) product_markov_limit (λ₂ > 0, unnormalised q) vs simulation; the alternative is the
    λ₂ = 0 (i.i.d.) limit, which for a common local gain is w_B* = Σ π_k q_k u_k / πᵀq."""
    case = case or MarkovCase()
    mean, se = case.simulate()
    return Agreement(
        f"Markov availability (λ₂ = {case.lambda2}), eq. 3 with fixed q",
        case.theory(),
        mean,
        se,
        case.theory(0.0),
    )


def check_fedpbc(
    *, m: int = 12, d: int = 2, lr: float = 0.1, steps: int = 3, rounds: int = 3000,
    burn_in: int = 100, reps: int = 400, seed: int = 3,
) -> tuple[Agreement, float]:  # fmt: skip
    """(c) FedPBC: stationary server mean (``fedpbc_limit(...).server``) vs simulation, and the
    final distance max_seeds ‖x̄_T − x*‖ of the client-model mean (theory: ≤ |1 − γ|^T·‖x̄₀ − x*‖)."""
    u, p = two_group_problem(m, d, seed)
    alpha = np.full(m, 1.0 / m)
    lim = fedpbc_limit(p, u, lr=lr, local_steps=steps)
    problem = QuadraticSim(u, alpha)
    settings = SimSettings(rounds=rounds, local_steps=steps, eval_every=rounds)
    setup = Setup(problem, BernoulliLinks(p), settings, seed, reps)
    spec = AlgorithmSpec("fedpbc", FedPBC(), Schedule(lr))
    averages, result = time_averages(setup, spec, burn_in)
    mean, se = seed_mean(averages)
    client_mean_dist = float(np.max(result.extra["distance_client_mean"][:, -1]))
    agreement = Agreement("FedPBC server model, Bernoulli links", lim.server, mean, se)
    return agreement, client_mean_dist


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and rounds")
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if args.quick:
        kw = {"rounds": 600, "reps": 60}
        mcase = MarkovCase(rounds=1200, reps=40)
    else:
        kw, mcase = {}, MarkovCase()
    checks = [check_bernoulli(**kw), check_markov(mcase)]
    pbc, pbc_dist = check_fedpbc(**kw)
    checks.append(pbc)
    pbc_ok = pbc_dist < 1e-8
    for c in checks:
        za = c.z_alternative
        alt = "" if za is None else f", alternative at {za:.1f} SE"
        print(
            f"{c.name}: theory {np.round(c.theory, 5).tolist()}, simulated "
            f"{np.round(c.measured, 5).tolist()} ± {np.round(c.se, 5).tolist()} (SE); "
            f"max |Δ| = {c.z:.2f} SE (band {BAND:g}){alt} -> {'ok' if c.ok else 'FAIL'}"
        )
    shift = checks[1].theory - checks[1].alternative
    print(f"  correlation-induced shift (theory) = {np.round(shift, 5).tolist()}")
    print(f"FedPBC client mean: max over seeds ‖x̄_T − x*‖ = {pbc_dist:.2e} (< 1e-8 required)")
    ok = all(c.ok for c in checks) and pbc_ok
    if args.json:
        payload = {
            "checks": [c.to_dict() for c in checks],
            "markov_shift_theory": shift.tolist(),
            "fedpbc_client_mean_distance": pbc_dist,
            "quick": args.quick,
            "ok": ok,
        }
        args.json.write_text(json.dumps(payload, indent=1))
    print("ALL AGREE" if ok else "DISAGREEMENT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
