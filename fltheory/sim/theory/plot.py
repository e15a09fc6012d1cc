"""The overlay plot of ``fltheory simulate --theory``: simulation and exact limit on one axis.

One panel per model with a known limit: the simulated model coordinate per seed (thin grey
lines: the first 12 seeds, at most 400 evaluations each), the mean over all the seeds with its
per-round 95 % confidence band (Student t across the seeds), the exact lim E[w_t] (solid), the
target optimum w* (dashed) and the end of the burn-in (dotted). The coordinate shown is the one
where the limit and w* differ most (the bias); the verdict of :mod:`~fltheory.sim.theory.stats`
covers every coordinate. The algorithms without a known limit are listed under the panels.
matplotlib (the ``plots`` extra) draws it without pyplot's global state; Okabe–Ito colours; PNG
bytes.
"""

import io
import math
import textwrap
from typing import Any

import numpy as np
from scipy import stats

from fltheory.errors import InputError
from fltheory.sim.theory.compare import ModelComparison, TheoryComparison
from fltheory.sim.theory.stats import PLOT_COVERAGE

#: Okabe & Ito (2008): blue, vermilion, bluish green, black.
BLUE, VERMILION, GREEN, BLACK = "#0072B2", "#D55E00", "#009E73", "#000000"
SEED_GREY = "#8c8c8c"
DPI = 110
#: At most this many seeds are drawn one by one (all of them enter the mean and band).
MAX_SEED_LINES = 12
#: Evaluations drawn per line at most (a regular subsample: a PNG shows no more).
MAX_POINTS = 400


def require_matplotlib() -> None:
    """Refuse, in one line, when matplotlib is missing (before any simulation runs)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(
            "the theory-vs-simulation plot needs matplotlib, which is not installed: "
            "pip install 'fltheory[plots]'"
        ) from None


def _figure(width: float, height: float) -> Any:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _band(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, half-width of the per-round 95 % t-interval) across the seeds (axis 0)."""
    mean = data.mean(axis=0)
    seeds = data.shape[0]
    if seeds < 2:
        return mean, np.zeros_like(mean)
    t = float(stats.t.ppf(0.5 + PLOT_COVERAGE / 2.0, seeds - 1))
    return mean, t * data.std(axis=0, ddof=1) / math.sqrt(seeds)


def _limits(values: list[np.ndarray], fixed: list[float]) -> tuple[float, float] | None:
    """y-range: the central 99 % of the drawn values, widened to the fixed lines."""
    finite = np.concatenate([v[np.isfinite(v)].ravel() for v in values] + [np.array(fixed)])
    if finite.size == 0:
        return None
    lo, hi = np.percentile(finite, [0.5, 99.5])
    lo, hi = min(lo, *fixed), max(hi, *fixed)
    pad = 0.06 * (hi - lo) if hi > lo else 0.5 * max(abs(hi), 1.0)
    return float(lo - pad), float(hi + pad)


def _panel(ax: Any, c: ModelComparison, result: TheoryComparison) -> None:
    rounds, data = result.series[c.key]
    j, a = c.coordinate, c.agreement
    limit, optimum = float(c.exact.limit[j]), float(result.optimum[j])
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    drawn: list[np.ndarray] = []
    if data.size:
        step = max(1, math.ceil(len(rounds) / MAX_POINTS))
        coord = data[:, ::step, j].astype(np.float64)
        x = np.asarray(rounds)[::step]
        ax.plot(x, coord[:MAX_SEED_LINES].T, color=SEED_GREY, alpha=0.3, linewidth=0.6)
        mean, half = _band(coord)
        ax.fill_between(x, mean - half, mean + half, color=BLUE, alpha=0.3, linewidth=0)
        ax.plot(x, mean, color=BLUE, linewidth=1.6)
        drawn = [coord[:, 1:] if coord.shape[1] > 1 else coord]
    ax.axhline(limit, color=VERMILION, linewidth=2.0)
    ax.axhline(optimum, color=GREEN, linewidth=1.6, linestyle="--")
    if a.burn_in > 0:
        ax.axvline(a.burn_in, color=BLACK, linewidth=1.0, linestyle=":")
    span = _limits(drawn, [limit, optimum])
    if span is not None:
        ax.set_ylim(*span)
    ax.set_xlabel("round t", fontsize=10)
    ax.set_ylabel(f"model coordinate w_t[{j}]", fontsize=10)
    detail = (
        f"time avg {a.mean[j]:.4g} ± {a.half_width[j]:.2g} (test band), limit {limit:.4g}"
        if math.isfinite(a.half_width[j])
        else a.note
    )
    ax.set_title(f"{c.key}: {a.verdict}\n{detail}", fontsize=10)
    ax.tick_params(labelsize=9)


def _legend_handles() -> tuple[list[Any], list[str]]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Line2D([], [], color=SEED_GREY, alpha=0.6, linewidth=1.0),
        (Patch(color=BLUE, alpha=0.3, linewidth=0), Line2D([], [], color=BLUE, linewidth=1.6)),
        Line2D([], [], color=VERMILION, linewidth=2.0),
        Line2D([], [], color=GREEN, linewidth=1.6, linestyle="--"),
        Line2D([], [], color=BLACK, linewidth=1.0, linestyle=":"),
    ]
    labels = [
        "simulated, one line per seed",
        f"mean over seeds, {PLOT_COVERAGE:.0%} confidence band",
        "exact lim E[w_t] (theory)",
        "target optimum w* (eq. 1)",
        "end of burn-in",
    ]
    return handles, labels


def overlay_png(result: TheoryComparison) -> bytes:
    """The overlay plot as PNG bytes (one panel per model with a known limit).

    >>> from fltheory.sim.theory.compare import TheoryComparison
    >>> overlay_png(TheoryComparison(np.zeros(1), "links", 1e-3, "", (), ()))[:4]
    b'\\x89PNG'
    """
    panels = result.comparisons
    ncols = 1 if len(panels) <= 1 else 2
    nrows = max(1, math.ceil(len(panels) / ncols))
    notes = [f"{u.label} — {u.status}: {u.reason}" for u in result.unknown]
    wrapped = [textwrap.fill(n, 120 if ncols == 2 else 80) for n in notes]
    footer = sum(w.count("\n") + 1 for w in wrapped) + 1 if wrapped else 0
    height = 3.4 * nrows + 1.1
    fig = _figure(11.0 if ncols == 2 else 7.5, height + 0.2 * footer)
    top = fig
    if footer:
        top, bottom = fig.subfigures(2, 1, height_ratios=[height, 0.2 * footer])
        bottom.text(0.01, 0.95, "Not compared:\n" + "\n".join(wrapped), fontsize=9,
                    va="top", ha="left")  # fmt: skip
    axes = top.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, c in zip(axes, panels, strict=False):
        _panel(ax, c, result)
    for ax in axes[len(panels) :]:
        ax.set_axis_off()
    if not panels:
        axes[0].text(0.5, 0.5, "no algorithm with a known limit", ha="center", va="center")
    handles, labels = _legend_handles()
    top.legend(handles, labels, loc="outside lower center", ncols=3 if ncols == 2 else 2,
               fontsize=10, frameon=False)  # fmt: skip
    top.suptitle(f"Theory vs simulation: {result.availability}", fontsize=11)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()
