"""The reference pages of the input files (docs/problem_file.md, report_file.md, sweep_file.md,
simulation_file.md) are generated from the strict schemas and kept current; their examples
are valid files; every key a schema takes is on its page."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _builder():
    spec = importlib.util.spec_from_file_location(
        "build_reference", ROOT / "docs" / "build_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_reference", module)
    spec.loader.exec_module(module)
    return module


def test_the_pages_are_current():
    builder = _builder()
    assert builder.stale() == [], "run python docs/build_reference.py"


def test_a_stale_page_would_be_found(tmp_path: Path):
    builder = _builder()
    for name, build in builder.PAGES.items():
        (tmp_path / name).write_text(build(), encoding="utf-8")
    (tmp_path / "sweep_file.md").write_text("old\n", encoding="utf-8")
    assert builder.stale(tmp_path) == ["sweep_file.md"]


@pytest.mark.parametrize(
    ("page", "model"),
    [
        ("problem_file.md", "fltheory.problems.config:ProblemFile"),
        ("report_file.md", "fltheory.report.config:ReportConfig"),
        ("simulation_file.md", "fltheory.sim.config.tables:SimFile"),
    ],
)
def test_every_key_of_the_schema_is_on_its_page(page: str, model: str):
    module, name = model.split(":")
    cls = getattr(importlib.import_module(module), name)
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    for key in cls.model_fields:
        assert f"| `{key}` |" in text, key


def _toml_block(page: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    found = re.search(r"```toml\n(.*?)```", text, re.S)
    assert found is not None
    return found.group(1)


def test_the_problem_file_example_is_a_valid_file(tmp_path: Path):
    import fltheory

    path = tmp_path / "problem.toml"
    path.write_text(_toml_block("problem_file.md"))
    report = fltheory.bound_report(path)
    assert report.setup.n_clients == 10 and list(report.setup.groups) == [
        "office",
        "home",
        "mobile",
    ]


def test_the_report_file_example_is_a_valid_file(tmp_path: Path):
    from fltheory.report.config import load_report_config

    path = tmp_path / "report.toml"
    path.write_text(_toml_block("report_file.md"))
    assert load_report_config(path).title == "Three groups"
