"""Every ``fltheory …`` command shown in the README and in docs/cli.md runs and succeeds (exit
status 0).

Commands that run for minutes or write result directories (simulate, reproduce, a whole paper's
check) are exercised by their own tests (tests/sim, tests/experiments, tests/claims)."""

import re
import shlex
from pathlib import Path

import pytest

from fltheory.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
#: The pages whose commands run here: the landing page and the command-line reference.
PAGES = ("README.md", "docs/cli.md")
COMMANDS = list(
    dict.fromkeys(
        line.split("  #", 1)[0].strip()  # each command once, its comment cut
        for page in PAGES
        for block in re.findall(r"```bash\n(.*?)```", (ROOT / page).read_text(), re.S)
        for line in block.splitlines()
        if re.match(r"^fltheory \w", line)
        and not re.match(r"^fltheory (simulate|reproduce \S+ |check --paper)", line)
    )
)


#: README commands that search several claims at their default budgets (minutes on 2 cores):
#: marked slow, run by ``make test-all``.
SLOW = ("fltheory check cafed:thm2-eq13",)


def test_readme_lists_commands():
    assert len(COMMANDS) >= 8


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=[pytest.mark.slow] if c.startswith(SLOW) else []) for c in COMMANDS],
)
def test_readme_command_runs(command, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command, comments=True)[1:]) == 0, capsys.readouterr().err
