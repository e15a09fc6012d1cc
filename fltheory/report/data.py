"""Every number of the report, computed once: six sections as one JSON-ready dict.

Each section is computed through the :mod:`fltheory.api` façade (chain_report, bound_report,
optimal_weights, aggregation_limit, simulate), :mod:`fltheory.markov` and the stored results of
``fltheory check`` (``docs/check_results.json``: the claims are read, not re-run, since the full
run takes minutes). Arrays needed only for the figures (the availability raster, the simulated
trajectories) go to :attr:`ReportData.series`, everything else to :attr:`ReportData.numbers`.
"""

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.markov.population import Population, ca_fed_population
from fltheory.report.config import ReportConfig
from fltheory.rng import generator

#: The stored verdicts of ``fltheory check`` (a source checkout has them).
CHECK_RESULTS = Path(__file__).resolve().parents[2] / "docs" / "check_results.json"

#: Claims of the papers that concern this setting, by report section.
CLAIMS_BY_SECTION: dict[str, tuple[str, ...]] = {
    "model": (
        "cafed:sec5a-population",
        "cafed:hitting-time-population",
        "cafed:eq229-slem",
        "cafed:prop6",
        "cafed:lemma16-eq5",
        "cafed:lemma16-eq156-cp",
        "cafed:lemma16-eq157-tp-a",
        "cafed:appf1-mixing-upper-reversible",
    ),
    "bounds": (
        "cafed:thm1-eq10-a",
        "cafed:thm1-eq10-b",
        "cafed:thm1-eq11",
        "cafed:thm2-eq13-proved",
        "cafed:thm2-eq13-printed-main",
        "cafed:thm3-eq15",
        "cafed:unbiased-zero-bias",
    ),
    "weights": (
        "cafed:problem14-convex-in-q",
        "cafed:problem14-convex-reparametrised",
        "cafed:appe1-convex",
        "cafed:guideline-a",
        "cafed:guideline-b-lambda",
        "cafed:guideline-b-bound",
        "cafed:guideline-c-tv",
        "cafed:guideline-c-eps-bias",
    ),
    "limit": (
        "fedpbc:prop1-expectation",
        "fedpbc:prop1-printed",
        "fedpbc:prop1-remark-uniform",
        "fedpbc:prop1-time-average",
        "cafed:eq4-limit-diminishing",
        "cafed:eq4-limit-constant-step",
    ),
}

#: progress(message): one line per long step.
Progress = Callable[[str], None]


def stderr_progress(message: str) -> None:
    """Write ``fltheory report: message`` on stderr (the default progress)."""
    sys.stderr.write(f"fltheory report: {message}\n")
    sys.stderr.flush()


@dataclass
class ReportData:
    """``numbers``: every number by section (JSON-ready after
    :func:`~fltheory.jsonable.to_jsonable`); ``series``: arrays for the figures only."""

    numbers: dict[str, Any]
    series: dict[str, Any] = field(default_factory=dict)


def _groups(population: Population) -> list[dict[str, Any]]:
    out = []
    for g, name in enumerate(population.group_names):
        mask = population.labels == g
        lam2 = population.lambda2[mask]
        out.append(
            {
                "name": name,
                "clients": int(mask.sum()),
                "pi": float(population.pi[mask].mean()),
                "lambda2_mean": float(lam2.mean()),
                "lambda2_min": float(lam2.min()),
                "lambda2_max": float(lam2.max()),
            }
        )
    return out


def population_of(cfg: ReportConfig, n: int | None = None) -> Population:
    """The config's CA-Fed preset population (with ``n`` clients instead when given).

    >>> population_of(ReportConfig(), 8).n_clients
    8
    """
    p = cfg.population
    return ca_fed_population(p.n if n is None else n, p.g, p.nu, p.eps, seed=p.seed, split=p.split)


