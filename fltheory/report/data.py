"""Every number of the report, computed once: six sections as one JSON-ready dict.

Sections 1–4 are computed here through the :mod:`fltheory.api` façade (chain_report,
bound_report, optimal_weights, aggregation_limit) and :mod:`fltheory.markov`; section 5 in
:mod:`fltheory.report.simulation` (``fltheory.simulate``), section 6 in
:mod:`fltheory.report.claims` (the stored results of ``fltheory check``, not re-run). Arrays
needed only for the figures (the availability raster, the simulated trajectories) go to
:attr:`ReportData.series`, everything else to :attr:`ReportData.numbers`.
"""

import math
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.markov.population import Population
from fltheory.report.claims import CHECK_RESULTS, claims_section
from fltheory.report.config import ReportConfig
from fltheory.report.setting import client_optima, population_of, problem_setup
from fltheory.report.simulation import Progress, simulation_section
from fltheory.rng import generator

__all__ = ["CHECK_RESULTS", "Progress", "ReportData", "compute", "stderr_progress"]


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
