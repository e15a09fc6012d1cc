"""The committed record: docs/reproduce_results.{md,json} are exactly what the collector builds
from the committed run records (docs/full/runs/: each full run's verdict.json and manifest.json,
checksums checked), it holds no quick verdict, and its diagnosis links point at scripts that
write the files they name."""

import importlib.util
import re
from pathlib import Path

import pytest

from fltheory.experiments.model import SMOKE_VERDICTS, VERDICTS, all_experiments
from fltheory.experiments.record import load_records

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "docs" / "full" / "runs"
spec = importlib.util.spec_from_file_location(
    "reproduce_all", ROOT / "paper_checks/reproduce_all.py"
)
assert spec is not None and spec.loader is not None
reproduce_all = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reproduce_all)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp("record")
    return out, reproduce_all.collect(RECORDS, out)


@pytest.mark.parametrize("name", ["reproduce_results.md", "reproduce_results.json"])
def test_committed_record_is_what_the_run_records_give(generated, name):
    out, _ = generated
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert committed == (out / name).read_text(encoding="utf-8"), (
        f"docs/{name} is not what the run records give: "
        "run python paper_checks/reproduce_all.py --collect"
    )


def test_the_record_holds_full_runs_only(generated):
    _, rows = generated
    runs = load_records(RECORDS)
    assert runs and all(r["mode"] == "full" for r, _ in runs)
    assert all(r["verdict"] in VERDICTS for r, _ in runs)
    page = (ROOT / "docs" / "reproduce_results.md").read_text(encoding="utf-8")
    table = [line for line in page.splitlines() if line.startswith("|")]
    assert not any(v in line for v in SMOKE_VERDICTS for line in table)
    # Every registered (ID, setup) has a row: a full verdict or the reason it has none.
    assert len(rows) == sum(len(e.setups) for e in all_experiments())
    assert all(r["verdict"] in VERDICTS or r.get("status") for r in rows)


def test_every_contradicted_ca_fed_row_links_a_diagnosis(generated):
    _, rows = generated
    missing = [
        (r["id"], r["setup"])
        for r in rows
        if r.get("verdict") == "contradicted" and r["id"].startswith("cafed") and not r["diagnoses"]
    ]
    assert not missing, f"contradicted without a diagnosis script: {missing}"


def _written_by(script: Path) -> re.Pattern[str]:
    """The file names a diagnosis script says it writes (its docstring's ``OUT/<name>``, with
    ``<...>`` standing for an argument)."""
    doc = script.read_text(encoding="utf-8").split('"""')[1]
    names = re.findall(r"OUT/([\w<>|.-]+)", doc)
    assert names, f"{script} does not say what it writes"
    parts = [re.sub(r"<[^>]+>", r"[\\w-]+", re.escape(n).replace(r"\<", "<").replace(r"\>", ">"))
             for n in names]  # fmt: skip
    return re.compile("|".join(f"(?:{p})" for p in parts))


def test_diagnosis_scripts_exist_and_write_the_files_named():
    diagnoses = [(e.id, d) for e in all_experiments() for d in e.diagnoses]
    assert diagnoses
    for experiment_id, d in diagnoses:
        script = ROOT / d.script
        assert script.is_file() and d.script.startswith("figures/"), (experiment_id, d.script)
        assert _written_by(script).fullmatch(d.writes), (experiment_id, d.writes)
        assert all(s in next(e for e in all_experiments() if e.id == experiment_id).setups
                   for s in d.setups)  # fmt: skip
