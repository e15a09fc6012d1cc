"""Section 5 of the report: the simulator against the theory on the same availability model.

FedAvg with fixed q = α on quadratic clients (the small population whose exact Markov limit is
computable), its running time average with 95 % bands against the exact limit, the simulated
loss gap against the exact bias and the bias bounds, Lemma 16's envelope, and Synthetic LEAF runs
of three algorithms on the whole population — all through :func:`fltheory.simulate`.
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.markov.population import Population
from fltheory.report.config import ReportConfig

#: progress(message): one line per long step.
Progress = Callable[[str], None]


def _band(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean over axis 0 (the R independent runs) and the 95 % half-width t_{R−1}·SD/√R.

    >>> mean, half = _band(np.array([[0.0], [2.0]]))
    >>> mean.tolist(), round(float(half[0]), 3)  # t_{0.975, 1} = 12.706
    ([1.0], 12.706)
    """
    from scipy.stats import t as student

    r = values.shape[0]
    quantile = float(student.ppf(0.975, r - 1))
    return values.mean(axis=0), quantile * values.std(axis=0, ddof=1) / math.sqrt(r)


def envelope_small(population: Population) -> dict[str, Any]:
    """Lemma 16's envelope E(t) = max_ij |[Pᵗ]_ij − ρ_j| vs C_P λᵗ on one client of each
    group (16 states; the dense envelope of 2^N states is out of reach for N = 100)."""
    from fltheory.markov.product import ProductChain

    idx = [int(np.flatnonzero(population.labels == g)[0]) for g in range(4)]
    chain = ProductChain(population.pi[idx], population.lambda2[idx]).dense()
    consts = chain.constants()
    env = chain.envelope(300)
    t = np.arange(env.values.size)
    bound = np.exp((consts.log_C_P or 0.0) + t * math.log(consts.lam))
    return {
        "clients": idx,
        "n_states": chain.n_states,
        "C_P": math.exp(consts.log_C_P) if consts.log_C_P is not None else None,
        "lambda": consts.lam,
        "slem": consts.slem,
        "T_P": consts.T_P,
        "t": t,
        "E": env.values,
        "bound": bound,
        "holds_from_T_P": bool(
            np.all(env.values[consts.T_P :] <= bound[consts.T_P :] * (1 + 1e-9))
        ),
        "max_ratio": float(np.max(env.values[consts.T_P :] / bound[consts.T_P :])),
    }