def model_section(cfg: ReportConfig, population: Population) -> tuple[dict[str, Any], np.ndarray]:
    """Section 1: per-group π and λ₂, λ̄₂, λ(P), C_P, T_P, mixing and hitting times, and a
    sampled availability raster (rounds × clients)."""
    from fltheory.api import chain_report

    chain = population.chain()
    report = chain_report(chain)
    rounds = cfg.simulation.raster_rounds
    raster = chain.sample(rounds, generator(cfg.population.seed, "report/raster"))
    mix = report.mixing_time_bounds
    numbers = {
        "n_clients": report.n_clients,
        "log2_n_states": report.log_n_states / math.log(2.0),
        "groups": _groups(population),
        "slem": report.slem,
        "lambda": report.lam,
        "C_P": report.C_P,
        "log10_C_P": None if report.log_C_P is None else report.log_C_P / math.log(10.0),
        "C_P_minimal": report.C_P_minimal,
        "T_P": report.T_P,
        "T_P_safe": report.T_P_safe,
        # t with C_P λᵗ = 1: eq. 5 bounds nothing (a distance ≤ 1) before it.
        "informative_after": None
        if report.log_C_P is None or not 0.0 < report.lam < 1.0
        else max(0, math.ceil(report.log_C_P / -math.log(report.lam))),
        "relaxation_time": report.relaxation_time,
        "mixing_time": {"eps": mix.eps, "lower": mix.lower, "upper": mix.upper},
        "hitting_time": report.hitting_time,
        "warnings": list(report.warnings),
        "raster": {
            "rounds": rounds,
            "mean_active": float(raster.sum(axis=1).mean()),
            "observed_availability_by_group": [
                float(raster[:, population.labels == g].mean()) for g in range(4)
            ],
        },
    }
    return numbers, raster


def client_optima(cfg: ReportConfig, population: Population) -> np.ndarray:
    """u_k = ±spread·1 + N(0, I) (+ for the more available class), from the stream
    ``generator(problem.seed, "report/u")``.

    >>> client_optima(ReportConfig(), population_of(ReportConfig(), 8)).shape
    (8, 2)
    """
    p = cfg.problem
    noise = generator(p.seed, "report/u").normal(size=(population.n_clients, p.dim))
    sign = np.where(population.more_available, 1.0, -1.0)
    return noise + p.spread * sign[:, None]


def problem_setup(cfg: ReportConfig, population: Population, u: np.ndarray) -> Any:
    """The :class:`~fltheory.problems.ProblemSetup` of Theorems 1–3: quadratic clients
    ½‖w − u_k‖² on a ball of the config's diameter around 0, uniform α, q per ``weights``."""
    from fltheory.optimize.guidelines import unbiased_weights
    from fltheory.problems.config import QuadraticTable
    from fltheory.problems.setup import ProblemSetup
    from fltheory.problems.steps import StepSizes

    p = cfg.problem
    n = population.n_clients
    alpha = np.full(n, 1.0 / n)
    q = alpha.copy() if p.weights == "uniform" else unbiased_weights(alpha, population.pi, Q=1.0)
    sigma = np.full(n, p.sigma)
    table = QuadraticTable(u=u.tolist(), H_diag=np.ones_like(u).tolist(), diameter=p.diameter)
    problem, constants, center = table.build(alpha, population.pi, q, sigma)
    return ProblemSetup(
        constants=constants,
        chain=population.chain().constants(),
        pi=population.pi,
        alpha=alpha,
        q=q,
        local_steps=p.local_steps,
        Q=float(q.sum()),
        steps=StepSizes.power_law(p.eta1, p.power),
        rounds=p.rounds,
        problem=problem,
        center=center,
        kappa2=tuple(p.kappa2),
    )


def term_shares(terms: dict[str, float], log_terms: dict[str, float], parts: list[str]) -> dict:
    """Each of ``parts`` with its value, log₁₀ and share of their sum (from the logs, so that
    overflowing terms keep their shares).

    >>> s = term_shares({"a": 3.0, "b": 1.0}, {"a": math.log(3.0), "b": 0.0}, ["a", "b"])
    >>> s["a"]["share"], s["b"]["share"]
    (0.75, 0.25)
    """
    logs = {
        k: log_terms.get(k, math.log(terms[k]) if terms.get(k, 0) > 0 else -math.inf) for k in parts
    }
    top = max(logs.values())
    weights = {k: (0.0 if v == -math.inf else math.exp(v - top)) for k, v in logs.items()}
    total = sum(weights.values()) or 1.0
    return {
        k: {
            "value": terms.get(k),
            "log10": None if logs[k] == -math.inf else logs[k] / math.log(10.0),
            "share": weights[k] / total,
        }
        for k in parts
    }


