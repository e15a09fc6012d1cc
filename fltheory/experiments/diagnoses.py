"""Experiments' diagnoses as files produced by runs, never prose typed into the catalog.

Each experiment with something to say beyond its verdict has ``docs/diagnoses/<stem>.md``
(``stem``: the id with ``:`` as ``_``, :func:`stem`): how to reproduce the measurements, whether
they come from a recorded run, and a ``## Notes`` section — the text that a reproduction's
``verdict.json`` carries as ``notes`` and that ``docs/experiments.md`` shows. A diagnosis script
that was re-run for the record also leaves ``docs/diagnoses/<stem>.json`` (:func:`write_result`:
its measurements with provenance, written atomically).

Outside a checkout (an installed package without ``docs/``) an experiment has no notes.

>>> stem("cafed-infocom:fig1")
'cafed-infocom_fig1'
>>> notes_from_markdown("# x\\n\\nrun it\\n\\n## Notes\\n\\nWhy it fails.\\n")
'Why it fails.'
"""

import json
import shlex
from pathlib import Path
from typing import Any

from fltheory.atomic import write_atomic

#: Where the diagnosis files of the repository are.
FOLDER = Path(__file__).resolve().parents[2] / "docs" / "diagnoses"
#: The heading of the section :func:`read_notes` returns.
NOTES_HEADING = "## Notes"


def stem(experiment_id: str) -> str:
    """The file name (without suffix) of an experiment's diagnosis files."""
    return experiment_id.replace(":", "_")


def notes_path(experiment_id: str, folder: Path = FOLDER) -> Path:
    """``<folder>/<stem>.md``: the experiment's notes and how they were measured."""
    return folder / f"{stem(experiment_id)}.md"


def result_path(experiment_id: str, folder: Path = FOLDER) -> Path:
    """``<folder>/<stem>.json``: a diagnosis run's measurements with provenance."""
    return folder / f"{stem(experiment_id)}.json"


def notes_from_markdown(text: str) -> str:
    """The body of the ``## Notes`` section of a diagnosis page (up to the next ``## ``
    heading), stripped; empty without one."""
    _, sep, rest = text.partition(f"\n{NOTES_HEADING}\n")
    if not sep:
        return ""
    return rest.split("\n## ", 1)[0].strip()


def read_notes(experiment_id: str, folder: Path = FOLDER) -> str:
    """The experiment's notes from its diagnosis page (empty when there is none).

    >>> "figures/cafed_fig2_diagnosis.py" in read_notes("cafed:fig2a")
    True
    >>> read_notes("no:such")
    ''
    """
    path = notes_path(experiment_id, folder)
    if not path.is_file():
        return ""
    return notes_from_markdown(path.read_text(encoding="utf-8"))


def read_result(experiment_id: str, folder: Path = FOLDER) -> dict[str, Any] | None:
    """The recorded diagnosis results of the experiment (None when none was recorded)."""
    path = result_path(experiment_id, folder)
    if not path.is_file():
        return None
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def write_result(
    experiment_id: str, command: str, measurements: Any, folder: Path = FOLDER
) -> Path:
    """Write a diagnosis run's ``measurements`` for ``experiment_id`` atomically to
    :func:`result_path`, keyed by the ``command`` that produced them (other commands' results in
    the file are kept), each with its provenance (:func:`fltheory.provenance.provenance`; its
    ``command`` is ``command``'s words, not the process's arguments, which may name a machine's
    scratch folder)."""
    from fltheory.provenance import provenance

    path = result_path(experiment_id, folder)
    previous = read_result(experiment_id, folder) or {}
    runs = dict(previous.get("runs", {}))
    runs[command] = {
        "provenance": provenance(
            experiment=experiment_id, diagnosis=command, command=shlex.split(command)
        ),
        "measurements": measurements,
    }
    payload = {"experiment": experiment_id, "runs": runs}
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(payload, indent=2, allow_nan=False) + "\n")
    return path


def write_rows(
    path: Path, rows: list[dict[str, Any]], record: tuple[str, str] | None = None
) -> list[Path]:
    """A diagnosis script's output: ``rows`` as JSON lines written atomically to ``path`` (its
    folder created), and with ``record`` = (experiment id, command) also to the experiment's
    results file (:func:`write_result`); returns the paths written.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "out" / "d.jsonl"
    >>> [p.name for p in write_rows(out, [{"a": 1}, {"a": 2}])], out.read_text()
    (['d.jsonl'], '{"a": 1}\\n{"a": 2}\\n')
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(json.dumps(row) + "\n" for row in rows))
    if record is None:
        return [path]
    experiment_id, command = record
    return [path, write_result(experiment_id, command, rows)]
