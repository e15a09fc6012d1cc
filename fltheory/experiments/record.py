"""The record of the papers' experiments: one full-size verdict per (ID, setup), built from the
run records that full runs produce — never typed in.

A full run (``fltheory reproduce ID --full --setup S --out DIR``) writes a result folder with
provenance (:mod:`fltheory.experiments.runner`). :func:`store_run` keeps its compact part,
``verdict.json`` and ``manifest.json`` byte for byte, in ``RECORDS/<id>__<setup>/`` (the
repository keeps them in ``docs/full/runs/``); :func:`read_run` checks on every read that the
run completed, was a full run, and that ``verdict.json`` still has the SHA-256 its manifest
recorded, so a record edited by hand is refused. :func:`record_rows` makes one row per
(ID, setup) of the registry — the full verdict of its record, or why it has none (a user's data
set, a GPU, the authors' code, no full-size configuration, not run yet) — with the data that
stood in, the CPU seconds, the commit and, for a verdict other than ``reproduced``, the
diagnosis scripts (:class:`~fltheory.experiments.model.Diagnosis`) and the files they write;
:func:`render_record` writes the Markdown table.

Quick runs are smoke tests (:data:`~fltheory.experiments.judges.SMOKE`): they never enter the
record; :func:`render_smoke` writes their separate, labelled table.
"""

import json
from pathlib import Path
from typing import Any

from fltheory.atomic import STATUS_COMPLETE, read_manifest, sha256_of, write_atomic
from fltheory.errors import InputError
from fltheory.experiments.data_sources import FILE_KINDS, STAND_INS
from fltheory.experiments.model import FEATURES, SETUPS, Experiment

VERDICT, MANIFEST = "verdict.json", "manifest.json"


def record_name(experiment_id: str, setup: str) -> str:
    """The folder of an (ID, setup) record.

    >>> record_name("cafed-infocom:fig1", "authors")
    'cafed-infocom_fig1__authors'
    """
    return f"{experiment_id.replace(':', '_')}__{setup}"


