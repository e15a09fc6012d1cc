"""The CLI's error contract: one line on stderr, exit status 2, nothing on stdout."""

import signal

import pytest

from fltheory.cli.app import Interrupted, main


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


def test_version(capsys):
    from fltheory import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"fltheory {__version__}"


def _broken_chain_command(monkeypatch, exc: BaseException) -> None:
    """Make `fltheory chain` raise ``exc`` from deep inside the library."""
    from fltheory.markov import product

    def boom(*args, **kwargs):
        raise exc

    monkeypatch.setattr(product.ProductChain, "__init__", boom)


def test_internal_error_is_exit_1_with_debug_hint(capsys, monkeypatch):
    _broken_chain_command(monkeypatch, ValueError("broadcast shapes disagree"))
    assert main(["chain", "--client", "0.5:0.5"]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fltheory: internal error: ValueError")
    assert "--debug" in lines[0] and captured.out == ""


def test_debug_shows_the_traceback(capsys, monkeypatch):
    _broken_chain_command(monkeypatch, ValueError("broadcast shapes disagree"))
    assert main(["chain", "--client", "0.5:0.5", "--debug"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "broadcast shapes disagree" in err


def _wrapped(stop: BaseException) -> SystemError:
    err = SystemError("CPUDispatcher(...) returned a result with an exception set")
    err.__cause__ = stop
    return err


@pytest.mark.parametrize(
    ("exc", "status", "kind"),
    [
        (KeyboardInterrupt(), 130, "fltheory: interrupted:"),
        (Interrupted(signal.SIGINT), 130, "fltheory: interrupted:"),
        (Interrupted(signal.SIGTERM), 143, "fltheory: terminated:"),
        # A signal inside numba's compiled code comes back wrapped in a SystemError.
        (_wrapped(Interrupted(signal.SIGTERM)), 143, "fltheory: terminated:"),
        (_wrapped(KeyboardInterrupt()), 130, "fltheory: interrupted:"),
    ],
)
def test_interrupts_never_report_success(capsys, monkeypatch, exc, status, kind):
    _broken_chain_command(monkeypatch, exc)
    assert main(["chain", "--client", "0.5:0.5", "--json"]) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and kind in lines[0]
