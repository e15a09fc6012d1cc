"""Section 6 of the report, live: the papers' claims whose instance space holds the reader's
setting, evaluated *at* that setting, each with a short seeded search of its neighbourhood.

A margin is ≥ 0 exactly when the claim holds at an instance (as in :mod:`fltheory.claims`);
the claims and their margins here:

* ``cafed:thm1-eq11`` — ε_bias ≤ κ²χ²(α‖p)Γ (Theorem 1, eq. 11): bound − exact ε_bias on the
  reader's quadratic problem (identity Hessians), with the reader's weights q;
* ``cafed:thm3-eq15`` — ε_bias ≤ 4κ²d_TV²(α, p)Γ′ (Theorem 3, eq. 15): likewise;
* ``cafed:unbiased-zero-bias`` — q ∝ α/π gives ε_bias = 0 (Guideline C), for the unbiased rule:
  10⁻¹⁰ − ε_bias/trivial bound;
* ``cafed:lemma16-eq5`` — max_ij |[Pᵗ]_ij − ρ_j| ≤ C_P λ(P)ᵗ for t ≥ T_P (Lemma 16, eq. 5):
  1 − max_t E(t)/(C_P λᵗ) on the few clients whose dense chain is drawn in section 5;
* ``fedpbc:prop1-time-average`` — the long-run time average of one run is lim E[x_t] (FedPBC
  Proposition 1, its Markov extension): the 95 % half-width minus the distance of the simulated
  time average to the exact limit (section 5; statistical, no neighbourhood search).

The neighbourhood search perturbs the setting — π_k by up to ±10 % (kept in (0, 1)), λ₂,k by up
to ±0.05 (kept admissible), u_k by N(0, 0.1²)·spread — with the reader's weights q held fixed,
draws from ``generator(seed, "report/live/<claim>")`` and keeps the smallest margin found.
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.report.setting import ReportSetting
from fltheory.rng import generator

#: Perturbed instances tried around the setting, per claim.
NEIGHBOURS = 24
#: Margins ≥ −TOLERANCE count as holding (rounding noise of the float margins).
TOLERANCE = 1e-9


def _problem(u: np.ndarray, alpha: np.ndarray, pi: np.ndarray, q: np.ndarray) -> Any:
    from fltheory.problems.quadratic import QuadraticProblem

    return QuadraticProblem.from_diagonal(u, np.ones_like(u), 0.0, alpha, pi, q)


def _bias_margin(
    which: str, scale: float | None = None
) -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], dict]:
    """The margin of Theorem 1 (eq. 11) or 3 (eq. 15): bound − exact ε_bias; both sides below
    10⁻¹² of ``scale`` (the trivial bound) are 0 in exact arithmetic (the unbiased rule) and
    count as 0, of no tightness."""
    from fltheory.bounds.theorem1 import bias_bound_chi2
    from fltheory.bounds.theorem3 import bias_bound_tv

    bound_of = bias_bound_chi2 if which == "eq11" else bias_bound_tv

    def margin(u: np.ndarray, alpha: np.ndarray, pi: np.ndarray, q: np.ndarray) -> dict:
        result = bound_of(_problem(u, alpha, pi, q))
        exact = float(result.exact) if result.exact is not None else math.nan
        value = float(result.value)
        if scale and max(abs(value), abs(exact)) < 1e-12 * scale:
            return {"margin": 0.0, "value": 0.0, "exact": 0.0, "tightness": None}
        tight = exact / value if value > 0 and math.isfinite(value) else None
        return {"margin": value - exact, "value": value, "exact": exact, "tightness": tight}

    return margin


def _perturb(
    rng: np.random.Generator, u: np.ndarray, pi: np.ndarray, lam: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    spread = float(np.abs(u).max()) or 1.0
    pi2 = np.clip(pi * (1.0 + rng.uniform(-0.1, 0.1, pi.size)), 1e-3, 1.0 - 1e-3)
    u2 = u + 0.1 * spread * rng.normal(size=u.shape)
    if lam is None:
        return u2, pi2, None
    lam2 = lam + rng.uniform(-0.05, 0.05, lam.size)
    low = 1.0 - 1.0 / np.maximum(pi2, 1.0 - pi2)  # admissible two-state λ₂ (eq. 236)
    return u2, pi2, np.clip(lam2, low + 1e-6, 1.0 - 1e-6)


def _search(
    claim: str, seed: int, evaluate: Callable[[np.random.Generator], float]
) -> dict[str, Any]:
    rng = generator(seed, f"report/live/{claim}")
    worst = math.inf
    for _ in range(NEIGHBOURS):
        worst = min(worst, evaluate(rng))
    return {"evaluations": NEIGHBOURS, "worst_margin": worst, "holds": worst >= -TOLERANCE}


def _row(claim: str, at: dict[str, Any], nearby: dict[str, Any] | None, what: str) -> dict:
    return {
        "id": claim,
        "evaluated_on": what,
        "margin": at["margin"],
        "holds": bool(at["margin"] >= -TOLERANCE),
        "value": at.get("value"),
        "exact": at.get("exact"),
        "tightness": at.get("tightness"),
        "nearby": nearby,
    }


def _envelope_margin(chain: Any) -> dict[str, Any]:
    consts = chain.constants()
    env = chain.envelope(300)
    t = np.arange(env.values.size)[consts.T_P :]
    bound = np.exp((consts.log_C_P or 0.0) + t * math.log(consts.lam))
    ratio = float(np.max(env.values[consts.T_P :] / bound))
    return {"margin": 1.0 - ratio, "value": None, "exact": None, "tightness": ratio}


def live_claims(
    setting: ReportSetting,
    u: np.ndarray,
    alpha: np.ndarray,
    q: np.ndarray,
    rule: str,
    trivial: float | None,
    simulation: dict[str, Any],
    envelope: tuple[Any, list[int]] | None,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """The rows of the live section 6 (see the module docstring): for each claim its margin at
    the setting (``holds``, ``tightness`` = how much of the bound the exact side uses) and the
    worst margin of the neighbourhood search (``nearby``; None when there is none)."""
    from fltheory.markov.product import ProductChain

    pi = setting.pi
    lam = setting.lambda2
    rows = []
    for claim, which in (("cafed:thm1-eq11", "eq11"), ("cafed:thm3-eq15", "eq15")):
        margin = _bias_margin(which, trivial)
        at = margin(u, alpha, pi, q)

        def nearby(rng: np.random.Generator, margin: Any = margin) -> float:
            u2, pi2, _ = _perturb(rng, u, pi, None)
            return float(margin(u2, alpha, pi2, q)["margin"])

        what = f"your {setting.n_clients} clients, {rule}"
        rows.append(_row(claim, at, _search(claim, seed, nearby), what))
    if "unbiased" in rule and trivial:
        exact = float(_bias_margin("eq11")(u, alpha, pi, q)["exact"])
        at = {"margin": 1e-10 - abs(exact) / trivial, "exact": exact}
        rows.append(_row("cafed:unbiased-zero-bias", at, None, "your clients, q = α/π"))
    if envelope is not None:
        chain, idx = envelope
        at = _envelope_margin(chain)
        found = None
        if lam is not None and isinstance(setting.chain, ProductChain):
            sub_pi, sub_lam = pi[idx], lam[idx]

            def nearby_env(rng: np.random.Generator) -> float:
                _, pi2, lam2 = _perturb(rng, np.zeros((len(idx), 1)), sub_pi, sub_lam)
                assert lam2 is not None
                return float(_envelope_margin(ProductChain(pi2, lam2).dense())["margin"])

            found = _search("cafed:lemma16-eq5", seed, nearby_env)
        rows.append(_row("cafed:lemma16-eq5", at, found, f"{chain.n_states} states of your chain"))
    mean, half = simulation.get("time_average"), simulation.get("time_average_ci95")
    if mean is not None and half is not None:
        gap = np.abs(np.asarray(mean, dtype=float) - np.asarray(simulation["exact_limit"]))
        width = np.asarray(half, dtype=float)
        ratio = float(np.max(gap / np.where(width > 0, width, np.inf)))
        at = {"margin": float(np.min(width - gap)), "tightness": ratio}
        what = (
            f"section 5: your rule on your chain, {simulation['seeds']} runs (its Markov "
            "extension; 95 % band, statistical)"
        )
        rows.append(_row("fedpbc:prop1-time-average", at, None, what))
    return rows
