"""The report's figures: matplotlib (Agg, no pyplot state), Okabe–Ito colours, labelled axes with
units, legends outside the data, PNG bytes.

Each function takes the :class:`~fltheory.report.data.ReportData` and returns a
:class:`Figure` record (name, PNG bytes, alt text); :func:`all_figures` makes them all.
"""

import io
from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.report.data import ReportData
from fltheory.report.fmt import human

#: Okabe & Ito (2008), colour-blind safe: orange, sky blue, green, yellow, blue, vermilion,
#: purple, black.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
GROUP_COLOURS = tuple(OKABE_ITO[i] for i in (4, 1, 5, 0, 2, 6, 3, 7))
#: Marker of each group in line plots.
MARKERS = "osD^vP*X"
DPI = 110
#: Smallest legend text (points).
LEGEND_SIZE = 8


def exact_zero(value: float | None, scale: float | None) -> bool:
    """Whether ``value`` is 0 in exact arithmetic as far as a plot can tell: 0, or rounding
    noise below 10⁻¹² of ``scale`` (the trivial bound), as the tables say
    (:func:`fltheory.report.sections.zero_or`).

    >>> exact_zero(7.7e-33, 32.0), exact_zero(0.01, 32.0), exact_zero(0.0, None)
    (True, False, True)
    """
    if value is None:
        return False
    return value == 0.0 or (bool(scale) and abs(value) < 1e-12 * float(scale or 0.0))


def colour(g: int) -> str:
    """The colour of client group ``g`` (cycling past eight groups)."""
    return GROUP_COLOURS[g % len(GROUP_COLOURS)]


@dataclass(frozen=True)
class Figure:
    """One figure: file ``name`` (``.png``), its bytes and the alt text."""

    name: str
    png: bytes
    alt: str


def _mpl() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise InputError(
            "fltheory report draws its figures with matplotlib, which is not installed: "
            "pip install 'fltheory[plots]'"
        ) from None
    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure as MplFigure

    return MplFigure


def _style(ax: Any) -> None:
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _new(width: float, height: float, ncols: int = 1) -> tuple[Any, Any]:
    fig = _mpl()(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    for ax in axes:
        _style(ax)
    return fig, axes


def raster_figure(data: ReportData) -> Figure:
    """Section 1: who is available in each round, clients ordered by group."""
    raster = np.asarray(data.series["raster"], dtype=float)
    labels = np.asarray(data.series["labels"])
    order = np.argsort(labels, kind="stable")
    fig, (ax,) = _new(9.0, 3.6)
    ax.grid(False)
    ax.imshow(
        raster[:, order].T,
        aspect="auto",
        interpolation="nearest",
        cmap="Greys",
        origin="lower",
        extent=(0.5, raster.shape[0] + 0.5, -0.5, raster.shape[1] - 0.5),
    )
    groups = data.numbers["model"]["groups"]
    start = 0
    for g, group in enumerate(groups):
        ax.axhspan(
            start - 0.5,
            start + group["clients"] - 0.5,
            xmin=0,
            xmax=0.012,
            color=colour(g),
            label=f"{group['name']} (π = {human(group['pi'])})",
        )
        start += group["clients"]
        if g < len(groups) - 1:
            ax.axhline(start - 0.5, color=OKABE_ITO[5], linewidth=0.8)
    ax.set_xlabel("round t")
    ax.set_ylabel("client (ordered by group)")
    ax.set_title("Sampled availability: black = available")
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=LEGEND_SIZE,
        frameon=False,
        title="client group",
        title_fontsize=LEGEND_SIZE,
    )
    return Figure("availability_raster.png", _png(fig), "availability raster: rounds by clients")


