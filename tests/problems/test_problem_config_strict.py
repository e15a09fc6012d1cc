"""The problem file is strict in every table: unknown keys (with a suggestion), wrong types,
non-finite numbers, missing keys and the one-of rules are one-line errors naming the file, the
table and the key; the CLI turns them into exit status 2 and one line on stderr."""

import re
from pathlib import Path

import pytest

from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.problems.config import load_problem_config

CONSTANTS_FILE = """
rounds = 50
local_steps = 2
sigma = 0.5
alpha = "uniform"
Q = 1.0
[clients]
pi = [0.9, 0.5, 0.25]
lambda2 = [0.1, 0.5, 0.8]
[steps]
eta1 = 0.01
power = 1.0
[constants]
L = 2.0
mu = 0.5
Gamma = 0.3
D = 4.0
G = 4.1
H = 5.0
diameter = 2.0
[optimize]
kappa2 = [0.1, 1.0]
"""

PROBLEM_FILE = (
    CONSTANTS_FILE.split("[constants]")[0]
    + """[problem]
u = [[0.0], [1.0], [2.0]]
H_diag = [[1.0], [2.0], [4.0]]
c = 0.0
diameter = 10.0
center = [1.0]
"""
)


def load_error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cfg.toml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_problem_config(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message, message
    return message.replace(str(path), "cfg.toml")


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_both_base_files_load(tmp_path):
    for text in (CONSTANTS_FILE, PROBLEM_FILE):
        path = tmp_path / "ok.toml"
        path.write_text(text)
        assert load_problem_config(path).n_clients == 3


@pytest.mark.parametrize(
    ("base", "old", "new", "expected"),
    [
        # unknown keys, with a suggestion when one is close
        (
            CONSTANTS_FILE,
            "Q = 1.0\n",
            "alhpa = [0.2, 0.3, 0.5]\n",
            "unknown key 'alhpa' in the top level of cfg.toml; did you mean 'alpha'?",
        ),
        (
            CONSTANTS_FILE,
            "lambda2 =",
            "lamda2 =",
            "unknown key 'lamda2' in [clients] of cfg.toml; did you mean 'lambda2'?",
        ),
        (
            CONSTANTS_FILE,
            "power =",
            "powr =",
            "unknown key 'powr' in [steps] of cfg.toml; did you mean 'power'?",
        ),
        (
            CONSTANTS_FILE,
            "Gamma =",
            "Gama =",
            "unknown key 'Gama' in [constants] of cfg.toml; did you mean 'Gamma'?",
        ),
        (
            CONSTANTS_FILE,
            "kappa2 =",
            "kapa2 =",
            "unknown key 'kapa2' in [optimize] of cfg.toml; did you mean 'kappa2'?",
        ),
        (
            PROBLEM_FILE,
            "H_diag =",
            "Hdiag =",
            "unknown key 'Hdiag' in [problem] of cfg.toml; did you mean 'H_diag'?",
        ),
        (
            CONSTANTS_FILE,
            "[steps]",
            "[step]",
            "unknown key 'step' in the top level of cfg.toml; did you mean 'steps'?",
        ),
        (
            CONSTANTS_FILE,
            "diameter = 2.0\n",
            "diameter = 2.0\nflavour = 1\n",
            "unknown key 'flavour' in [constants] of cfg.toml; valid keys: D, G, Gamma, "
            "Gamma_prime, H, L, diameter, mu",
        ),
        # wrong types
        (
            CONSTANTS_FILE,
            "rounds = 50",
            'rounds = "50"',
            "key 'rounds' in the top level of cfg.toml: must be an integer, got '50' (str)",
        ),
        (
            CONSTANTS_FILE,
            "local_steps = 2",
            "local_steps = 2.0",
            "key 'local_steps' in the top level of cfg.toml: must be an integer, got 2.0 (float)",
        ),
        (
            CONSTANTS_FILE,
            "Q = 1.0",
            "Q = true",
            "key 'Q' in the top level of cfg.toml: must be a number, got true (bool)",
        ),
        (
            CONSTANTS_FILE,
            "pi = [0.9, 0.5, 0.25]",
            'pi = [0.9, "0.5", 0.25]',
            "key 'pi' in [clients] of cfg.toml: entry [1] must be a number, got '0.5' (str)",
        ),
        (
            CONSTANTS_FILE,
            "eta1 = 0.01",
            'eta1 = "0.01"',
            "key 'eta1' in [steps] of cfg.toml: must be a number, got '0.01' (str)",
        ),
        (
            CONSTANTS_FILE,
            "L = 2.0",
            "L = [2.0]",
            "key 'L' in [constants] of cfg.toml: must be a number, got [2.0] (list)",
        ),
        (
            CONSTANTS_FILE,
            "kappa2 = [0.1, 1.0]",
            'kappa2 = "big"',
            "key 'kappa2' in [optimize] of cfg.toml: "
            "must be a number or a list of numbers, got 'big' (str)",
        ),
        (
            PROBLEM_FILE,
            "u = [[0.0], [1.0], [2.0]]",
            "u = [0.0, 1.0, 2.0]",
            "key 'u' in [problem] of cfg.toml: entry [0] must be a list, got 0.0 (float)",
        ),
        (
            CONSTANTS_FILE,
            'alpha = "uniform"',
            'alpha = "equal"',
            "key 'alpha' in the top level of cfg.toml: must be 'uniform' or a list of numbers, got "
            "'equal' (str)",
        ),
        (
            CONSTANTS_FILE.split("[optimize]")[0],
            "rounds = 50\n",
            "rounds = 50\noptimize = 3\n",
            "key 'optimize' in the top level of cfg.toml: must be a table, got 3 (int)",
        ),
        # non-finite numbers
        (
            CONSTANTS_FILE,
            "sigma = 0.5",
            "sigma = nan",
            "key 'sigma' in the top level of cfg.toml: must be a finite number, got nan (float)",
        ),
        (
            CONSTANTS_FILE,
            "lambda2 = [0.1, 0.5, 0.8]",
            "lambda2 = [0.1, inf, 0.8]",
            "key 'lambda2' in [clients] of cfg.toml: entry [1] must be a finite number, got "
            "inf (float)",
        ),
        (
            CONSTANTS_FILE,
            "power = 1.0",
            "power = -inf",
            "key 'power' in [steps] of cfg.toml: must be a finite number, got -inf (float)",
        ),
        (
            CONSTANTS_FILE,
            "H = 5.0",
            "H = inf",
            "key 'H' in [constants] of cfg.toml: must be a finite number, got inf (float)",
        ),
        (
            CONSTANTS_FILE,
            "kappa2 = [0.1, 1.0]",
            "kappa2 = [0.1, nan]",
            "key 'kappa2' in [optimize] of cfg.toml: entry [1] must be a finite number, got "
            "nan (float)",
        ),
        (
            PROBLEM_FILE,
            "diameter = 10.0",
            "diameter = inf",
            "key 'diameter' in [problem] of cfg.toml: must be a finite number, got inf (float)",
        ),
        # missing required keys and tables
        (CONSTANTS_FILE, "rounds = 50\n", "", "missing key 'rounds' in the top level of cfg.toml"),
        (CONSTANTS_FILE, "mu = 0.5\n", "", "missing key 'mu' in [constants] of cfg.toml"),
        (PROBLEM_FILE, "diameter = 10.0\n", "", "missing key 'diameter' in [problem] of cfg.toml"),
        (
            PROBLEM_FILE,
            "u = [[0.0], [1.0], [2.0]]\n",
            "",
            "missing key 'u' in [problem] of cfg.toml",
        ),
        (
            CONSTANTS_FILE,
            "[steps]\neta1 = 0.01\npower = 1.0\n",
            "",
            "missing table [steps] in cfg.toml",
        ),
        # one-of rules
        (
            CONSTANTS_FILE,
            "pi = [0.9, 0.5, 0.25]\nlambda2 = [0.1, 0.5, 0.8]\n",
            "",
            "[clients] of cfg.toml: give exactly one of pi, preset, matrix, got none",
        ),
        (
            CONSTANTS_FILE,
            "[clients]\n",
            '[clients]\npreset = "ca-fed"\n',
            "[clients] of cfg.toml: give exactly one of pi, preset, matrix, got pi, preset",
        ),
        (
            CONSTANTS_FILE,
            "lambda2 = [0.1, 0.5, 0.8]\n",
            "",
            "[clients] of cfg.toml: the pi form needs lambda2",
        ),
        (
            CONSTANTS_FILE,
            "[clients]\n",
            "[clients]\nseed = 3\n",
            "[clients] of cfg.toml: key 'seed' goes with 'preset', not with 'pi'",
        ),
        (
            CONSTANTS_FILE,
            "[clients]\n",
            '[clients]\nstates = "m.json"\n',
            "[clients] of cfg.toml: key 'states' goes with 'matrix', not with 'pi'",
        ),
        (
            CONSTANTS_FILE,
            "power = 1.0\n",
            "power = 1.0\nvalues = [0.1]\n",
            "[steps] of cfg.toml: give exactly one of eta1, values, got eta1, values",
        ),
        (
            CONSTANTS_FILE,
            "power = 1.0\n",
            "power = 1.0\ntail_power = 1.0\n",
            "[steps] of cfg.toml: key 'tail_power' goes with 'values', not with 'eta1'",
        ),
        (CONSTANTS_FILE, "power = 1.0\n", "", "[steps] of cfg.toml: the eta1 form needs power"),
        (
            PROBLEM_FILE,
            "c = 0.0\n",
            "c = 0.0\nH = [[[1.0]], [[2.0]], [[4.0]]]\n",
            "[problem] of cfg.toml: give at most one of H (full Hessians) or H_diag (diagonals)",
        ),
        (
            PROBLEM_FILE,
            "[problem]",
            "[constants]\nL = 2.0\nmu = 0.5\nGamma = 0.3\nD = 4.0\nG = 4.1\nH = 5.0\ndiameter = "
            "2.0\n[problem]",
            "the top level of cfg.toml: give exactly one of the tables [problem] or [constants]",
        ),
        (
            CONSTANTS_FILE.split("[constants]")[0],
            "",
            "",
            "the top level of cfg.toml: give exactly one of the tables [problem] or [constants]",
        ),
    ],
)
def test_each_table_is_strict(tmp_path, base, old, new, expected):
    assert load_error(tmp_path, edit(base, old, new)) == expected


@pytest.mark.parametrize(
    ("base", "old", "new", "pattern"),
    [
        (
            CONSTANTS_FILE,
            "rounds = 50",
            "rounds = 0",
            r"^the top level of cfg.toml: rounds must be an integer >= 1, got 0$",
        ),
        (
            CONSTANTS_FILE,
            "pi = [0.9, 0.5, 0.25]",
            "pi = [0.9, 1.5, 0.25]",
            r"^\[clients\] of cfg.toml: .*pi",
        ),
        (
            CONSTANTS_FILE,
            "eta1 = 0.01",
            "eta1 = 0.0",
            r"^\[steps\] of cfg.toml: eta1 must be a finite number > 0, got 0.0$",
        ),
        (
            CONSTANTS_FILE,
            "Gamma = 0.3",
            "Gamma = -0.3",
            r"^\[constants\] of cfg.toml: Gamma must be a finite number >= 0, got -0.3$",
        ),
        (
            CONSTANTS_FILE,
            "kappa2 = [0.1, 1.0]",
            "kappa2 = -1",
            r"^\[optimize\] of cfg.toml: kappa2 must be non-negative, got -1.0 at index 0$",
        ),
        (
            PROBLEM_FILE,
            "center = [1.0]",
            "center = [1.0, 2.0]",
            r"^\[problem\] of cfg.toml: center has 2 entries, expected 1$",
        ),
        (
            PROBLEM_FILE,
            "u = [[0.0], [1.0], [2.0]]",
            "u = [[0.0], [1.0]]",
            r"^\[problem\] of cfg.toml: u has 2 rows but \[clients\] has 3 clients$",
        ),
        (
            CONSTANTS_FILE,
            'alpha = "uniform"',
            "alpha = [0.5, 0.5, 0.5]",
            r"^the top level of cfg.toml: alpha must sum to 1, got 1.5$",
        ),
        (
            CONSTANTS_FILE,
            "Q = 1.0",
            "Q = 0.0",
            r"^the top level of cfg.toml: Q must be a finite number > 0, got 0.0$",
        ),
    ],
)  # fmt: skip
def test_ranges_are_checked_by_the_objects_and_reported_with_the_table(
    tmp_path, base, old, new, pattern
):
    assert re.search(pattern, load_error(tmp_path, edit(base, old, new)))


def test_cli_bound_exits_2_with_one_line_naming_the_key(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(edit(CONSTANTS_FILE, "mu = 0.5", "muu = 0.5"))
    assert main(["bound", "--config", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"fltheory: error: unknown key 'muu' in [constants] of {bad}; did you mean 'mu'?\n"
    )
