"""Drawing an experiment's panels: each panel's PNG from the CSV rows the runner computed
(:func:`fltheory.experiments.runner.panel_rows`). The runner computes and writes results; the
command line hands :func:`panel_png` to :func:`~fltheory.experiments.runner.write_reproduction`
to draw them (matplotlib is imported only here, and only when a panel is drawn).

>>> png = panel_png(Panel("accuracy", "accuracy", "t"), [["label", "t", "mean", "sd"],
...                 ["a", 1, 0.5, 0.1], ["a", 2, 0.6, 0.1]], "title")
>>> png[:4]
b'\\x89PNG'
"""

import io
import textwrap
from typing import Any

import numpy as np

from fltheory.experiments.model import Panel

#: Legend entries drawn inside the axes; more go in columns right of them (a grown figure).
LEGEND_INSIDE = 8
#: Legend entries per column outside the axes.
LEGEND_ROWS = 24


def _legend(fig: Any, ax: Any) -> None:
    """The axes' legend: inside for a few entries; else in columns right of the axes, the
    figure widened for them (a legend over the axes collapsed them: cafed:fig4b's 25 curves)."""
    n = len(ax.get_legend_handles_labels()[1])
    if n <= LEGEND_INSIDE:
        ax.legend(fontsize=8)
        return
    columns = -(-n // LEGEND_ROWS)
    fig.set_size_inches(7.5 + 2.3 * columns, max(4.5, 0.16 * min(n, LEGEND_ROWS) + 1.0))
    fig.legend(loc="outside right upper", fontsize=7, ncols=columns)


def panel_png(panel: Panel, rows: list[list[Any]], title: str) -> bytes:
    """The panel drawn from its CSV rows, as PNG bytes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    ax = fig.subplots()
    header, body = rows[0], rows[1:]
    if panel.kind == "grid" and body:
        fig.clear()
        algorithms = list(dict.fromkeys(r[0] for r in body))
        axes = np.atleast_1d(fig.subplots(1, len(algorithms)))
        for sub, alg in zip(axes, algorithms, strict=True):
            points = [r for r in body if r[0] == alg]
            lrs = sorted({float(r[1]) for r in points}, reverse=True)
            slrs = sorted({float(r[2]) for r in points}, reverse=True)
            image = np.full((len(lrs), len(slrs)), np.nan)
            for r in points:
                image[lrs.index(float(r[1])), slrs.index(float(r[2]))] = float(r[3])
            shown = sub.imshow(image, aspect="auto", vmin=0, vmax=1, cmap="viridis")
            sub.set_xticks(range(len(slrs)), [f"{v:g}" for v in slrs])
            sub.set_yticks(range(len(lrs)), [f"{v:g}" for v in lrs])
            sub.set_xlabel("server lr η̄")
            sub.set_ylabel("local lr η")
            sub.set_title(alg, fontsize=8)
        fig.colorbar(shown, ax=list(axes), label="acc_end (tuning draws)")
        fig.suptitle(title, fontsize=9)
    elif panel.kind == "raster":
        fig.clear()
        labels = list(dict.fromkeys(r[0] for r in body)) or ["(no CA-Fed run)"]
        axes = np.atleast_1d(fig.subplots(1, len(labels)))
        for sub, label in zip(axes, labels, strict=True):
            cells = np.array([r[1:] for r in body if r[0] == label], dtype=int).reshape(-1, 3)
            image = np.zeros((cells[:, 0].max() + 1, cells[:, 1].max()) if cells.size else (1, 1))
            if cells.size:
                image[cells[:, 0], cells[:, 1] - 1] = cells[:, 2]
            sub.imshow(image, aspect="auto", cmap="gray_r", vmin=0, vmax=2, interpolation="none")
            sub.set_xlabel("round")
            sub.set_ylabel("client")
            sub.set_title(f"{label}\nwhite inactive, grey left out, black included", fontsize=8)
        fig.suptitle(title, fontsize=9)
    elif panel.kind in ("accuracy", "curve"):
        for i, label in enumerate(dict.fromkeys(r[0] for r in body)):
            pts = [r for r in body if r[0] == label]
            t = np.array([r[1] for r in pts], dtype=float)
            mean = np.array([r[2] for r in pts], dtype=float)
            sd = np.array([r[3] for r in pts], dtype=float)
            # The 10 colours repeat: every further 10 curves change the line style.
            style = ("-", "--", ":", "-.")[i // 10 % 4]
            (line,) = ax.plot(t, mean, label=label, linestyle=style)
            ax.fill_between(t, mean - sd, mean + sd, color=line.get_color(), alpha=0.2)
        ax.set_xlabel("communication round t")
        ax.set_ylabel("test accuracy (α-weighted, mean ± sd over seeds)")
        if panel.kind == "curve":
            ax.set_ylabel(f"{panel.title} (mean ± sd over replications)")
    elif panel.kind == "histogram":
        for label in dict.fromkeys(r[0] for r in body):
            pts = [r for r in body if r[0] == label]
            mids = [(float(r[1]) + float(r[2])) / 2 for r in pts]
            ax.step(mids, [float(r[3]) for r in pts], where="mid", label=label)
        ax.set_xlabel("per-client test accuracy (%)")
        ax.set_ylabel("density over clients (pooled over seeds)")
    else:
        labels = list(dict.fromkeys(r[0] for r in body))
        groups = list(dict.fromkeys(r[1] for r in body))
        width = 0.8 / max(1, len(labels))
        x = np.arange(len(groups))
        for i, label in enumerate(labels):
            values = {r[1]: float(r[2]) for r in body if r[0] == label}
            offset = (i - (len(labels) - 1) / 2) * width
            ax.bar(x + offset, [values.get(g, 0.0) for g in groups], width, label=label)
        if panel.kind == "group_shares":
            alpha = {r[1]: float(r[3]) for r in body}
            ax.scatter(x, [alpha[g] for g in groups], marker="_", s=600, c="k", label="α share")
        ax.set_xticks(x, [g.replace(", ", ",\n") for g in groups], fontsize=8)
        ax.set_ylabel(header[2].replace("_", " "))
    if panel.kind != "raster" and not (panel.kind == "grid" and body):
        ax.set_xscale(panel.xscale)
        ax.set_yscale(panel.yscale)
        if panel.xlabel:
            ax.set_xlabel(panel.xlabel)
        if panel.ylabel:
            ax.set_ylabel(panel.ylabel)
        ax.grid(alpha=0.3)
        _legend(fig, ax)
        ax.set_title("\n".join(textwrap.wrap(title, 95)), fontsize=9)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()
