"""The sweep file: its runs, and every hostile file refused in one line before anything runs."""

import os
import re
from pathlib import Path

import pytest
from conftest import write_sweep

from fltheory.cli.app import run as cli
from fltheory.config import load_toml
from fltheory.errors import InputError
from fltheory.sim.config import build
from fltheory.sweep.spec import MAX_RUNS, load_sweep, resolve, runs


def _sweep(folder: Path, text: str) -> Path:
    return write_sweep(folder, sweep=text)


def test_runs_are_the_product_times_the_seeds(sweep_file):
    sweep = load_sweep(sweep_file)
    todo = runs(sweep)
    assert sweep.size == len(todo) == 2 * 2 * 2
    assert len({r.key for r in todo}) == 8
    points = {(r.swept["run.lr"], r.swept["availability.p"], r.seed) for r in todo}
    assert points == {(lr, p, s) for lr in (0.05, 0.1) for p in (0.3, 0.8) for s in (0, 1)}
    for r in todo:  # the axes are applied to the config, one repetition with the run's seed
        assert r.config["run"]["lr"] == r.swept["run.lr"]
        assert r.config["availability"]["p"] == r.swept["availability.p"]
        assert (r.config["seed"], r.config["seeds"]) == (r.seed, 1)


def test_resolve_matches_what_the_simulator_records(sweep_file):
    """The key hashes the config the simulator would record (defaults filled in)."""
    for r in runs(load_sweep(sweep_file))[:2]:
        assert resolve(r.config) == build(r.config).resolved


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "name",
    ["sim_ca_fed_fig1a", "sim_fedar_table3", "sim_fedpbc_counterexample", "sim_fedpbc_fig2"],
)
def test_resolve_matches_the_simulator_on_the_examples(name):
    path = EXAMPLES / f"{name}.toml"
    raw = load_toml(path)
    assert resolve(raw) == build(raw, base=path.parent).resolved


def test_seed_lists_and_list_entries_by_index(tmp_path):
    text = 'base = "base.toml"\nseeds = [7, 3]\n[axes]\n"algorithms.1.lr" = [0.2, 0.4]\n'
    todo = runs(load_sweep(_sweep(tmp_path, text)))
    assert [(r.seed, r.config["algorithms"][1]["lr"]) for r in todo] == [
        (7, 0.2), (3, 0.2), (7, 0.4), (3, 0.4)
    ]  # fmt: skip
    assert all(r.resolved["algorithms"][0]["lr"] == 0.1 for r in todo)  # the other is untouched


HOSTILE = [
    ('base = "base.toml"\nsede = 3\n', "unknown key 'sede' in the sweep file .*mean 'seeds'"),
    ("seeds = 3\n", "missing key 'base'"),
    ('base = "base.toml"\nseeds = 0\n', "'seeds' .* must be >= 1"),
    ('base = "base.toml"\nseeds = [1, 1]\n', "lists a seed twice"),
    ('base = "base.toml"\nseeds = "x"\n', "'seeds' .*expected a count or a list"),
    ('base = "base.toml"\naxes = 3\n', "'axes' .* must be a table"),
    ('base = "base.toml"\n[axes]\n"run.lr" = 0.1\n', "axis 'run.lr' .*expected a list of values"),
    ('base = "base.toml"\n[axes]\n"run.lr" = []\n', "axis 'run.lr' .*an empty list"),
    ('base = "base.toml"\n[axes]\n"seed" = [1, 2]\n', "axis 'seed' .*set by 'seeds'"),
    ('base = "base.toml"\n[axes]\n"rnu.lr" = [0.1]\n', "axis 'rnu.lr' .*did you mean 'run'"),
    ('base = "base.toml"\n[axes]\n"run.lrr" = [0.1]\n', "axis 'run.lrr' .*unknown key 'lrr' in"),
    ('base = "base.toml"\n[axes]\n"algorithms.5.lr" = [0.1]\n', "entries 0..1"),
    ('base = "base.toml"\n[axes]\n"run.rounds.x" = [1]\n', "'run.rounds' is a value"),
    ('base = "base.toml"\n[axes]\n"run..lr" = [1]\n', "not a dotted key"),
    ('base = "base.toml"\n[axes]\n"run.lr" = [0.1, -1.0]\n', "axis 'run.lr' .*lr"),
    ('base = "base.toml"\n[axes]\n"problem.kind" = ["nope"]\n', "axis 'problem.kind' .*nope"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), HOSTILE)
def test_hostile_sweep_files_are_refused_naming_the_problem(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        load_sweep(_sweep(tmp_path, text))


def test_a_huge_product_is_refused_at_once(tmp_path):
    values = ", ".join(str(0.001 * (i + 1)) for i in range(1000))
    axes = f'"run.lr" = [{values}]\n"run.rounds" = [{values}]\n'
    text = f'base = "base.toml"\nseeds = 10\n[axes]\n{axes}'
    with pytest.raises(InputError, match=f"10,000,000 runs .*more than {MAX_RUNS:,}"):
        load_sweep(_sweep(tmp_path, text))


def test_a_missing_base_a_directory_and_a_fifo_are_refused(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('base = "nowhere.toml"\n')
    with pytest.raises(InputError, match="base config not found"):
        load_sweep(path)
    (tmp_path / "dir.toml").mkdir()
    path.write_text('base = "dir.toml"\n')
    with pytest.raises(InputError, match="is a directory"):
        load_sweep(path)
    os.mkfifo(tmp_path / "pipe.toml")
    path.write_text('base = "pipe.toml"\n')
    with pytest.raises(InputError, match="is a named pipe"):  # refused without blocking
        load_sweep(path)


def test_the_cli_says_one_line_and_exits_2(tmp_path, capsys):
    path = _sweep(tmp_path, 'base = "base.toml"\n[axes]\n"run.lrr" = [0.1]\n')
    status = cli(["sweep", str(path), "--store", str(tmp_path / "r.db")])
    err = capsys.readouterr().err
    assert status == 2
    assert re.fullmatch(r"fltheory: error: axis 'run.lrr' .*\n", err)
    assert not (tmp_path / "r.db").exists()  # refused before the store is created
    assert cli(["sweep", str(path)]) == 2
    assert "missing option --store" in capsys.readouterr().err