#: The summed parts of each bound and their plain names.
BOUND_PARTS: dict[str, dict[str, str]] = {
    "theorem1": {
        "kappa_sq": "κ² (condition number squared)",
        "chi_square": "χ²(α‖p)",
        "Gamma": "Γ (heterogeneity at w*)",
    },
    "theorem2": {
        "fraction": "(½qᵀΣq + υ)/πᵀq (noise and Markov term)",
        "psi": "ψ (step-size sums)",
        "phi_over_log": "φ/ln(1/λ) (mixing term)",
    },
    "theorem3": {"kappa_sq": "κ²", "tv_distance": "d_TV(α, p)", "Gamma_prime": "Γ′"},
    "total": {"eps_opt": "ε_opt (Theorem 2)", "eps_bias": "ε_bias (Theorems 1/3)"},
}
#: Bounds whose terms multiply rather than add.
PRODUCTS = ("theorem1", "theorem3")


def _bound_entry(name: str, bound: Any) -> dict[str, Any]:
    parts = list(BOUND_PARTS[name])
    entry: dict[str, Any] = {
        "equation": bound.equation,
        "value": bound.value,
        "log10_value": bound.log_value / math.log(10.0),
        "exact": bound.exact,
        "holds": bound.holds,
        "vacuous": bound.vacuous,
        "trivial": bound.trivial,
        "combine": "product" if name in PRODUCTS else "sum",
        "conditions_failing": list(bound.conditions),
        "warnings": list(bound.warnings),
    }
    if name in PRODUCTS:
        entry["terms"] = {
            k: {"value": bound.terms.get(k), "log10": bound.log_terms.get(k, 0.0) / math.log(10)}
            for k in parts
        }
        entry["dominant_term"] = max(parts, key=lambda k: abs(bound.log_terms.get(k, 0.0)))
    else:
        entry["terms"] = term_shares(bound.terms, bound.log_terms, parts)
        entry["dominant_term"] = max(parts, key=lambda k: entry["terms"][k]["share"])
    entry["term_names"] = {k: BOUND_PARTS[name][k] for k in parts}
    if name == "theorem2":
        entry["v_parts"] = {
            k: bound.terms.get(k) for k in ("v_diam", "v_markov", "quad_form", "pi_q")
        }
    return entry


def bounds_section(setup: Any, population: Population) -> dict[str, Any]:
    """Section 2: Theorems 1–3 with each term's share, the dominant term, vacuity, and what
    would make the total non-vacuous (C_P = 1, i.e. no M = 2^N factor; a longer horizon T)."""
    from fltheory.api import bound_report

    report = bound_report(setup)
    out: dict[str, Any] = {name: _bound_entry(name, b) for name, b in report.results.items()}
    out["setup"] = {
        "n_clients": setup.n_clients,
        "rounds": setup.rounds,
        "local_steps": setup.local_steps,
        "Q": setup.Q,
        "kappa": setup.constants.kappa,
        "L": setup.constants.L,
        "mu": setup.constants.mu,
        "Gamma": setup.constants.Gamma,
        "diameter": setup.constants.diameter,
        "steps": setup.steps.describe(),
    }

    # Counterfactuals, each one bound evaluation with one constant changed.
    def total_with(**changes: Any) -> Any:
        chain = replace(setup.chain, **changes.pop("chain", {}))
        return bound_report(replace(setup, chain=chain, **changes)).total

    no_cp = total_with(chain={"log_C_P": 0.0})
    no_m = total_with(chain={"log_n_states": 0.0})
    # Largest N' whose M = 2^N' factor (everything else fixed) leaves the total informative.
    lo, hi = -1, population.n_clients
    if not no_m.vacuous:
        lo = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if total_with(chain={"log_n_states": mid * math.log(2.0)}).vacuous:
                hi = mid
            else:
                lo = mid
    horizons = []
    for k in (4, 6, 8):
        if 10**k > setup.rounds:
            longer = total_with(rounds=10**k)
            horizons.append(
                {
                    "rounds": 10**k,
                    "log10_value": longer.log_value / math.log(10.0),
                    "vacuous": longer.vacuous,
                }
            )
    first_useful = next((h["rounds"] for h in horizons if not h["vacuous"]), None)

    def brief(total: Any) -> dict[str, Any]:
        return {
            "value": total.value,
            "log10_value": total.log_value / math.log(10.0),
            "vacuous": total.vacuous,
        }

    log_c = setup.chain.log_C_P
    out["what_would_change"] = {
        "log10_C_P": None if log_c is None else log_c / math.log(10.0),
        "log2_M": setup.chain.log_n_states / math.log(2.0),
        "log10_factor_over_trivial": (
            None
            if report.total.trivial is None
            else (report.total.log_value - math.log(report.total.trivial)) / math.log(10.0)
        ),
        "total_if_C_P_were_1": brief(no_cp),
        "total_without_M_factor": brief(no_m),
        "largest_N_for_M_factor": None if lo < 0 else lo,
        "longer_horizons": horizons,
        "first_non_vacuous_rounds": first_useful,
        "n_clients": population.n_clients,
    }
    return out


