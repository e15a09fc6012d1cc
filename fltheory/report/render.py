"""``report.html`` (self-contained: inline CSS, figures as base64 PNG, no network),
``report.md`` (figures as files next to it) and ``report.json`` (every number), written as one
transaction with a manifest (:mod:`fltheory.resultdir`)."""

import base64
import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.jsonable import to_jsonable
from fltheory.report.fmt import human, power_of_ten
from fltheory.report.plots import Figure
from fltheory.report.sections import Section

if TYPE_CHECKING:
    from fltheory.resultdir import ResultFolder

#: Version of the layout of report.json.
SCHEMA_VERSION = 1
FIGURE_DIR = "figures"

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;
margin:0 auto;padding:1.5rem;color:#1a1a1a;line-height:1.5;background:#fff}
h1{font-size:1.8rem;margin-bottom:.2rem}h2{border-bottom:2px solid #0072B2;padding-bottom:.2rem;
margin-top:2.5rem}.sub{color:#555;margin-top:0}
.summary{background:#f3f8fc;border-left:4px solid #0072B2;padding:.6rem 1rem;margin:1rem 0}
.plain{font-size:1.02rem}.ref{color:#555;font-size:.9rem;font-style:italic}
table{border-collapse:collapse;margin:.8rem 0;font-size:.88rem;width:100%}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eef2f5}tr:nth-child(even) td{background:#fafafa}
figure{margin:1rem 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#555;font-size:.85rem}nav ol{columns:2}
.refuted{color:#D55E00;font-weight:600}.holds{color:#009E73;font-weight:600}
footer{color:#777;font-size:.8rem;margin-top:3rem}.note{color:#555;font-size:.82rem;margin:.1rem 0}
"""


def summary_lines(numbers: dict[str, Any]) -> list[str]:
    """The findings a newcomer reads first (top of the report, and ``fltheory report``'s stdout).

    >>> lines = summary_lines({"model": {"n_clients": 4, "log10_C_P": 2.0, "lambda": 0.9},
    ...     "bounds": {"total": {"vacuous": True, "log10_value": 9.0, "trivial": 3.0}},
    ...     "simulation": {"limit_inside_ci95": True, "distance_time_average_to_limit": 0.01},
    ...     "claims": {"counts": {"holds": 3}}})
    >>> lines[0]
    'Availability: 4 clients, λ(P) = 0.9, C_P = 100.'
    """
    m, b, s = numbers["model"], numbers["bounds"]["total"], numbers["simulation"]
    counts = numbers["claims"].get("counts", {})
    lines = [
        f"Availability: {m['n_clients']} clients, λ(P) = {human(m['lambda'])}, "
        f"C_P = {power_of_ten(m['log10_C_P'])}.",
        f"Convergence bound (Theorems 1–2): {power_of_ten(b['log10_value'])} against a trivial "
        f"bound of {human(b['trivial'])}: {'vacuous' if b['vacuous'] else 'informative'}.",
        f"Simulation vs theory, rule {s.get('rule', 'fixed q = α')}: the simulated time average is "
        f"{human(s['distance_time_average_to_limit'])} from the exact limit, "
        f"{'inside' if s['limit_inside_ci95'] else 'OUTSIDE'} the 95 % confidence band.",
        _claims_line(numbers["claims"].get("live", []), counts),
    ]
    reduced = reduced_line(numbers.get("reduced"))
    if reduced:
        lines.append(reduced)
    return lines


def reduced_line(r: dict[str, Any] | None) -> str | None:
    """What was computed on less than the whole setting, in one line (None: nothing).

    >>> reduced_line({"quick": False, "n_clients": 40, "small_clients": 12})
    'Reduced: sections 4–5 use 12 of the 40 clients (the exact limit needs 2^N states).'
    """
    if not r:
        return None
    parts = []
    if r.get("quick"):
        parts.append(f"quick mode ({r['rounds']} rounds × {r['seeds']} runs)")
    if r["small_clients"] < r["n_clients"]:
        how = "a preset population drawn anew: " if r.get("small_preset_redrawn") else ""
        parts.append(
            f"sections 4–5 use {r['small_clients']} of the {r['n_clients']} clients "
            f"({how}the exact limit needs 2^N states)"
        )
    return "Reduced: " + "; ".join(parts) + "." if parts else None


def _claims_line(live: list[dict[str, Any]], counts: dict[str, int]) -> str:
    """The claims in one line: those checked live on the setting, then the stored verdicts.

    >>> _claims_line([{"holds": True, "nearby": None}], {"holds": 3})
    "Claims checked on this setting: 1 of 1 hold; stored verdicts on the papers' settings: 3 hold."
    """
    stored = (
        ", ".join(f"{v} {_verdict_words(k)}" for k, v in sorted(counts.items())) or "not available"
    )
    if not live:
        return f"Claims of the papers (stored verdicts on their settings): {stored}."
    held = sum(1 for r in live if r["holds"] and (r.get("nearby") or {}).get("holds", True))
    return (
        f"Claims checked on this setting: {held} of {len(live)} hold; "
        f"stored verdicts on the papers' settings: {stored}."
    )


def _verdict_words(verdict: str) -> str:
    """A claim verdict as running text after a count ("20 hold", not "20 holds")."""
    return {"holds": "hold", "not_executable": "not executable"}.get(verdict, verdict)


def _h(text: str) -> str:
    return html.escape(str(text), quote=True)


def _html_table(table: Any) -> str:
    head = "".join(f"<th>{_h(h)}</th>" for h in table.headers)

    def cell(value: str) -> str:
        cls = f' class="{value}"' if value in ("holds", "refuted") else ""
        return f"<td{cls}>{_h(value)}</td>"

    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in table.rows)
    notes = "".join(f"<p class='note'>{_h(note)}</p>" for note in table.notes)
    return f"<table><caption>{_h(table.caption)}</caption><tr>{head}</tr>{body}</table>{notes}"


def render_html(
    title: str,
    sections: list[Section],
    figures: dict[str, Figure],
    summary: list[str],
    footer: str,
) -> str:
    """The whole report as one HTML page with everything inline."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>fltheory report: {_h(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>fltheory report: {_h(title)}</h1>",
        "<p class='sub'>Theory of federated learning with unreliable, correlated client "
        "availability, checked on one setting: the model, the bounds, the best weights, where "
        "training converges, a simulation against the theory, and the verdicts on the papers' "
        "claims.</p>",
        "<div class='summary'><strong>In short</strong><ul>",
        *[f"<li>{_h(line)}</li>" for line in summary],
        "</ul></div><nav><strong>Contents</strong><ol>",
        *[f"<li><a href='#{s.key}'>{_h(s.title.split('. ', 1)[1])}</a></li>" for s in sections],
        "</ol></nav>",
    ]
    for s in sections:
        parts.append(f"<section id='{s.key}'><h2>{_h(s.title)}</h2>")
        parts.append(f"<p class='plain'>{_h(s.plain)}</p>")
        parts.append(f"<p class='ref'>Paper reference: {_h(s.reference)}</p>")
        if s.findings:
            parts.append("<ul>" + "".join(f"<li>{_h(f)}</li>" for f in s.findings) + "</ul>")
        for key in s.figures:
            fig = figures.get(key)
            if fig is None:
                continue
            data = base64.b64encode(fig.png).decode("ascii")
            parts.append(
                f"<figure><img src='data:image/png;base64,{data}' alt='{_h(fig.alt)}'>"
                f"<figcaption>{_h(fig.alt)}</figcaption></figure>"
            )
        parts.extend(_html_table(t) for t in s.tables)
        parts.append("</section>")
    parts.append(f"<footer>{_h(footer)}</footer></body></html>\n")
    return "\n".join(parts)


def _md_cell(value: str) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def render_markdown(
    title: str,
    sections: list[Section],
    figures: dict[str, Figure],
    summary: list[str],
    footer: str,
) -> str:
    """The same content as Markdown, figures referenced as ``figures/NAME.png``."""
    lines = [f"# fltheory report: {title}", "", "**In short**", ""]
    lines += [f"- {line}" for line in summary] + [""]
    for s in sections:
        lines += [f"## {s.title}", "", s.plain, "", f"*Paper reference: {s.reference}*", ""]
        lines += [f"- {f}" for f in s.findings] + ([""] if s.findings else [])
        for key in s.figures:
            fig = figures.get(key)
            if fig is not None:
                lines += [f"![{fig.alt}]({FIGURE_DIR}/{fig.name})", ""]
        for t in s.tables:
            lines += [f"**{t.caption}**", ""]
            lines.append("| " + " | ".join(_md_cell(h) for h in t.headers) + " |")
            lines.append("|" + "---|" * len(t.headers))
            lines += ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in t.rows]
            lines.append("")
            lines += [f"*{note}*\n" for note in t.notes]
    lines += ["---", "", footer, ""]
    return "\n".join(lines)


#: The entries a report writes into its folder besides ``manifest.json``.
OWNED = ("report.html", "report.md", "report.json", FIGURE_DIR)


def write_report(
    folder: "ResultFolder",
    title: str,
    numbers: dict[str, Any],
    sections: list[Section],
    figures: dict[str, Figure],
    meta: dict[str, Any],
) -> dict[str, Path]:
    """Stage report.html, report.md, figures/*.png and report.json in ``folder`` (opened by
    the caller) and commit them with manifest.json (last); returns the paths by kind. A failure
    before the commit leaves the folder as it was."""
    summary = summary_lines(numbers)
    footer = (
        f"fltheory {meta['provenance'].get('fltheory_version')}, commit "
        f"{meta['provenance'].get('git_commit') or '—'}; mode {meta['mode']}; every number is "
        "in report.json."
    )
    written: list[str] = []
    for fig in figures.values():
        folder.write(f"{FIGURE_DIR}/{fig.name}", fig.png)
        written.append(f"{FIGURE_DIR}/{fig.name}")
    folder.write("report.html", render_html(title, sections, figures, summary, footer))
    folder.write("report.md", render_markdown(title, sections, figures, summary, footer))
    payload = {
        "schema_version": SCHEMA_VERSION,
        "title": title,
        "summary": summary,
        **numbers,
        "figures": {key: f"{FIGURE_DIR}/{fig.name}" for key, fig in figures.items()},
        **meta,
    }
    text = json.dumps(to_jsonable(payload), allow_nan=False, indent=1, ensure_ascii=False)
    folder.write("report.json", text + "\n")
    written += ["report.html", "report.md", "report.json"]
    folder.commit(written, meta["provenance"])
    return {kind: folder.path / f"report.{kind}" for kind in ("html", "md", "json")}
