"""The commands' tables at 80 columns, piped: no number is cut or wrapped, no line is wider
than the terminal, and the numbers of ``--json`` appear whole in the text (issue 15)."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len

from fltheory.cli.app import main
from fltheory.cli.output import Col, column_widths

ROOT = Path(__file__).resolve().parents[2]
LIMIT = [
    "limit",
    "--u",
    "examples/u_ten_clients.csv",
    "--p",
    "0.2,0.2,0.2,0.2,0.2,0.9,0.9,0.9,0.9,0.9",
]
OPTIMIZE = ["optimize-q", "--config", "examples/ca_fed_population.toml", "--kappa2", "1"]


def _run(args: list[str], columns: int, monkeypatch, capsys) -> str:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", str(columns))
    capsys.readouterr()
    assert main(args) == 0
    return capsys.readouterr().out


def _g(x: float, digits: int = 6) -> str:
    return f"{x:.{digits}g}"


def _shown(args: list[str], payload: dict) -> list[str]:
    """The numbers of the --json object that the text output shows, as it formats them."""
    if args[0] == "chain":
        keys = ("slem", "lambda", "C_P", "log_C_P", "relaxation_time", "hitting_time")
        bounds = payload["mixing_time_bounds"]
        return [_g(payload[k]) for k in keys] + [_g(bounds["lower"]), _g(bounds["upper"])]
    if args[0] == "bound":
        out = []
        for key in ("theorem1", "theorem2", "theorem3", "total"):
            res = payload[key]
            out += [_g(res["value"]), _g(res["log_value"])]
            out += [_g(res["exact"])] if res["exact"] is not None else []
        out += [_g(v) for v in payload["theorem2"]["log_terms"].values() if v is not None]
        return out
    if args[0] == "limit":
        vec = payload["limit"] + payload["optimum"]
        return [_g(v) for v in vec] + [_g(payload["distance"]), _g(payload["rate"])]
    if args[0] == "optimize-q":
        return [_g(v) for v in payload["q"] + payload["p"]] + [_g(payload["objective"], 8)]
    raise AssertionError(args)


COMMANDS = [
    ["chain", "--client", "0.9:0.5", "--client", "0.1:0.9"],
    ["chain", "--preset", "ca-fed"],
    ["bound", "--config", "examples/quadratic_small.toml"],
    LIMIT,
    OPTIMIZE,
]


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:3]))
def test_numbers_intact_at_narrow_width(args, columns, monkeypatch, capsys) -> None:
    text = _run(args, columns, monkeypatch, capsys)
    payload = json.loads(_run([*args, "--json"], columns, monkeypatch, capsys))
    assert "…" not in text
    assert max(cell_len(line) for line in text.splitlines()) <= columns
    tokens = set(re.findall(r"[-+0-9.e^]+", text.replace("[", " ").replace(",", " ")))
    for number in _shown(args, payload):
        assert number in tokens, f"{number} not shown whole:\n{text}"


@pytest.mark.parametrize("args", [["reproduce", "--list"], ["check", "--list"]])
def test_identifiers_never_broken(args, monkeypatch, capsys) -> None:
    text = _run(args, 80, monkeypatch, capsys)
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    ids = {m for m in re.findall(r"^│ (\S+)", text, flags=re.M)}
    listed = json.loads(_run([*args, "--json"], 80, monkeypatch, capsys))
    entries = listed.get("experiments", listed.get("claims", []))
    expected = {e["id"] for e in entries}
    assert expected and expected <= ids


def test_optimize_q_groups_and_all(monkeypatch, capsys) -> None:
    grouped = _run(OPTIMIZE, 200, monkeypatch, capsys)
    full = _run([*OPTIMIZE, "--all"], 80, monkeypatch, capsys)
    payload = json.loads(_run([*OPTIMIZE, "--json"], 80, monkeypatch, capsys))
    # An independent grouping: the paper's population has π = ½ ± g, so q* takes two values.
    q = np.array(payload["q"])
    assert len(set(np.round(q, 12))) == 2
    assert "100 clients in 2 groups" in " ".join(grouped.split())
    assert "0–49 (50 clients)" in grouped and "50–99 (excluded) (50 clients)" in grouped
    rows = [line for line in full.splitlines() if re.match(r"^│ \d+ ", line)]
    assert len(rows) == 100
    assert len(grouped.splitlines()) < 30


def test_a_table_too_wide_moves_columns_to_a_second_table(monkeypatch, capsys) -> None:
    from rich.console import Console

    from fltheory.cli.output import print_table

    out = Console(width=40, file=__import__("io").StringIO())
    cells = ["1.23456789012345e+55", "-9.87654321098765e-12", "3.14159265358979"]
    print_table(
        out, "t", [Col("k"), *(Col(f"c{i}", numeric=True) for i in range(3))], [["a", *cells]]
    )
    text = out.file.getvalue()
    assert "t (1/3)" in text and "t (3/3)" in text
    assert all(c in text for c in cells)
    assert column_widths([Col("x", numeric=True)], [[cells[0]]], 10) is None
