"""Section 5 of the report: the simulator against the theory on the same availability model.

The configured aggregation rule (``[problem] weights``: fixed q = α or q = α/π, CA-Fed eq. 3)
on quadratic clients of the small setting (whose exact Markov limit is computable), its running
time average with 95 % bands against that rule's exact limit, the simulated loss gap against
the exact stationary gap, the exact bias and the bias bounds, Lemma 16's envelope, and
Synthetic LEAF runs of three algorithms on the whole setting — all through
:func:`fltheory.simulate`. Bands of a non-negative quantity (a loss gap, a loss) are clipped
at 0, and say so.
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.markov.chain import MarkovChain
from fltheory.markov.clustered import ClusteredChain
from fltheory.markov.product import ProductChain
from fltheory.report.config import ReportConfig
from fltheory.report.setting import RULES, ReportSetting

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


#: Most states of the chain whose Lemma 16 envelope is drawn (300 dense steps of M³).
ENVELOPE_STATES = 64


def envelope_chain(setting: ReportSetting) -> tuple[MarkovChain, list[int]] | None:
    """(a chain small enough for the dense envelope, the clients it holds): one client of each
    of the first four groups (independent clients), the first four clusters, or a dense chain
    of at most :data:`ENVELOPE_STATES` states; None otherwise."""
    chain = setting.chain
    if isinstance(chain, ProductChain):
        present = [g for g in range(len(setting.group_names)) if (setting.labels == g).any()]
        idx = [int(np.flatnonzero(setting.labels == g)[0]) for g in present[:4]]
        return ProductChain(chain.client_availability[idx], chain.lambda2[idx]).dense(), idx
    if isinstance(chain, ClusteredChain):
        clusters = chain.cluster_chain
        k = min(4, clusters.n_clients)
        sub = ProductChain(clusters.client_availability[:k], clusters.lambda2[:k])
        first = [int(np.flatnonzero(np.asarray(chain.assignment) == c)[0]) for c in range(k)]
        return sub.dense(), first
    if isinstance(chain, MarkovChain) and chain.n_states <= ENVELOPE_STATES:
        return chain, list(range(chain.n_clients or 0))
    return None


def envelope_small(setting: ReportSetting) -> dict[str, Any] | None:
    """Lemma 16's envelope E(t) = max_ij |[Pᵗ]_ij − ρ_j| vs C_P λᵗ on a few clients of the
    setting (:func:`envelope_chain`; the dense envelope of 2^N states is out of reach)."""
    found = envelope_chain(setting)
    if found is None:
        return None
    chain, idx = found
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


def clipped(mean: float, half: float) -> tuple[float, float]:
    """The 95 % interval mean ± half of a non-negative quantity, its lower end clipped at 0.

    >>> clipped(0.5, 2.0)
    (0.0, 2.5)
    """
    return max(0.0, mean - half), mean + half


def simulation_section(
    cfg: ReportConfig,
    setting: ReportSetting,
    small: ReportSetting,
    u_small: np.ndarray,
    setup_small: Any,
    progress: Progress,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Section 5: the configured rule (fixed q of ``setup_small``) simulated on the small
    setting (quadratic clients), its running time average against that rule's exact limit,
    the simulated F(w) − F* against the exact stationary E[F(w)] − F*, the exact bias and the
    bias bounds, Lemma 16's envelope, and Synthetic LEAF runs on the whole setting."""
    from fltheory.api import aggregation_limit, bound_report, simulate

    s = cfg.simulation
    steps = cfg.problem.local_steps
    rule = RULES[cfg.problem.weights]
    progress(
        f"simulating {rule} on {small.n_clients} quadratic clients "
        f"({s.rounds} rounds × {s.seeds} runs)"
    )
    q = np.asarray(setup_small.q, dtype=float)
    sim = simulate(
        {
            "name": "report-quadratic",
            "seed": cfg.problem.seed,
            "seeds": s.seeds,
            "device": "cpu",
            "threads": 1,
            "run": {"rounds": s.rounds, "local_steps": steps},
            "problem": {"kind": "quadratic", "u": u_small.tolist()},
            "availability": small.simulation_table(),
            "algorithms": [
                {
                    "name": "fedavg",
                    "rule": "fixed",
                    "q": q.tolist(),
                    "lr": s.lr,
                    "server_lr": s.server_lr,
                }
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
        chain=small.chain,
        q=q,
        normalised=False,
        alpha=setup_small.alpha,
        lr=s.lr,
        local_steps=steps,
        server_lr=s.server_lr,
    )
    inside = bool(np.all(np.abs(final_mean - limit.limit) <= final_half + 1e-12))
    # Exact bias vs the bias bounds on the same clients, with the same rule.
    bounds = bound_report(setup_small)
    problem = setup_small.problem
    f_star = problem.F(problem.w_star)
    sim_gap = np.array([[problem.F(w) - f_star for w in r[burn:]] for r in server])
    gap_mean = float(sim_gap.mean())
    gap_half = float(_band(sim_gap.mean(axis=1, keepdims=True))[1][0])
    # F(w) − F* = ½‖w − w*‖² (identity Hessians, Σα = 1): its stationary mean is exact.
    stationary = None if limit.expected_sq_distance is None else 0.5 * limit.expected_sq_distance
    numbers = {
        "rule": rule,
        "q": q,
        "n_clients": small.n_clients,
        "clients_of_setting": setting.n_clients,
        "rounds": s.rounds,
        "seeds": s.seeds,
        "burn_in_rounds": burn,
        "time_average": final_mean,
        "time_average_ci95": final_half,
        "exact_limit": limit.limit,
        "limit_method": limit.method,
        "limit_inside_ci95": inside,
        "distance_time_average_to_limit": float(np.linalg.norm(final_mean - limit.limit)),
        "bias": {
            "exact": bounds.theorem1.exact,
            "exact_at_limit": float(problem.F(limit.limit) - f_star),
            "exact_stationary_gap": stationary,
            "theorem1": bounds.theorem1.value,
            "theorem3": bounds.theorem3.value,
            "theorem1_holds": bounds.theorem1.holds,
            "theorem3_holds": bounds.theorem3.holds,
            "simulated_gap_time_average": gap_mean,
            "simulated_gap_ci95": gap_half,
            "simulated_gap_interval": clipped(gap_mean, gap_half),
            "stationary_gap_inside_ci95": None
            if stationary is None
            else bool(abs(gap_mean - stationary) <= gap_half + 1e-12),
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
    numbers["lemma16_envelope"] = (
        None if env is None else {k: v for k, v in env.items() if k not in ("t", "E", "bound")}
    )
    if env is not None:
        series["envelope"] = {k: env[k] for k in ("t", "E", "bound", "T_P")}
    if s.leaf:
        progress(
            f"simulating Synthetic LEAF on {setting.n_clients} clients "
            f"({s.leaf_rounds} rounds × {s.leaf_seeds} runs)"
        )
        p = cfg.population
        table = setting.availability.table or setting.simulation_table()
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
                    "n_clients": setting.n_clients,
                    "ridge": 1e-2,
                    "alpha": "samples",
                },
                "availability": table,
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
            assert r.objective is not None, "this config records the objective"
            m, h = _band(r.objective)
            curves[r.label] = (np.asarray(r.eval_rounds) + 1, m, h)
            acc = r.accuracy
            leaf_numbers[r.label] = {
                "final_objective": float(m[-1]),
                "final_objective_ci95": float(h[-1]),
                "final_objective_interval": clipped(float(m[-1]), float(h[-1])),
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
