"""The flower extra is optional: without Flower, ``import fltheory.flower`` fails with one line
naming the extra, and nothing else in fltheory imports flwr."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HAS_FLWR = importlib.util.find_spec("flwr") is not None
ROOT = Path(__file__).resolve().parents[2] / "fltheory"


@pytest.mark.skipif(HAS_FLWR, reason="Flower is installed: the guard does not fire")
def test_importing_fltheory_flower_without_flwr_names_the_extra():
    code = "import fltheory.flower"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: fltheory.flower needs Flower: install the extra with "
        "pip install 'fltheory[flower]'"
    )


def test_only_fltheory_flower_imports_flwr():
    importers = [
        str(path.relative_to(ROOT.parent))
        for path in ROOT.rglob("*.py")
        if "flwr" in path.read_text() and path.parent.name != "flower"
    ]
    assert importers == []
