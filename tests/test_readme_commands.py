"""The shell commands of the README and docs/cli.md that write results (``--out``, ``--store``)
run as written on a fresh clone (issue 24), as ``tests/test_documented_scripts.py`` does for the
scripts: each is taken from the pages' ``bash`` blocks and run unchanged, as a
``python -m fltheory`` process, in a new folder holding a copy of ``examples/`` and no
``results/`` — what a fresh clone has.

The commands compute for minutes (the paper-sized FedPBC counterexample, a quick CA-Fed
reproduction, a 12-run sweep), so running them is ``slow``; the default suite checks that they
are found, that a clone has no ``results/`` and that the results folders they name would be
created (the same forms on small configs run in ``tests/cli/test_result_folders.py``).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fltheory.atomic import check_result_dir, is_complete

ROOT = Path(__file__).resolve().parents[1]
#: The landing page and the command-line reference, in that order.
README = (ROOT / "README.md").read_text() + "\n" + (ROOT / "docs" / "cli.md").read_text()


def bash_lines(text: str) -> list[str]:
    """The lines of the ``bash`` code blocks of a Markdown text, comments cut.

    >>> bash_lines("x\\n```bash\\nfltheory a --out r  # why\\n```\\n")
    ['fltheory a --out r']
    """
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    return [line.split("  #", 1)[0].strip() for block in blocks for line in block.splitlines()]


#: The documented commands that write into results/ (in the pages' order: the sweep before its
#: export), each once.
WRITERS = list(
    dict.fromkeys(
        line
        for line in bash_lines(README)
        if re.match(r"^(python -m )?fltheory \w", line)
        and re.search(r"--(out|store) results/", line)
    )
)


def _argv(command: str) -> list[str]:
    """The command as a process: ``fltheory ...`` and ``python -m fltheory ...`` alike run as
    this interpreter's ``-m fltheory`` (the README's ``python`` is the venv's)."""
    words = shlex.split(command)
    rest = words[3:] if words[0] == "python" else words[1:]
    return [sys.executable, "-m", "fltheory", *rest]


def _targets(command: str) -> list[Path]:
    words = shlex.split(command)
    return [Path(words[i + 1]) for i, w in enumerate(words) if w in ("--out", "--store")]


def test_the_readme_shows_commands_writing_into_results():
    kinds = {shlex.split(c)[3 if c.startswith("python") else 1] for c in WRITERS}
    assert {"simulate", "reproduce", "sweep"} <= kinds, WRITERS
    assert any("export" in c for c in WRITERS)


def test_a_fresh_clone_has_no_results_folder():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "results"], capture_output=True, text=True
    )
    assert tracked.returncode == 0 and tracked.stdout == ""


@pytest.mark.parametrize("command", WRITERS)
def test_the_results_folders_named_would_be_created(command, tmp_path, monkeypatch):
    """Up-front checks of each --out/--store on a clone without results/: accepted (created
    when the command runs), not refused as 'a missing parent'."""
    monkeypatch.chdir(tmp_path)
    for target in _targets(command):
        if target.suffix:  # a file: the store, the export
            assert not target.parent.exists()
        else:
            assert check_result_dir(target) == "new"


@pytest.mark.slow
def test_readme_commands_run_as_written_on_a_fresh_clone(tmp_path):
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "examples", clone / "examples")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    for command in WRITERS:  # in order: the export reads the sweep's store
        done = subprocess.run(
            _argv(command), cwd=clone, env=env, capture_output=True, text=True, timeout=3600
        )
        assert done.returncode == 0, f"{command}: {done.stderr[-500:]}"
        for target in _targets(command):
            path = clone / target
            assert is_complete(path) if not target.suffix else path.is_file(), command
