"""``fltheory report`` on the command line: hostile report files and options give one line on
stderr and exit status 2; a small report end to end."""

import json
from pathlib import Path

import pytest

from fltheory.cli.app import main

HOSTILE = {
    "unknown top-level key": ("title = 'x'\npopulaton = {}\n", "unknown key 'populaton'"),
    "unknown nested key": ("[population]\nn = 8\nbogus = 1\n", "unknown key 'bogus'"),
    "string for a number": ("[population]\nn = '8'\n", "key 'n' in [population]"),
    "boolean for an integer": ("[simulation]\nseeds = true\n", "key 'seeds' in [simulation]"),
    "too few clients": ("[population]\nn = 2\n", "key 'n' in [population]"),
    "huge population": ("[population]\nn = 10000000\n", "key 'n' in [population]"),
    "g out of range": ("[population]\ng = 0.7\n", "key 'g' in [population]"),
    "nan": ("[problem]\nsigma = nan\n", "key 'sigma' in [problem]"),
    "infinite kappa2": ("[problem]\nkappa2 = [1.0, inf]\n", "key 'kappa2' in [problem]"),
    "negative kappa2": ("[problem]\nkappa2 = [-1.0]\n", "key 'kappa2' in [problem]"),
    "exact limit too large": ("[simulation]\nlimit_clients = 40\n", "limit_clients"),
    "table for a value": ("title = 'x'\n[population.n]\nx = 1\n", "key 'n' in [population]"),
    "broken TOML": ("[population\n", "invalid TOML"),
    "binary": ("\x00\x01\x02", "invalid TOML"),
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_hostile_report_file_is_one_line_exit_2(case, tmp_path: Path, capsys) -> None:
    text, expected = HOSTILE[case]
    path = tmp_path / "report.toml"
    path.write_text(text, encoding="utf-8")
    status = main(["report", "--config", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("fltheory: error: ") and err.count("\n") == 1, err
    assert expected in err
    assert not (tmp_path / "out").exists()  # refused before anything was computed


def test_missing_config_and_bad_out(tmp_path: Path, capsys) -> None:
    assert main(["report", "--config", str(tmp_path / "absent.toml")]) == 2
    assert "not found" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cfg = tmp_path / "r.toml"
    cfg.write_text(
        "[population]\nn = 8\n[simulation]\nrounds = 20\nseeds = 2\nleaf = false\n"
        "limit_clients = 4\nraster_rounds = 10\n[problem]\nkappa2 = [1.0]\n"
    )
    assert main(["report", "--config", str(cfg), "--out", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert "is not a directory" in err and err.count("\n") == 1


@pytest.mark.slow
def test_report_command_end_to_end(tmp_path: Path, capsys) -> None:
    cfg = tmp_path / "r.toml"
    cfg.write_text(
        "title = 'eight clients'\n[population]\nn = 8\n[simulation]\nrounds = 40\nseeds = 3\n"
        "leaf = false\nlimit_clients = 4\nraster_rounds = 10\n[problem]\nkappa2 = [1.0]\n"
    )
    out = tmp_path / "out"
    assert main(["report", "--config", str(cfg), "--out", str(out), "--quick", "--json"]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert Path(payload["paths"]["html"]) == (out / "report.html").resolve()
    assert "fltheory report: drawing the figures" in captured.err  # progress on stderr
    report = json.loads((out / "report.json").read_text())
    assert report["mode"] == "quick" and report["title"] == "eight clients"
    assert report["summary"] == payload["summary"]