def weights_section(setup: Any, population: Population) -> dict[str, Any]:
    """Section 3: q* of problems 14 (κ̄² sweep) and 212 by client group, Guidelines A–C."""
    from fltheory.api import optimal_weights
    from fltheory.errors import NumericalError
    from fltheory.optimize.guidelines import reduced_chain_lambda

    p212 = optimal_weights(setup, problem="212")
    labels = population.labels

    def by_group(q: np.ndarray) -> list[float]:
        return [float(q[labels == g].sum()) for g in range(4)]

    sweep: list[dict[str, Any]] = []
    for k2 in setup.kappa2:
        try:
            p14 = optimal_weights(setup, kappa2=k2)
        except NumericalError as err:  # one failed solve must not cost the whole report
            sweep.append({"kappa2": k2, "status": f"not solved: {err}", "q_by_group": None})
            continue
        res, at_q = p14.result, p14.objective_at_config_q[0]
        sweep.append(
            {
                "kappa2": k2,
                "status": res.status,
                "objective": res.objective,
                "objective_at_config_q": at_q,
                "q_by_group": by_group(res.q),
                "excluded": len(res.excluded),
                "eps_opt": res.extras.get("eps_opt"),
                "eps_bias": res.extras.get("eps_bias"),
            }
        )
    keep_a = population.more_available
    keep_b = ~population.correlated
    return {
        "group_names": list(population.group_names),
        "config_q_by_group": by_group(setup.q),
        "problem14": sweep,
        "problem212": {
            "q_by_group": by_group(p212.q),
            "excluded": len(p212.result.excluded),
            "eps_opt": p212.result.extras.get("eps_opt"),
            "threshold": p212.result.extras.get("threshold"),
        },
        "guidelines": {
            "A_excluded_by_problem212": sorted(
                {population.group_names[labels[k]] for k in p212.result.excluded}
            ),
            "B_lambda_all": population.chain().lam,
            "B_lambda_without_correlated": reduced_chain_lambda(
                population.pi, population.lambda2, keep_b
            ),
            "B_lambda_more_available_only": reduced_chain_lambda(
                population.pi, population.lambda2, keep_a
            ),
            "C_unbiased_q_by_group": by_group(
                (setup.alpha / population.pi) / np.sum(setup.alpha / population.pi)
            ),
        },
    }


def limit_section(
    cfg: ReportConfig, population: Population, small: Population, u: np.ndarray, u_small: np.ndarray
) -> dict[str, Any]:
    """Section 4: Proposition 1 (independent links with p = π) on the whole population, and
    the exact Markov limit (Kronecker, 2^N states) on the small population of section 5."""
    from fltheory.api import aggregation_limit

    s = cfg.simulation
    steps = cfg.problem.local_steps
    common: dict[str, Any] = {"lr": s.lr, "local_steps": steps, "server_lr": s.server_lr}
    out: dict[str, Any] = {"lr": s.lr, "local_steps": steps, "server_lr": s.server_lr}
    variants: tuple[tuple[str, dict[str, Any]], ...] = (
        ("fedavg_mean", {}),
        ("fixed_q_alpha", {"normalised": False}),
    )
    for key, kw in variants:
        bern = aggregation_limit(u, p=population.pi, **kw, **common)
        out[f"bernoulli_{key}"] = {
            "n_clients": population.n_clients,
            "limit": bern.limit,
            "optimum": bern.optimum,
            "distance": bern.distance,
            "rate": bern.rate,
            "weight_by_group": [float(bern.weights[population.labels == g].sum()) for g in range(4)]
            if bern.weights is not None
            else None,
        }
    markov = aggregation_limit(u_small, chain=small.chain(), normalised=False, **common)
    bern_small = aggregation_limit(u_small, p=small.pi, normalised=False, **common)
    out["markov_fixed_q_alpha"] = {
        "n_clients": small.n_clients,
        "limit": markov.limit,
        "optimum": markov.optimum,
        "distance": markov.distance,
        "rate": markov.rate,
        "stationary_mse": markov.stationary_mse,
        "method": markov.method,
        "bernoulli_limit_same_clients": bern_small.limit,
        "correlation_shift": float(np.linalg.norm(markov.limit - bern_small.limit)),
    }
    return out


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


