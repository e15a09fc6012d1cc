"""Heavy libraries load only where they are used (issue: `import fltheory` under 0.3 s and
`fltheory chain --client ... --json` under 0.5 s wall; `benchmarks/bench_startup.py` times
them). Checked by the modules a fresh interpreter has imported, which does not depend on the
machine's speed."""

import json
import subprocess
import sys

import pytest

HEAVY = ("sympy", "scipy.sparse", "scipy.linalg", "torch", "cvxpy", "matplotlib", "mpmath", "numba")


def _loaded(code: str) -> set[str]:
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    ("code", "heavy"),
    [
        ("import fltheory", (*HEAVY, "numpy", "pydantic", "typer")),
        (
            "from fltheory.cli.app import main\n"
            "import contextlib, io\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['chain', '--client', '0.3:0.6', '--json'])",
            HEAVY,  # (recent typer itself imports pydantic)
        ),
        (
            "import fltheory\nfltheory.chain_report(fltheory.ProductChain([0.3], [0.6]))",
            (*HEAVY, "typer", "rich", "pydantic"),  # the Python API loads no CLI layer
        ),
    ],
    ids=["import fltheory", "fltheory chain --client", "fltheory.chain_report"],
)
def test_heavy_libraries_are_not_imported(code, heavy):
    loaded = _loaded(code)
    assert not [name for name in heavy if name in loaded]
