"""A per-paper errata report, written for the paper's authors (Markdown and self-contained HTML).

For one paper, from a ``fltheory check --json`` object: each finding (errors first, results
before proof steps, then typos and version differences) with its quote, reading, class and
severity, the moderate witness in the paper's quantities with both sides evaluated, the failure
boundary, the intended form that holds (typos), the claim's notes (why it fails, which reading was
implemented, what was checked against what) and the path of its verification script; then the
refutations of unintended readings (not findings), the statements checked and found to hold with
the search effort, and those that could not be made executable.

The report is built once as a list of blocks (:class:`Block`) and rendered twice, so the two
formats cannot disagree.

>>> results = {"claims": [], "summary": {"seed": 0, "budget": "default"}}
>>> paper_report_markdown(results, "fedar").splitlines()[0]
'# Errata report — FedAR'
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from fltheory.claims.finding import GROUPS
from fltheory.papers import PAPER_TABLE


@dataclass
class Block:
    """One piece of the report: a heading (``h1``–``h3``), a paragraph (``p``), a list (``ul``),
    a table (``table``: first row the header), preformatted text (``pre``) or a claim's notes
    (``notes``: plain text, no inline markup, shown after a bold "Notes.")."""

    kind: str
    text: str = ""
    items: list[Any] = field(default_factory=list)
    anchor: str = ""


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;
margin:0 auto;padding:1.5rem;color:#1a1a1a;line-height:1.5;background:#fff}
h1{font-size:1.7rem}h2{border-bottom:2px solid #0072B2;padding-bottom:.2rem;margin-top:2.2rem}
h3{margin-top:1.8rem;color:#0b3d66}
table{border-collapse:collapse;margin:.6rem 0;font-size:.88rem;width:100%}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eef2f5}pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;font-size:.85rem}
code{background:#f3f3f3;padding:0 .2rem}blockquote{border-left:4px solid #ccc;margin:.5rem 0;
padding:.2rem .8rem;color:#333}footer{color:#777;font-size:.8rem;margin-top:3rem}
"""


def _flat(text: Any) -> str:
    return " ".join(str(text).split())


def _explanation_lines(paper: dict[str, Any]) -> list[str]:
    lines = [q["formula"] or f"{q['symbol']} = {q['value']}" for q in paper["quantities"]]
    lines = [f"{line}   ({q['name']})" for line, q in zip(lines, paper["quantities"], strict=True)]
    for step in [*paper.get("steps", []), paper["lhs"], paper["rhs"]]:
        expr = step["expression"]
        shown = f" = {expr}" if expr and expr != step["label"] else ""
        lines.append(f"{step['label']}{shown} = {step['value']}")
    verdict = "holds" if paper["holds"] else "is FALSE: the statement fails here"
    lines.append(f"{paper['lhs']['value']} {paper['relation']} {paper['rhs']['value']} {verdict}")
    if paper.get("note"):
        lines.append(paper["note"])
    return lines


def _finding_blocks(v: dict[str, Any], scripts: str) -> list[Block]:
    finding = v["finding"]
    blocks = [Block("h3", f"{v['id']} — {_flat(v['source'])}", anchor=v["id"])]
    reading = v.get("reading") or {}
    if reading.get("quote"):
        blocks.append(Block("quote", _flat(reading["quote"])))
    blocks.append(Block("p", f"**Statement tested.** {_flat(v['statement'])}"))
    if reading.get("interpretation"):
        blocks.append(Block("p", f"**Reading.** {_flat(reading['interpretation'])}"))
    if reading.get("alternatives"):
        blocks.append(Block("p", f"**Other readings.** {_flat(reading['alternatives'])}"))
    if reading.get("hypotheses"):
        rows = [["hypothesis of the paper", "how the search enforces it"]]
        rows += [[_flat(h["hypothesis"]), _flat(h["enforced_by"])] for h in reading["hypotheses"]]
        blocks.append(Block("table", items=rows))
    kind = finding["class"] + (f", {finding['severity']}" if finding.get("severity") else "")
    blocks.append(Block("p", f"**Finding ({kind}).** {_flat(finding['why'])}"))
    if finding.get("survives"):
        blocks.append(Block("p", f"**Does the result survive?** {_flat(finding['survives'])}"))
    if finding.get("intended"):
        blocks.append(Block("p", f"**Intended form (holds).** `{finding['intended']}`"))
    if v.get("notes"):
        blocks.append(Block("notes", _flat(v["notes"])))
    moderate = v.get("moderate_witness") or {}
    if moderate.get("paper"):
        blocks.append(
            Block(
                "p",
                "**Counterexample** (the least extreme one found), in the "
                "paper's quantities, with both sides evaluated:",
            )
        )
        blocks.append(Block("pre", "\n".join(_explanation_lines(moderate["paper"]))))
        exact = moderate.get("exact_verified") or "floating point only"
        blocks.append(Block("p", f"Margin {moderate['margin']:.3g} (re-verified: {exact})."))
    boundary = v.get("failure_boundary") or {}
    if boundary.get("at_paper"):
        blocks.append(
            Block(
                "p",
                "**Where it starts to fail**: on the straight path from an "
                f"instance where the statement holds to the counterexample, at "
                f"t = {boundary['t']:.4g} of the way:",
            )
        )
        blocks.append(Block("pre", "\n".join(_explanation_lines(boundary["at_paper"]))))
    if finding["class"] != "literal":
        label = v["id"].split(":", 1)[1]
        blocks.append(
            Block(
                "p",
                f"**Verification script**: `{scripts}{label}.py` (Python with fractions/mpmath "
                "only; exit 0 when the statement fails at the witness).",
            )
        )
    return blocks


