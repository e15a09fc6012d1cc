"""The CLI's error contract: one line on stderr, exit status 2, nothing on stdout."""

import pytest

from fltheory.cli.app import main


def _one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("fltheory: error:")
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["chain", "--bogus"], "--bogus"),
        (["chain"], "exactly one chain source"),
        (["chain", "--preset", "ca-fed", "--client", "0.5:0.5"], "exactly one chain source"),
        (["chain", "--preset", "nope"], "unknown preset"),
        (["chain", "--client", "0.5"], "PI:LAMBDA2"),
        (["chain", "--n", "notanumber", "--preset", "ca-fed"], "--n"),
        (["chain", "--states", "s.csv", "--preset", "ca-fed"], "--states only applies"),
        (["nosuchcommand"], "nosuchcommand"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    assert main(argv) == 2
    assert fragment in _one_line_error(capsys)


def test_missing_matrix_file(capsys, tmp_path):
    assert main(["chain", "--matrix", str(tmp_path / "absent.csv")]) == 2
    assert "not found" in _one_line_error(capsys)