def bounds_figure(data: ReportData) -> Figure:
    """Section 2: each bound (log₁₀) against the trivial bound and the exact value, and the
    shares of the terms of eq. 13."""
    b = data.numbers["bounds"]
    names = ("theorem1", "theorem3", "theorem2", "total")
    titles = (
        "Thm 1 bias (eq. 11)",
        "Thm 3 bias (eq. 15)",
        "Thm 2 opt. (eq. 13)",
        "Thm 1+2 total (eq. 10)",
    )
    fig, (ax, ax2) = _new(10.0, 3.6, 2)
    y = np.arange(len(names))
    trivial = b["total"]["trivial"]
    values = [-np.inf if exact_zero(b[n]["value"], trivial) else b[n]["log10_value"] for n in names]
    finite = [v if np.isfinite(v) else np.nan for v in values]
    ax.barh(y, finite, color=OKABE_ITO[4], label="bound")
    for i, v in enumerate(values):
        if v == -np.inf:  # a bound of exactly 0: no bar on a log scale, said in words
            ax.annotate(
                "= 0 (no bar on a log scale)", (0.55, i), fontsize=LEGEND_SIZE, va="center",
                ha="center", xycoords=("axes fraction", "data"),
            )  # fmt: skip
    ax.set_ylim(-0.6, len(names) - 0.4)
    exact = [b[n]["exact"] for n in names]
    for i, e in enumerate(exact):
        if e is not None and e > 0 and not exact_zero(e, trivial):
            ax.plot(
                np.log10(e), i, "D", color=OKABE_ITO[5], label="exact value" if i == 0 else None
            )
    if trivial:
        ax.axvline(
            np.log10(trivial),
            color=OKABE_ITO[7],
            linestyle="--",
            label=f"trivial bound ({human(trivial)})",
        )
    ax.set_yticks(y, titles, fontsize=8)
    ax.set_xlabel("log₁₀ of the bound (loss units)")
    ax.set_title("Bounds vs the trivial bound")
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(0.0, -0.22),
        fontsize=LEGEND_SIZE,
        frameon=False,
        ncol=3,
    )
    terms = b["theorem2"]["terms"]
    keys = list(terms)
    logs = [terms[k]["log10"] if terms[k]["log10"] is not None else 0.0 for k in keys]
    colours = [OKABE_ITO[5] if k == b["theorem2"]["dominant_term"] else OKABE_ITO[1] for k in keys]
    ax2.barh(np.arange(len(keys)), logs, color=colours)
    ax2.set_yticks(np.arange(len(keys)), [b["theorem2"]["term_names"][k] for k in keys], fontsize=8)
    ax2.set_xlabel("log₁₀ of the term (loss units)")
    ax2.set_title("Terms of eq. 13 (vermilion: dominant)", fontsize=10)
    return Figure("bounds.png", _png(fig), "bounds and the terms of eq. 13 on a log scale")


def weights_figure(data: ReportData) -> Figure:
    """Section 3: q* by client group along the κ̄² sweep, and the ε_opt / ε_bias trade-off."""
    w = data.numbers["weights"]
    sweep = [row for row in w["problem14"] if row["q_by_group"] is not None]
    kappa = np.array([row["kappa2"] for row in sweep], dtype=float)
    q = np.array([row["q_by_group"] for row in sweep])
    fig, (ax, ax2) = _new(10.0, 3.6, 2)
    x = np.log10(np.maximum(kappa, 1e-300))
    for g, name in enumerate(w["group_names"]):
        if q.size == 0:
            break
        ax.plot(
            x,
            q[:, g],
            color=colour(g),
            marker=MARKERS[g % len(MARKERS)],
            linestyle=("-", "--")[g % 2],
            markersize=max(3, 7 - g),
            label=name,
        )
    ax.set_xlabel("log₁₀ κ̄² (weight of the bias term)")
    ax.set_ylabel("Σ q* over the group")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("Problem 14: optimal weights by group")
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(0.0, -0.22),
        fontsize=LEGEND_SIZE,
        frameon=False,
        ncol=2,
    )
    opt = np.array([row["eps_opt"] or np.nan for row in sweep], dtype=float)
    bias = np.array([row["eps_bias"] if row["eps_bias"] is not None else np.nan for row in sweep])
    ok = np.isfinite(opt) & np.isfinite(bias) & (opt > 0) & (bias > 0)
    ax2.plot(np.log10(bias[ok]), np.log10(opt[ok]), "o-", color=OKABE_ITO[4])
    xs, ys = np.log10(bias[ok]), np.log10(opt[ok])
    # A label is about a quarter of the axis wide: keep each clear of those already placed.
    x_gap = max(4.0, 0.3 * float(np.ptp(xs))) if xs.size else 4.0
    y_gap = 0.12 * float(np.ptp(ys)) if ys.size else 0.0
    placed: list[tuple[float, float]] = []
    for xi, yi, k in zip(xs, ys, kappa[ok], strict=True):
        if any(abs(xi - x) < x_gap and abs(yi - y) <= y_gap for x, y in placed):
            continue  # keep the labels apart
        placed.append((xi, yi))
        ax2.annotate(
            f"κ̄² = {human(float(k), 2)}",
            (xi, yi),
            fontsize=LEGEND_SIZE,
            xytext=(4, 4),
            textcoords="offset points",
        )
    ax2.set_xlabel("log₁₀ ε̄_bias(q*) (loss units)")
    ax2.set_ylabel("log₁₀ ε̄_opt(q*) (loss units)")
    ax2.set_title("Trade-off along the κ̄² sweep")
    return Figure("weights.png", _png(fig), "optimal weights by group and the trade-off curve")


