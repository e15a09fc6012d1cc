"""docs/outputs.md documents every key of every command's ``--json`` object (issue 15): each
command runs on a default input and every key it emits must appear, in backticks, on the page."""

import json
from pathlib import Path
from typing import Any

import pytest

from fltheory.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "outputs.md").read_text()
U = ["--u", "examples/u_ten_clients.csv"]
CHAIN_CLIENTS = ",".join(["0.2:0.9"] * 5 + ["0.9:0.9"] * 5)
#: Maps keyed by data (algorithm labels, setup names, a claim's own parameters): their keys are
#: not part of the schema, their values are.
DATA_KEYED = {
    "algorithms",
    "setups",
    "requires",
    "instance",
    "verdicts",
    "declined",
    "verify_args",
    "holding",
    "before",
    "at",
}

COMMANDS = [
    ["chain", "--client", "0.9:0.5", "--client", "0.1:0.9"],
    [
        "chain",
        "--matrix",
        "examples/chain_sticky3.csv",
        "--states",
        "examples/chain_sticky3_states.json",
    ],
    ["chain", "--matrix", "examples/chain_defective.csv", "--exact"],
    ["bound", "--config", "examples/quadratic_small.toml"],
    ["optimize-q", "--config", "examples/ca_fed_population.toml"],
    ["optimize-q", "--config", "examples/quadratic_small.toml", "--problem", "212"],
    ["limit", *U, "--p", "0.2,0.2,0.2,0.2,0.2,0.9,0.9,0.9,0.9,0.9"],
    ["limit", *U, "--chain-clients", CHAIN_CLIENTS],
    ["check", "--list"],
    ["check", "fedpbc:prop1-printed"],
    ["reproduce", "--list"],
]


def keys(obj: Any, data_keyed: bool = False) -> set[str]:
    """Every dict key in ``obj``, descending into lists and (values only) data-keyed maps.

    >>> sorted(keys({"a": [{"b": 1}], "algorithms": {"fedavg": {"c": 2}}}))
    ['a', 'algorithms', 'b', 'c']
    """
    out: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not data_keyed:
                out.add(key)
            out |= keys(value, key in DATA_KEYED and not data_keyed)
    elif isinstance(obj, list):
        for item in obj:
            out |= keys(item)
    return out


def _json(args: list[str], monkeypatch, capsys) -> dict[str, Any]:
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _undocumented(payload: dict[str, Any]) -> list[str]:
    return sorted(k for k in keys(payload) if f"`{k}`" not in DOC)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_every_json_key_is_documented(args, monkeypatch, capsys) -> None:
    payload = _json(args, monkeypatch, capsys)
    assert keys(payload)
    assert _undocumented(payload) == []


def test_a_missing_key_is_caught() -> None:
    assert _undocumented({"lambda": 1, "no_such_key_xyz": {"C_P": 2}}) == ["no_such_key_xyz"]


@pytest.mark.slow
def test_simulate_json_keys_are_documented(tmp_path, monkeypatch, capsys) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        'name = "doc"\nseed = 1\nseeds = 1\ndevice = "cpu"\n[run]\nrounds = 3\nlr = 0.01\n'
        '[problem]\nkind = "fedpbc_quadratic"\nn_clients = 6\ndim = 2\n'
        '[availability]\nkind = "bernoulli"\np_groups = [0.2, 0.9]\n'
        '[[algorithms]]\nname = "fedpbc"\n[[algorithms]]\nname = "mifa"\n'
        '[[algorithms]]\nname = "f3ast"\nk = 2\n'
    )
    payload = _json(["simulate", "--config", str(config)], monkeypatch, capsys)
    assert _undocumented(payload) == []


@pytest.mark.slow
def test_sweep_json_keys_are_documented(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "base.toml").write_text(
        'name = "doc"\nseed = 1\nseeds = 1\ndevice = "cpu"\n[run]\nrounds = 2\nlr = 0.01\n'
        '[problem]\nkind = "fedpbc_quadratic"\nn_clients = 4\ndim = 2\n'
        '[availability]\nkind = "bernoulli"\np = 0.5\n[[algorithms]]\nname = "fedavg"\n'
    )
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('base = "base.toml"\nseeds = 1\n[axes]\n"run.lr" = [0.01]\n')
    store = str(tmp_path / "s.db")
    payload = _json(["sweep", str(sweep), "--store", store, "--workers", "1"], monkeypatch, capsys)
    assert payload["runs_total"] == 1 and _undocumented(payload) == []
    out = str(tmp_path / "s.csv")
    exported = _json(
        ["sweep", "export", store, "--format", "csv", "--out", out], monkeypatch, capsys
    )
    assert exported["rows"] == 1 and _undocumented(exported) == []