def report_blocks(results: dict[str, Any], paper: str, scripts: str = "") -> list[Block]:
    """The report of ``paper`` as blocks (see the module docstring); ``scripts`` is the path
    of the verification scripts relative to the report (a folder with its trailing slash)."""
    meta = PAPER_TABLE[paper]
    mine = [v for v in results["claims"] if v["id"].split(":", 1)[0] == paper]
    refuted = [v for v in mine if v["verdict"] == "refuted"]
    summary = results.get("summary", {})
    blocks = [
        Block("h1", f"Errata report — {meta.short}"),
        Block("p", f"*{meta.citation}*; text checked: seed file `{meta.seed_file}`."),
        Block(
            "p",
            f"fltheory registered {len(mine)} checkable statements of this paper and searched "
            "each adversarially for a counterexample (boundary-biased seeded sampling, "
            "Nelder–Mead descent on the margin, hypothesis with target(), shrinking, then an "
            "exact or high-precision re-verification), under the paper's own hypotheses and "
            f"the reading stated for each (seed {summary.get('seed')}, budget "
            f"{summary.get('budget')}). Each finding below gives the quoted text, the reading, "
            "the least extreme counterexample in the paper's quantities with both sides "
            "evaluated, and a standalone script that recomputes it.",
        ),
    ]
    counts = {
        verdict: sum(1 for v in mine if v["verdict"] == verdict)
        for verdict in ("refuted", "holds", "not_executable", "inconclusive", "error")
    }
    blocks.append(
        Block(
            "table",
            items=[["verdict", "statements"]] + [[k, str(n)] for k, n in counts.items() if n],
        )
    )
    for key, title in GROUPS:
        rows = [
            v
            for v in refuted
            if v.get("finding") and (v["finding"]["class"], v["finding"].get("severity")) == key
        ]
        if not rows:
            continue
        blocks.append(Block("h2", f"{title} ({len(rows)})"))
        for v in rows:
            blocks += _finding_blocks(v, scripts)
    literal = [v for v in refuted if (v.get("finding") or {}).get("class") == "literal"]
    if literal:
        blocks.append(Block("h2", f"Not findings: unintended readings ({len(literal)})"))
        blocks.append(
            Block(
                "p",
                "These refute a reading the authors did not intend; the "
                "intended reading is registered beside each and holds.",
            )
        )
        blocks.append(
            Block(
                "ul",
                items=[
                    f"`{v['id']}` — {_flat(v['finding']['why'])}"
                    + (
                        f" (intended: `{v['finding']['intended']}`)"
                        if v["finding"].get("intended")
                        else ""
                    )
                    for v in literal
                ],
            )
        )
    unclassified = [v for v in refuted if not v.get("finding")]
    if unclassified:
        blocks.append(Block("h2", f"Refuted, not yet classified ({len(unclassified)})"))
        blocks.append(
            Block("ul", items=[f"`{v['id']}` — {_flat(v['statement'])}" for v in unclassified])
        )
    holds = [v for v in mine if v["verdict"] == "holds"]
    if holds:
        blocks.append(Block("h2", f"Statements checked and found to hold ({len(holds)})"))
        rows = [["statement", "where", "evaluations", "seconds", "worst margin"]]
        rows += [
            [
                f"`{v['id']}`: {_flat(v['statement'])}",
                _flat(v["source"]).split(" ", 1)[-1],
                str(v["evaluations"]),
                f"{v['seconds']:.1f}",
                "—" if v.get("worst_margin") is None else f"{v['worst_margin']:.3g}",
            ]
            for v in holds
        ]
        blocks.append(Block("table", items=rows))
    other = [v for v in mine if v["verdict"] in ("not_executable", "inconclusive", "error")]
    if other:
        blocks.append(Block("h2", f"Not decided ({len(other)})"))
        blocks.append(
            Block(
                "ul",
                items=[
                    f"`{v['id']}` ({v['verdict']}) — {_flat(v['statement'])}: {_flat(v['message'])}"
                    for v in other
                ],
            )
        )
    return blocks


