"""Every Python snippet of the README and of docs/python.md (```python blocks of ``>>>`` lines)
runs from the repository root and prints what the page shows (as a doctest; next to
``test_readme.py``, which runs the pages' shell commands)."""

import doctest
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/python.md")
BLOCKS = [
    block
    for page in PAGES
    for block in re.findall(r"^```python\n(.*?)^```", (ROOT / page).read_text(), re.S | re.M)
]
FACADE = ("chain_report", "bound_report", "optimal_weights", "aggregation_limit", "simulate")


def test_the_readme_shows_a_facade_call():
    (first, *_) = re.findall(
        r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.S | re.M
    )
    assert any(f"fltheory.{name}(" in first for name in FACADE)


def test_the_pages_show_the_five_facade_calls():
    text = "".join(BLOCKS)
    assert len(BLOCKS) >= 5
    assert [name for name in FACADE if f"fltheory.{name}(" not in text] == []


@pytest.mark.parametrize("block", BLOCKS, ids=[f"snippet{i}" for i in range(len(BLOCKS))])
def test_readme_python_snippet_runs_and_shows_its_output(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    assert test.examples, "a README snippet without >>> lines"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