def claims_section(path: Path = CHECK_RESULTS) -> dict[str, Any]:
    """Section 6: the verdicts of the claims in :data:`CLAIMS_BY_SECTION`, read from the
    stored results of ``fltheory check`` (not re-run)."""
    from fltheory.config.files import load_json

    if not path.is_file():
        return {"source": None, "note": f"{path} not found: run `fltheory check`", "claims": []}
    stored = load_json(path, "check results")
    by_id = {c["id"]: c for c in stored.get("claims", [])}
    rows = []
    for section, ids in CLAIMS_BY_SECTION.items():
        for cid in ids:
            claim = by_id.get(cid)
            if claim is None:
                continue
            rows.append(
                {
                    "section": section,
                    "id": cid,
                    "verdict": claim["verdict"],
                    "statement": claim["statement"],
                    "source": claim["source"],
                    "evaluations": claim.get("evaluations"),
                    "message": claim.get("message", ""),
                }
            )
    prov = stored.get("provenance", {})
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return {
        "source": str(path.name),
        "created": prov.get("created"),
        "git_commit": prov.get("git_commit"),
        "budget": prov.get("budget"),
        "note": "read from the stored results of `fltheory check`, not re-run",
        "counts": counts,
        "claims": rows,
    }


def compute(
    cfg: ReportConfig, progress: Progress = stderr_progress, claims_path: Path = CHECK_RESULTS
) -> ReportData:
    """All six sections for ``cfg``.

    >>> from fltheory.report.config import ReportConfig
    >>> cfg = ReportConfig.model_validate({"population": {"n": 8}, "problem": {"kappa2": [1.0]},
    ...     "simulation": {
    ...     "rounds": 20, "seeds": 2, "leaf": False, "limit_clients": 4, "raster_rounds": 10}})
    >>> data = compute(cfg, progress=lambda message: None)
    >>> sorted(data.numbers)
    ['bounds', 'claims', 'limit', 'model', 'simulation', 'timing', 'weights']
    """
    timing: dict[str, float] = {}
    started = time.perf_counter()

    def step(name: str) -> None:
        timing[name] = round(time.perf_counter() - started - sum(timing.values()), 3)

    population = population_of(cfg)
    progress(f"availability model of {population.n_clients} clients")
    model, raster = model_section(cfg, population)
    step("model")
    u = client_optima(cfg, population)
    setup = problem_setup(cfg, population, u)
    progress("bounds of Theorems 1-3")
    bounds = bounds_section(setup, population)
    step("bounds")
    progress("optimal weights (problems 14 and 212)")
    weights = weights_section(setup, population)
    step("weights")
    small = population_of(cfg, cfg.simulation.limit_clients)
    u_small = client_optima(cfg, small)
    progress(f"limits (Proposition 1; exact Markov limit on {small.n_clients} clients)")
    limit = limit_section(cfg, population, small, u, u_small)
    step("limit")
    simulation, series = simulation_section(cfg, small, u_small, progress)
    step("simulation")
    claims = claims_section(claims_path)
    step("claims")
    series["raster"] = raster
    series["u"] = u
    series["labels"] = population.labels
    series["kappa2"] = [row["kappa2"] for row in weights["problem14"]]
    return ReportData(
        numbers={
            "model": model,
            "bounds": bounds,
            "weights": weights,
            "limit": limit,
            "simulation": simulation,
            "claims": claims,
            "timing": timing,
        },
        series=series,
    )
