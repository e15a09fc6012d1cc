"""The comparison statistic: is the simulated long-run average inside a band around lim E[w_t]?

Per seed r (the repetitions draw from independent streams), the time average of the model over
the evaluated rounds after the burn-in is one sample ā_r ∈ R^d; by ergodicity E[ā_r] → lim E[w_t]
as the rounds grow. Over the R seeds, coordinate j has mean m_j and standard error
s_j = sd_j/√R. The test is a **two-sided one-sample Student t-test per coordinate with a
Bonferroni correction over the d coordinates** at family-wise level ``level`` (default 10⁻³):
the band around the exact limit is

    |m_j − lim_j| ≤ h_j = t_{R−1}(1 − level/(2d))·s_j + floor + τ_j,

with ``floor`` = 100·ε(dtype)·max(1, ‖lim‖∞, ‖w*‖∞), the rounding of the simulator's arithmetic,
and τ_j = 10·rate^b·|w0_j − lim_j| / ((1 − rate)·n), what the transient E[w_t] − lim =
O(rate^t) can still add to an average of n rounds after the burn-in b (10: a safety factor for
the non-normal Markov recursions). Both matter only for models that converge surely (FedPBC's
client mean, full participation), whose s_j ≈ 0. The verdict
is ``agrees`` when every coordinate lies in its band, ``disagrees`` otherwise, and
``inconclusive`` when the band cannot be trusted: fewer than two seeds, no evaluated round after
the burn-in, or a transient rate^burn-in above 10⁻³ (the mean recursion has not forgotten w₀).

The burn-in defaults to the first round b with rate^b ≤ 10⁻⁶ (at most half the rounds).
Whether the optimum w* lies in the same band says whether the run resolves the bias.
"""

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

#: Family-wise level of the Bonferroni-corrected t-test.
LEVEL = 1e-3
#: The automatic burn-in waits until rate^b is below this.
TRANSIENT_TOL = 1e-6
#: Above this rate^burn-in the verdict is inconclusive.
TRANSIENT_MAX = 1e-3
#: The numerical floor of the band, in units of the dtype's machine epsilon.
FLOOR_EPS = 100.0
#: Safety factor on the transient's bound rate^b·|w0 − lim|/((1 − rate)·n) in the band.
TRANSIENT_SAFETY = 10.0
#: Two-sided coverage of the per-round band drawn around the seed mean in the plot.
PLOT_COVERAGE = 0.95

AGREES, DISAGREES, INCONCLUSIVE = "agrees", "disagrees", "inconclusive"


def describe_test(level: float = LEVEL) -> str:
    """The test in words, for the outputs.

    >>> describe_test(0.01)[:40]
    'two-sided one-sample Student t-test per '
    """
    return (
        "two-sided one-sample Student t-test per coordinate of the per-seed time averages after "
        f"the burn-in, Bonferroni-corrected over the d coordinates, family-wise level {level:g}; "
        "band half-width h_j = t_{R-1}(1 - level/(2d)) * SE_j + numerical floor (100 eps) + "
        "transient allowance 10 rate^b |w0_j - lim_j| / ((1 - rate) n)"
    )


def auto_burn_in(rate: float, rounds: int) -> int:
    """The first round b with rate^b ≤ 10⁻⁶, at most half the rounds.

    >>> auto_burn_in(0.5, 1000), auto_burn_in(0.999, 1000), auto_burn_in(0.0, 10)
    (20, 500, 0)
    """
    if rate <= 0.0:
        return 0
    if rate >= 1.0:
        return rounds // 2
    return min(math.ceil(math.log(TRANSIENT_TOL) / math.log(rate)), rounds // 2)


@dataclass(frozen=True)
class Agreement:
    """The comparison of one model of one algorithm with its exact limit (see the module
    docstring): per coordinate the seed mean of the time averages, its standard error, the band
    half-width and the verdict; ``z`` = max_j |m_j − lim_j|/h_j (≤ 1: inside the band) and
    ``z_optimum`` the same for w*."""

    burn_in: int
    rounds_used: int
    seeds: int
    mean: np.ndarray
    se: np.ndarray
    half_width: np.ndarray
    z: float
    z_optimum: float
    transient: float
    verdict: str
    note: str


def _max_ratio(diff: np.ndarray, half: np.ndarray) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.abs(diff) / half
    return float(np.nanmax(ratio)) if np.isfinite(diff).all() else math.inf


def agreement(
    series: np.ndarray,
    eval_rounds: np.ndarray,
    limit: np.ndarray,
    optimum: np.ndarray,
    rate: float,
    burn_in: int,
    *,
    start: np.ndarray,
    eps: float,
    level: float = LEVEL,
) -> Agreement:
    """Compare ``series`` (R seeds, E evaluations, d), evaluated after the 1-based rounds
    ``eval_rounds``, with ``limit``; ``rate`` is the contraction of the mean recursion and
    ``start`` the model w0 it started from.

    >>> rng = np.random.default_rng(0)
    >>> series = 1.0 + 0.1 * rng.standard_normal((10, 200, 1))
    >>> a = agreement(series, np.arange(1, 201), np.array([1.0]), np.array([0.0]), 0.5, 20,
    ...               start=np.zeros(1), eps=1e-16)
    >>> a.verdict, a.z <= 1.0 < a.z_optimum
    ('agrees', True)
    """
    seeds, _, dim = series.shape
    kept = np.asarray(eval_rounds) > burn_in
    used = int(kept.sum())
    transient = float(rate) ** burn_in
    if used == 0:
        nan = np.full(dim, np.nan)
        return Agreement(burn_in, 0, seeds, nan, nan, nan, math.nan, math.nan, transient,
                         INCONCLUSIVE, "no evaluated round after the burn-in")  # fmt: skip
    averages = series[:, kept].astype(np.float64).mean(axis=1)
    mean = averages.mean(axis=0)
    scale = max(1.0, float(np.max(np.abs(limit))), float(np.max(np.abs(optimum))))
    floor = FLOOR_EPS * eps * scale
    if rate < 1.0:
        floor = floor + TRANSIENT_SAFETY * transient * np.abs(start - limit) / ((1 - rate) * used)
    if seeds < 2:
        se = np.full(dim, np.nan)
        half = se
    else:
        se = averages.std(axis=0, ddof=1) / math.sqrt(seeds)
        half = float(stats.t.ppf(1.0 - level / (2.0 * dim), seeds - 1)) * se + floor
    z, z_opt = _max_ratio(mean - limit, half), _max_ratio(mean - optimum, half)
    if seeds < 2:
        verdict, note = INCONCLUSIVE, "one seed: no confidence band (give seeds >= 2)"
    elif transient > TRANSIENT_MAX:
        verdict = INCONCLUSIVE
        note = (
            f"the mean recursion has not forgotten w0 (rate^burn-in = {transient:.2g} > "
            f"{TRANSIENT_MAX:g}): run more rounds or give a longer burn-in"
        )
    elif not np.isfinite(mean).all():
        verdict, note = DISAGREES, "the simulated iterate is not finite (diverged)"
    else:
        verdict, note = (AGREES, "") if z <= 1.0 else (DISAGREES, "")
    return Agreement(burn_in, used, seeds, mean, se, half, z, z_opt, transient, verdict, note)