def simulation_section(
    cfg: ReportConfig,
    small: Population,
    u_small: np.ndarray,
    progress: Progress,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Section 5: FedAvg with fixed q = α on the small population (quadratic clients), its
    running time average against the exact limit, the simulated F(x̄) − F* against the exact
    bias and the bias bounds, Lemma 16's envelope, and Synthetic LEAF runs on the whole
    population."""
    from fltheory.api import aggregation_limit, bound_report, simulate

    s = cfg.simulation
    steps = cfg.problem.local_steps
    progress(
        f"simulating FedAvg on {small.n_clients} quadratic clients "
        f"({s.rounds} rounds × {s.seeds} runs)"
    )
    sim = simulate(
        {
            "name": "report-quadratic",
            "seed": cfg.problem.seed,
            "seeds": s.seeds,
            "device": "cpu",
            "threads": 1,
            "run": {"rounds": s.rounds, "local_steps": steps},
            "problem": {"kind": "quadratic", "u": u_small.tolist()},
            "availability": {
                "kind": "two_state",
                "pi": small.pi.tolist(),
                "lambda2": small.lambda2.tolist(),
            },
            "algorithms": [
                {"name": "fedavg", "rule": "fixed", "lr": s.lr, "server_lr": s.server_lr}
            ],
        }
    )
    run = sim.runs[0]
    server = np.asarray(run.models["server"], dtype=float)  # (R, T, d)
    burn = int(s.burn_in * server.shape[1])
    # Running time average from the burn-in on, per run: (R, T − burn, d).
    tail = server[:, burn:, :]
    running = np.cumsum(tail, axis=1) / np.arange(1, tail.shape[1] + 1)[None, :, None]
    mean, half = _band(running)
    final_mean, final_half = _band(running[:, -1, :])
    limit = aggregation_limit(
        u_small,
        chain=small.chain(),
        normalised=False,
        lr=s.lr,
        local_steps=steps,
        server_lr=s.server_lr,
    )
    inside = bool(np.all(np.abs(final_mean - limit.limit) <= final_half + 1e-12))
    # Exact bias vs the bias bounds on the same clients.
    from fltheory.report.setting import problem_setup

    setup = problem_setup(cfg, small, u_small)
    bounds = bound_report(setup)
    problem = setup.problem
    sim_gap = np.array(
        [[problem.F(w) - problem.F(problem.w_star) for w in r[burn:]] for r in server]
    )
    numbers = {
        "n_clients": small.n_clients,
        "rounds": s.rounds,
        "seeds": s.seeds,
        "burn_in_rounds": burn,
        "time_average": final_mean,
        "time_average_ci95": final_half,
        "exact_limit": limit.limit,
        "limit_inside_ci95": inside,
        "distance_time_average_to_limit": float(np.linalg.norm(final_mean - limit.limit)),
        "bias": {
            "exact": bounds.theorem1.exact,
            "theorem1": bounds.theorem1.value,
            "theorem3": bounds.theorem3.value,
            "theorem1_holds": bounds.theorem1.holds,
            "theorem3_holds": bounds.theorem3.holds,
            "simulated_gap_time_average": float(sim_gap.mean()),
            "simulated_gap_ci95": float(_band(sim_gap.mean(axis=1, keepdims=True))[1][0]),
        },
        "seconds": run.seconds,
    }
    series: dict[str, Any] = {
        "running_t": np.arange(burn + 1, server.shape[1] + 1),
        "running_mean": mean,
        "running_half": half,
        "exact_limit": limit.limit,
    }
    env = envelope_small(small)
    numbers["lemma16_envelope"] = {k: v for k, v in env.items() if k not in ("t", "E", "bound")}
    series["envelope"] = {k: env[k] for k in ("t", "E", "bound", "T_P")}
    if s.leaf:
        progress(
            f"simulating Synthetic LEAF on {cfg.population.n} clients "
            f"({s.leaf_rounds} rounds × {s.leaf_seeds} runs)"
        )
        p = cfg.population
        leaf = simulate(
            {
                "name": "report-leaf",
                "seed": p.seed,
                "seeds": s.leaf_seeds,
                "device": "cpu",
                "threads": 1,
                "run": {"rounds": s.leaf_rounds, "local_steps": 2, "batch_size": 32},
                "problem": {
                    "kind": "synthetic_leaf",
                    "gamma": 0.5,
                    "delta": 0.5,
                    "n_clients": p.n,
                    "ridge": 1e-2,
                    "alpha": "samples",
                },
                "availability": {
                    "kind": "ca_fed",
                    "g": p.g,
                    "nu": p.nu,
                    "eps": p.eps,
                    "split": p.split,
                },
                "algorithms": [
                    {"name": "unbiased", "lr": 0.03, "server_lr": 5.0},
                    {"name": "more_available", "lr": 1.0, "server_lr": 2.0},
                    {
                        "name": "ca_fed",
                        "kappa2": 1.0,
                        "tau": 0.0,
                        "beta": 1.0,
                        "lr": 0.03,
                        "server_lr": 5.0,
                    },
                ],
            }
        )
        curves = {}
        leaf_numbers = {}
        for r in leaf.runs:
            m, h = _band(r.objective)
            curves[r.label] = (np.asarray(r.eval_rounds) + 1, m, h)
            acc = r.accuracy
            leaf_numbers[r.label] = {
                "final_objective": float(m[-1]),
                "final_objective_ci95": float(h[-1]),
                "final_accuracy": None if acc is None else float(acc[:, -1].mean()),
                "inclusion_rate": float(r.included.mean()),
            }
        numbers["synthetic_leaf"] = {
            "rounds": s.leaf_rounds,
            "seeds": s.leaf_seeds,
            "algorithms": leaf_numbers,
        }
        series["leaf"] = curves
    return numbers, series