def limit_figure(data: ReportData) -> Figure:
    """Section 4: where aggregation converges (first two coordinates) against the optimum."""
    lim = data.numbers["limit"]
    fig, (ax,) = _new(6.4, 4.2)
    u = data.series.get("u")
    if u is not None:
        labels = np.asarray(data.series["labels"])
        y = u[:, 1] if u.shape[1] > 1 else np.zeros(len(u))
        present = [g for g in np.unique(labels)]
        for i, g in enumerate(present):
            m = labels == g
            ax.scatter(
                u[m, 0],
                y[m],
                s=12,
                color=colour(i),
                alpha=0.7,
                label=f"u_k: {data.numbers['model']['groups'][i]['name']}",
            )

    def xy(v: Any) -> tuple[float, float]:
        arr = np.asarray(v, dtype=float)
        return float(arr[0]), float(arr[1]) if arr.size > 1 else 0.0

    ax.plot(
        *xy(lim["bernoulli_fedavg_mean"]["optimum"]),
        "*",
        color=OKABE_ITO[7],
        ms=16,
        label="target optimum x* (mean of u_k)",
    )
    ax.plot(
        *xy(lim["bernoulli_fedavg_mean"]["limit"]),
        "s",
        color=OKABE_ITO[5],
        ms=9,
        label="limit, FedAvg mean rule (Prop. 1)",
    )
    ax.plot(
        *xy(lim["bernoulli_fixed_q"]["limit"]),
        "o",
        color=OKABE_ITO[6],
        ms=16,
        markerfacecolor="none",
        markeredgewidth=2,
        label=f"limit, {lim.get('rule', 'fixed q')}",
    )
    ax.set_xlabel("coordinate 1 of w (parameter units)")
    ax.set_ylabel("coordinate 2 of w (parameter units)")
    ax.set_title("Where aggregation converges")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=LEGEND_SIZE, frameon=False)
    return Figure("limit.png", _png(fig), "client optima, target optimum and limits")