def _md_inline(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(blocks: list[Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            out += ["#" * int(b.kind[1]) + " " + b.text, ""]
        elif b.kind == "p":
            out += [b.text, ""]
        elif b.kind == "quote":
            out += ["> " + b.text, ""]
        elif b.kind == "notes":
            out += [f"**Notes.** {b.text}", ""]
        elif b.kind == "pre":
            out += ["```text", b.text, "```", ""]
        elif b.kind == "ul":
            out += [f"- {item}" for item in b.items] + [""]
        elif b.kind == "table":
            head, *rows = b.items
            out.append("| " + " | ".join(_md_inline(h) for h in head) + " |")
            out.append("|" + "---|" * len(head))
            out += ["| " + " | ".join(_md_inline(str(c)) for c in r) + " |" for r in rows]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _html_inline(text: str) -> str:
    """Escaped text with `code` and **bold** spans (the only inline markup the report uses)."""
    parts = html.escape(text, quote=True).split("`")
    for i in range(1, len(parts), 2):
        parts[i] = f"<code>{parts[i]}</code>"
    joined = "".join(parts)
    pieces = joined.split("**")
    for i in range(1, len(pieces), 2):
        pieces[i] = f"<strong>{pieces[i]}</strong>"
    text = "".join(pieces)
    pieces = text.split("*")
    if len(pieces) % 2 == 1:  # balanced *emphasis*
        for i in range(1, len(pieces), 2):
            pieces[i] = f"<em>{pieces[i]}</em>"
        text = "".join(pieces)
    return text


def _anchor(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower())


def render_html(blocks: list[Block], title: str) -> str:
    body: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            anchor = f' id="{_anchor(b.anchor)}"' if b.anchor else ""
            body.append(f"<{b.kind}{anchor}>{_html_inline(b.text)}</{b.kind}>")
        elif b.kind == "p":
            body.append(f"<p>{_html_inline(b.text)}</p>")
        elif b.kind == "quote":
            body.append(f"<blockquote>{html.escape(b.text)}</blockquote>")
        elif b.kind == "notes":  # the notes' own * and ` are symbols (w*, F_B*), not markup
            body.append(f"<p><strong>Notes.</strong> {html.escape(b.text)}</p>")
        elif b.kind == "pre":
            body.append(f"<pre>{html.escape(b.text)}</pre>")
        elif b.kind == "ul":
            body.append("<ul>" + "".join(f"<li>{_html_inline(i)}</li>" for i in b.items) + "</ul>")
        elif b.kind == "table":
            head, *rows = b.items
            cells = "".join(f"<th>{_html_inline(h)}</th>" for h in head)
            lines = [f"<table><thead><tr>{cells}</tr></thead><tbody>"]
            for r in rows:
                lines.append(
                    "<tr>" + "".join(f"<td>{_html_inline(str(c))}</td>" for c in r) + "</tr>"
                )
            lines.append("</tbody></table>")
            body.append("".join(lines))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n<footer>Generated by fltheory from docs/check_results.json.</footer></body></html>\n"
    )


def paper_report_markdown(results: dict[str, Any], paper: str, scripts: str = "") -> str:
    """The report of ``paper`` as Markdown."""
    return render_markdown(report_blocks(results, paper, scripts))


def paper_report_html(results: dict[str, Any], paper: str, scripts: str = "") -> str:
    """The report of ``paper`` as one self-contained HTML page (inline CSS, no script, no
    network)."""
    title = f"Errata report — {PAPER_TABLE[paper].short}"
    return render_html(report_blocks(results, paper, scripts), title)