def read_run(folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(verdict record, manifest) of a complete full run in ``folder`` whose ``verdict.json``
    has the SHA-256 its manifest recorded; anything else is one InputError line."""
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("status") != STATUS_COMPLETE:
        raise InputError(f"{folder}: not a complete result (no complete manifest.json)")
    entry = next((f for f in manifest.get("files", []) if f.get("name") == VERDICT), None)
    path = folder / VERDICT
    if entry is None or not path.is_file():
        raise InputError(f"{folder}: no {VERDICT} in the result")
    if sha256_of(path) != entry.get("sha256"):
        raise InputError(f"{path}: its SHA-256 differs from the manifest's (edited after the run)")
    record = json.loads(path.read_text(encoding="utf-8"))
    if record.get("mode") != "full":
        raise InputError(f"{folder}: a {record.get('mode')} run (the record holds full runs only)")
    return record, manifest


def store_run(folder: Path, records: Path) -> Path:
    """Copy the compact record (``verdict.json``, ``manifest.json``, unchanged) of the full run
    in ``folder`` to ``records/<id>__<setup>/`` (replacing an older record of the same pair)."""
    record, _ = read_run(folder)
    target = records / record_name(record["id"], record["setup"])
    target.mkdir(parents=True, exist_ok=True)
    write_atomic(target / VERDICT, (folder / VERDICT).read_bytes())
    write_atomic(target / MANIFEST, (folder / MANIFEST).read_bytes())
    return target


def load_records(records: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every (record, manifest) under ``records``, each folder named after its (ID, setup)."""
    out = []
    for folder in sorted(p for p in records.iterdir() if p.is_dir()):
        record, manifest = read_run(folder)
        if folder.name != record_name(record["id"], record["setup"]):
            raise InputError(f"{folder}: holds {record['id']} --setup {record['setup']}")
        out.append((record, manifest))
    return out


def _text(value: Any, width: int = 60) -> str:
    """A measured value or interval as short text."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)[:width]


def headline(record: dict[str, Any]) -> dict[str, str]:
    """The claim, the paper's value and ours (with its interval) of ONE check, so the two
    numbers side by side are the same quantity: the first primary check that does not hold,
    else the first primary check with an interval.

    >>> headline({"checks": [
    ...     {"role": "primary", "claim": "a > b", "paper": "a better", "measured": 3.0,
    ...      "ci": [1.0, 5.0], "holds": True},
    ...     {"role": "primary", "claim": "a > c", "paper": "+1.56 pp", "measured": -2.3,
    ...      "ci": [-3.35, -1.26], "holds": False}]})
    {'claim': 'a > c', 'paper': '+1.56 pp', 'measured': '-2.3 [-3.35, -1.26]'}
    """
    primary = [c for c in record.get("checks", []) if c.get("role") == "primary"]
    if not primary:
        return {"claim": "—", "paper": "—", "measured": "—"}
    # A holding guard without an interval (e.g. "the algorithms train") is not the headline.
    with_ci = [c for c in primary if c.get("ci") is not None] or primary
    check = next((c for c in primary if not c.get("holds")), with_ci[0])
    ours = _text(check.get("measured"))
    if check.get("ci") is not None:
        ours += " " + _text(check["ci"])
    return {"claim": str(check.get("claim", "—")), "paper": _text(check.get("paper", "—")),
            "measured": ours}  # fmt: skip


def summary_row(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON row of one verdict record (quick or full)."""
    primary = [c for c in record.get("checks", []) if c.get("role") == "primary"]
    return {
        "id": record["id"],
        "setup": record["setup"],
        "mode": record["mode"],
        "data": record.get("data", ""),
        "verdict": record["verdict"],
        "seconds": record.get("seconds"),
        "cpu_seconds": record.get("cpu_seconds"),
        "checks": {
            "primary": len(primary),
            "holding": sum(1 for c in primary if c.get("holds")),
            "contrary": sum(1 for c in primary if c.get("opposite")),
        },
        "headline": headline(record),
    }


def user_data(experiment: Experiment, setup: str) -> list[str]:
    """The data sets a setup reads that have no stand-in (the user supplies them).

    >>> from fltheory.experiments.model import get
    >>> user_data(get("cafed:fig1c"), "paper"), user_data(get("cafed:fig1b"), "paper")
    (['CIFAR-10'], [])
    """
    kinds = experiment.setups[setup].datasets
    return [FILE_KINDS[k] for k in kinds if k not in STAND_INS and k != "fashion_mnist"]


def why_no_record(experiment: Experiment, setup: str) -> str:
    """Why (ID, setup) has no full-size verdict: what it needs, or that it was not run yet.

    >>> from fltheory.experiments.model import get
    >>> why_no_record(get("cafed:fig1c"), "paper")
    "needs the user's CIFAR-10 (--data-dir) and a GPU at full size"
    >>> why_no_record(get("fedar:fig1"), "paper")
    'quick only: no full-size configuration'
    """
    spec = experiment.setups[setup]
    if spec.requires:
        return "needs " + "; ".join(FEATURES[r] for r in spec.requires)
    if experiment.missing(setup, "full"):
        return "quick only: no full-size configuration"
    data = user_data(experiment, setup)
    if data:
        gpu = " and a GPU at full size" if spec.full_needs_gpu else ""
        return f"needs the user's {', '.join(data)} (--data-dir){gpu}"
    if spec.full_needs_gpu:
        return "needs a GPU at full size"
    return "not run yet"


def _diagnoses(experiment: Experiment, setup: str) -> list[dict[str, str]]:
    return [
        {"script": d.script, "command": d.command, "writes": d.output}
        for d in experiment.diagnoses
        if d.explains(setup)
    ]


def record_rows(
    runs: list[tuple[dict[str, Any], dict[str, Any]]], experiments: list[Experiment]
) -> list[dict[str, Any]]:
    """One row per (ID, setup) of ``experiments`` (the CLI listing's order: journal, then
    conference; ``paper``, ``authors``, then the other setups): a run record's full verdict
    with its provenance, or the reason it has none. Records of unknown pairs are refused."""
    by_pair = {(r["id"], r["setup"]): (r, m) for r, m in runs}
    rows: list[dict[str, Any]] = []
    ordered = sorted(experiments, key=lambda e: (e.id.startswith("cafed-infocom"), e.id))
    for e in ordered:
        setups = [s for s in SETUPS if s in e.setups] + [s for s in e.setups if s not in SETUPS]
        for setup in setups:
            found = by_pair.pop((e.id, setup), None)
            if found is None:
                rows.append({"id": e.id, "setup": setup, "verdict": None,
                             "status": why_no_record(e, setup)})  # fmt: skip
                continue
            record, manifest = found
            row = summary_row(record)
            prov = manifest.get("provenance", {})
            row.update(
                status="full run",
                seeds=record.get("seeds"),
                commit=prov.get("git_commit"),
                record=record_name(e.id, setup),
                diagnoses=[] if record["verdict"] == "reproduced" else _diagnoses(e, setup),
            )
            rows.append(row)
    if by_pair:
        raise InputError(f"records of unregistered (ID, setup) pairs: {sorted(by_pair)}")
    return rows


def _cell(value: Any) -> str:
    return str(value).replace("|", "/").replace("\n", " ")


def _cpu(row: dict[str, Any]) -> str:
    cpu = row.get("cpu_seconds")
    return "—" if cpu is None else f"{cpu:.0f}"


def render_record(rows: list[dict[str, Any]], records_link: str = "full/runs") -> str:
    """The Markdown table of :func:`record_rows` (links relative to ``docs/``: the records in
    ``records_link``, the scripts in ``../figures``).

    >>> table = render_record([{"id": "a:b", "setup": "paper", "verdict": None,
    ...                         "status": "not run yet"}])
    >>> print(table.splitlines()[-1])
    | a:b | paper | — (not run yet) | — | — | — | — | — | — | — | — |
    """
    lines = [
        "| id | setup | full-size verdict | primary checks holding | check (first failing) "
        "| paper | ours [95 % CI] | data | CPU s | run record (commit) | diagnosis |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r.get("verdict") is None:
            cells = [r["id"], r["setup"], f"— ({r['status']})", *["—"] * 8]
        else:
            head, checks = r["headline"], r["checks"]
            commit = (r.get("commit") or "?")[:7]
            record = f"[{r['record']}]({records_link}/{r['record']}/verdict.json) ({commit})"
            diagnosis = "<br>".join(
                f"[`{d['command'].removeprefix('python ')}`](../{d['script']}) → `{d['writes']}`"
                for d in r.get("diagnoses", [])
            )
            cells = [
                r["id"],
                r["setup"],
                f"**{r['verdict']}**",
                f"{checks['holding']}/{checks['primary']}",
                head["claim"],
                head["paper"],
                head["measured"],
                r.get("data", ""),
                _cpu(r),
                record,
                diagnosis or "—",
            ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def render_smoke(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of quick (smoke) runs: :func:`summary_row` rows or error rows.

    >>> table = render_smoke([{"id": "a:b", "setup": "paper", "mode": "quick",
    ...     "verdict": "smoke: direction agrees", "checks": {"primary": 2, "holding": 2},
    ...     "headline": {"claim": "a > b", "paper": "+1 pp", "measured": "1.2 [0.1, 2.3]"},
    ...     "seconds": 3.0}])
    >>> print(table.splitlines()[-1])
    | a:b | paper | smoke: direction agrees | 2/2 | a > b | +1 pp | 1.2 [0.1, 2.3] | 3.0 |
    """
    lines = [
        "| id | setup | smoke result (quick mode) | primary checks holding | check | paper "
        "| ours [60 % CI] | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        head = r.get("headline", {"claim": "—", "paper": "—", "measured": "—"})
        checks = r.get("checks")
        cells = [
            r["id"],
            r["setup"],
            r["verdict"],
            f"{checks['holding']}/{checks['primary']}" if checks else "—",
            head["claim"],
            head["paper"],
            head["measured"],
            r.get("seconds"),
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


#: The opening of the generated record page (docs/reproduce_results.md).
PAGE_INTRO = """\
# The papers' experiments at full size: the record

Generated by `python paper_checks/reproduce_all.py --collect` from the run records in
[`docs/full/runs/`](full/runs/): per (ID, setup), the `verdict.json` and `manifest.json` that
`fltheory reproduce ID --full --setup S --out DIR` wrote (the manifest holds the commit, the
resolved config and its hash, the versions and the command; its SHA-256 of `verdict.json` is
checked when the table is built, and `tests/experiments/test_record.py` checks that this page is
what the records give). Do not edit it by hand: store new runs with
`python paper_checks/reproduce_all.py --store RUN_DIR ...`.

Every verdict here is a **full-size** run judged at 95 % (`reproduced`: every primary check
holds; `contradicted`: a primary check establishes the contrary; `not_reproduced`: neither).
Quick mode is a smoke test (reduced sizes, direction only at a one-sided 80 % level): its outcome
reads `smoke: direction agrees / disagrees / inconclusive`, and it is not in this table
(`python paper_checks/reproduce_all.py` writes the smoke table under `results/smoke/`).

The check shown is one primary check with the paper's value beside ours on the same quantity
(the first failing one, else the first with an interval); CPU s is the run's process time on
one thread. The data column names what was read: offline, Fashion-MNIST stands in for MNIST and
scikit-learn's digits for MNIST or CIFAR-10 where the paper setup says so. A verdict other than
`reproduced` links the scripts under `figures/` that measured why and the file each writes
(run from the repository root). The comparison of the `authors` setup with the authors' own
code is in [authors_comparison.md](authors_comparison.md).
"""


def record_page(rows: list[dict[str, Any]]) -> str:
    """The whole record page: :data:`PAGE_INTRO`, the counts, the pairs without a full-size
    verdict grouped by reason, and :func:`render_record`'s table."""
    done = [r for r in rows if r.get("verdict") is not None]
    counts = {v: sum(r["verdict"] == v for r in done) for v in ("reproduced", "not_reproduced",
                                                                "contradicted")}  # fmt: skip
    lines = [
        PAGE_INTRO,
        f"**{len(done)} of {len(rows)} (ID, setup) pairs have a full-size verdict**: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + ".",
        "",
    ]
    reasons: dict[str, list[str]] = {}
    for r in rows:
        if r.get("verdict") is None:
            reasons.setdefault(r["status"], []).append(f"`{r['id']}` {r['setup']}")
    if reasons:
        lines += ["Without a full-size verdict:", ""]
        lines += [f"- {why}: {', '.join(pairs)}" for why, pairs in sorted(reasons.items())]
        lines.append("")
    lines += [render_record(rows), ""]
    return "\n".join(lines)