def simulation_figure(data: ReportData) -> Figure:
    """Section 5: running time average vs the exact limit; bias; Lemma 16 envelope."""
    s = data.series
    sim = data.numbers["simulation"]
    fig, axes = _new(13.0, 3.8, 3)
    ax, ax2, ax3 = axes
    t = np.asarray(s["running_t"])
    mean, half, limit = (
        np.asarray(s["running_mean"]),
        np.asarray(s["running_half"]),
        s["exact_limit"],
    )
    for i in range(min(2, mean.shape[1])):
        c = OKABE_ITO[4] if i == 0 else OKABE_ITO[0]
        ax.plot(t, mean[:, i], color=c, label=f"simulated, coord. {i + 1}")
        ax.fill_between(
            t,
            mean[:, i] - half[:, i],
            mean[:, i] + half[:, i],
            color=c,
            alpha=0.25,
            label=f"95 % band, coord. {i + 1}",
        )
        ax.axhline(limit[i], color=c, linestyle="--", label=f"exact limit, coord. {i + 1}")
    ax.set_xlabel("round t")
    ax.set_ylabel("time average of w (parameter units)")
    ax.set_title(f"Time average vs exact limit ({sim['seeds']} runs)")
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(0.0, -0.2),
        fontsize=LEGEND_SIZE,
        frameon=False,
        ncol=2,
    )
    bias = sim["bias"]
    labels = ["simulated\nF(w) − F*", "exact\nstationary", "exact ε_bias", "Thm 1", "Thm 3"]
    vals = [
        bias["simulated_gap_time_average"],
        bias.get("exact_stationary_gap"),
        bias["exact"],
        bias["theorem1"],
        bias["theorem3"],
    ]
    colours = [OKABE_ITO[2], OKABE_ITO[0], OKABE_ITO[5], OKABE_ITO[4], OKABE_ITO[1]]
    scale = data.numbers["bounds"]["total"].get("trivial")
    vals = [0.0 if i >= 2 and exact_zero(v, scale) else v for i, v in enumerate(vals)]
    heights = [v if v is not None and v > 0 else np.nan for v in vals]
    ax2.bar(np.arange(len(vals)), heights, color=colours)
    low, high = bias.get("simulated_gap_interval") or (
        bias["simulated_gap_time_average"] - bias["simulated_gap_ci95"],
        bias["simulated_gap_time_average"] + bias["simulated_gap_ci95"],
    )
    mean_gap = bias["simulated_gap_time_average"]
    if mean_gap > 0:
        ax2.errorbar(
            [0],
            [mean_gap],
            yerr=[[mean_gap - max(low, mean_gap * 1e-3)], [high - mean_gap]],
            color=OKABE_ITO[7],
            capsize=4,
        )
    for i, v in enumerate(vals):
        if v is not None and v <= 0:  # an exact 0 has no bar on a log scale
            ax2.annotate(
                "0", (i, 0.02), xycoords=("data", "axes fraction"), ha="center",
                fontsize=LEGEND_SIZE,
            )  # fmt: skip
    ax2.set_yscale("log")
    ax2.set_xticks(np.arange(len(vals)), labels, fontsize=LEGEND_SIZE)
    ax2.set_ylabel("loss above F* (loss units)")
    ax2.set_title("Gap and bias: simulated, exact, bounds", fontsize=10)
    env = s.get("envelope")
    if env is None:
        ax3.set_axis_off()
        ax3.text(0.5, 0.5, "Lemma 16 envelope:\nchain too large to draw", ha="center")
    else:
        te = np.asarray(env["t"])
        ax3.semilogy(
            te,
            np.maximum(np.asarray(env["E"]), 1e-16),
            color=OKABE_ITO[4],
            label="E(t) = max |Pᵗ − ρ|",
        )
        ax3.semilogy(
            te, np.asarray(env["bound"]), color=OKABE_ITO[5], linestyle="--", label="C_P λᵗ"
        )
        ax3.set_xlabel("step t (rounds)")
        ax3.set_ylabel("distance to stationarity")
        ax3.set_title("Lemma 16 (eq. 5), a few clients", fontsize=10)
        ax3.legend(loc="lower left", fontsize=LEGEND_SIZE, frameon=False)
    return Figure("simulation.png", _png(fig), "time average vs exact limit, bias, envelope")


def leaf_figure(data: ReportData) -> Figure | None:
    """Section 5: Synthetic LEAF objective per algorithm with 95 % bands (None when not run)."""
    curves = data.series.get("leaf")
    if not curves:
        return None
    fig, (ax,) = _new(7.5, 3.6)
    for i, (label, (t, m, h)) in enumerate(curves.items()):
        c = OKABE_ITO[(4, 5, 2, 0, 6)[i % 5]]
        ax.plot(t, m, color=c, label=label)
        ax.fill_between(t, np.maximum(m - h, 0.0), m + h, color=c, alpha=0.25)
    ax.set_xlabel("round t")
    ax.set_ylabel("training objective F(w) (cross-entropy, nats)")
    ax.set_title("Synthetic LEAF, 95 % bands over runs (clipped at 0)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=LEGEND_SIZE, frameon=False)
    return Figure("synthetic_leaf.png", _png(fig), "Synthetic LEAF objective per algorithm")


def all_figures(data: ReportData) -> dict[str, Figure]:
    """Every figure by section key ("model", "bounds", "weights", "limit", "simulation",
    "leaf")."""
    figures = {
        "model": raster_figure(data),
        "bounds": bounds_figure(data),
        "weights": weights_figure(data),
        "limit": limit_figure(data),
        "simulation": simulation_figure(data),
    }
    leaf = leaf_figure(data)
    if leaf is not None:
        figures["leaf"] = leaf
    return figures
