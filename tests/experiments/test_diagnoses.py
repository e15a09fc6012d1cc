"""Experiments' diagnoses are files produced by runs (docs/diagnoses/), not prose constants in the
catalog, and the package names no machine path."""

import json
import re
from pathlib import Path

from fltheory.experiments import diagnoses
from fltheory.experiments.model import all_experiments, get

PACKAGE = Path(diagnoses.__file__).resolve().parents[1]


def test_every_diagnosis_page_belongs_to_an_experiment_and_gives_its_notes():
    ids = {diagnoses.stem(e.id): e.id for e in all_experiments()}
    pages = sorted(diagnoses.FOLDER.glob("*.md"))
    assert pages
    for page in pages:
        assert page.stem in ids, f"{page.name}: no experiment {page.stem}"
        notes = get(ids[page.stem]).notes
        assert notes and notes in page.read_text(encoding="utf-8")


def test_notes_section_ends_at_the_next_heading():
    text = "# t\n\nhow\n\n## Notes\n\nfirst\nsecond\n\n## Later\n\nnot this\n"
    assert diagnoses.notes_from_markdown(text) == "first\nsecond"
    assert diagnoses.notes_from_markdown("# t\n\nno notes section\n") == ""


def test_notes_are_read_from_the_folder(tmp_path: Path):
    assert diagnoses.read_notes("cafed:fig1a", tmp_path) == ""
    diagnoses.notes_path("cafed:fig1a", tmp_path).write_text("# x\n\n## Notes\n\nmeasured\n")
    assert diagnoses.read_notes("cafed:fig1a", tmp_path) == "measured"


def test_a_result_is_written_with_provenance_and_keeps_other_commands(tmp_path: Path):
    diagnoses.write_result("cafed:fig4b", "python a.py", {"x": 1.5}, tmp_path)
    path = diagnoses.write_result("cafed:fig4b", "python b.py", {"x": 2.5}, tmp_path)
    data = json.loads(path.read_text())
    assert data["experiment"] == "cafed:fig4b" and sorted(data["runs"]) == [
        "python a.py",
        "python b.py",
    ]
    run = data["runs"]["python a.py"]
    assert run["measurements"] == {"x": 1.5}
    assert run["provenance"]["diagnosis"] == "python a.py" and "git_commit" in run["provenance"]
    assert diagnoses.read_result("cafed:fig4b", tmp_path) == data
    assert diagnoses.read_result("cafed:fig1a", tmp_path) is None


def test_no_diagnosis_constant_and_no_machine_path_in_the_package():
    machine = re.compile(r"(?<![\w.])/(?:work|tmp|home|root|Users|mnt|scratch)/")
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\w+_DIAGNOSIS\s*=", text, re.M), path
        assert not machine.search(text), path
