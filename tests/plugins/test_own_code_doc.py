"""docs/own_code.md shows what runs: its Python blocks run as written (in a fresh interpreter:
they register an algorithm), its entry-point groups are the registries' own, and the error it
quotes is the one fltheory prints."""

import importlib.util
import os
import re
import subprocess
import sys
import tomllib

import pytest
from plugin_support import PACKAGE, ROOT

from fltheory import plugins
from fltheory.claims.claim import CLAIMS
from fltheory.experiments.model import EXPERIMENTS
from fltheory.sim.registries import ALGORITHMS, AVAILABILITY, LOCAL_METHODS, MODELS, PROBLEMS

PAGE = (ROOT / "docs" / "own_code.md").read_text()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", PAGE, re.S | re.M)


def test_the_python_blocks_run():
    code = "\n".join(_blocks("python"))
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    environ.pop(plugins.ENV, None)
    code += (
        "\nfrom fltheory.sim.registries import ALGORITHMS"
        "\nprint(ALGORITHMS.get('gamma_weights').doc, verdict.verdict)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[-1] == "holds"


def test_the_toml_blocks_parse():
    blocks = _blocks("toml")
    assert blocks, "docs/own_code.md shows no TOML block"
    for block in blocks:
        assert isinstance(tomllib.loads(block), dict)


def test_the_entry_point_groups_are_the_registries():
    registries = (ALGORITHMS, PROBLEMS, AVAILABILITY, MODELS, LOCAL_METHODS, EXPERIMENTS, CLAIMS)
    groups = {r.what: r.group for r in registries}
    assert groups == plugins.GROUPS
    for group in plugins.GROUPS.values():
        assert f"`{group}`" in PAGE
    toml = tomllib.loads((PACKAGE / "pyproject.toml").read_text())
    assert set(toml["project"]["entry-points"]) <= set(plugins.GROUPS.values())


@pytest.mark.usefixtures("clean_plugins")
def test_the_quoted_error_is_what_fltheory_says():
    if importlib.util.find_spec("gamma_rule") is not None:
        pytest.skip("the example plug-in is installed here: it imports")
    quoted = " ".join(PAGE.split("fltheory: error: ", 1)[1].split("`", 1)[0].split())
    with pytest.raises(plugins.PluginError) as caught:
        plugins.load_plugins(["gamma_rule"], via="--plugin")
    assert str(caught.value) == quoted
