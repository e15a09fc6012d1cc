"""``docs/experiments.md``: every registered experiment by paper — id, what it shows, where it
is in the paper, the full-size verdict of each setup in the record
(``docs/reproduce_results.json``, built from the run records) and the module that defines it —
then each experiment's notes and diagnoses, read from its files in ``docs/diagnoses/``
(:mod:`fltheory.experiments.diagnoses`).

Regenerate after adding or changing an experiment, or after regenerating the record (a test
fails while the page is out of date)::

    python -m fltheory.experiments.index
"""

import json
from pathlib import Path
from typing import Any

from fltheory.experiments.diagnoses import notes_path, read_notes, result_path
from fltheory.experiments.model import Experiment, all_experiments, module_of
from fltheory.papers import PAPER_TABLE

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "experiments.md"
RECORD = ROOT / "docs" / "reproduce_results.json"

HEADER = """\
# The papers' experiments

Generated from the experiment registry (`fltheory.experiments`) and the record
`docs/reproduce_results.json` by `python -m fltheory.experiments.index`; do not edit by hand (a
test fails when this page is out of date). `fltheory reproduce ID --setup S --full` runs one
and judges it over seeds; `fltheory reproduce --list` lists them with what each setup needs.
The verdicts are the record's full-size ones (see [reproduce_results.md](reproduce_results.md)
for the checks behind them); a setup without one says why. Under each paper's table, the notes
and diagnoses of its experiments, from their files in [diagnoses/](diagnoses/) (each says the
command that measured its numbers).
"""


def recorded_verdicts(path: Path = RECORD) -> dict[tuple[str, str], str]:
    """(id, setup) → the record's verdict, or why it has none (empty when the file is absent).

    >>> recorded_verdicts()[("cafed:fig1a", "paper")]
    'contradicted'
    """
    if not path.is_file():
        return {}
    rows = json.loads(path.read_text())["record"]
    return {(r["id"], r["setup"]): r["verdict"] or r["status"] for r in rows}


def _cell(text: Any) -> str:
    """One Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _verdicts(e: Experiment, verdicts: dict[tuple[str, str], str]) -> str:
    return "; ".join(
        f"{setup}: {verdicts.get((e.id, setup), '—').replace('_', ' ')}" for setup in e.setups
    )


def _paper_of(experiment_id: str) -> str:
    return experiment_id.split(":", 1)[0]


def experiments_markdown(verdicts: dict[tuple[str, str], str] | None = None) -> str:
    """The page: per paper (the order of :data:`~fltheory.papers.PAPER_TABLE`), a table of its
    experiments sorted by id; ``verdicts`` default to :func:`recorded_verdicts`."""
    verdicts = recorded_verdicts() if verdicts is None else verdicts
    experiments = all_experiments()
    parts = [HEADER]
    for paper in PAPER_TABLE.values():
        mine = [e for e in experiments if _paper_of(e.id) == paper.id]
        if not mine:
            continue
        parts += [
            f"## {paper.short} (`{paper.id}`, {len(mine)} experiments)",
            "",
            paper.citation,
            "",
            "| id | what it shows | where in the paper | verdict by setup | defined in |",
            "|---|---|---|---|---|",
        ]
        for e in mine:
            module = module_of(e.id)
            path = "—" if module is None else module.replace(".", "/") + ".py"
            where = f"{e.source.label}, {e.source.section} ({e.where})"
            cells = (f"`{e.id}`", e.title, where, _verdicts(e, verdicts), f"`{path}`")
            parts.append("| " + " | ".join(_cell(x) for x in cells) + " |")
        parts.append("")
        parts += _diagnoses(mine)
    return "\n".join(parts)


def _diagnoses(experiments: list[Experiment]) -> list[str]:
    """The notes section of a paper: per experiment with a diagnosis page, its notes and links
    to the page and to the recorded results (when a diagnosis run left them)."""
    parts: list[str] = []
    for e in experiments:
        notes = read_notes(e.id)
        if not notes:
            continue
        links = [f"[{notes_path(e.id).name}](diagnoses/{notes_path(e.id).name})"]
        if result_path(e.id).is_file():
            links.append(f"[{result_path(e.id).name}](diagnoses/{result_path(e.id).name})")
        parts += [f"### `{e.id}`: notes and diagnosis ({', '.join(links)})", "", notes, ""]
    return parts


def main() -> None:
    """Write :data:`PAGE`."""
    PAGE.write_text(experiments_markdown())
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
