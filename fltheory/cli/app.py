"""The ``fltheory`` command: a typer app whose subcommands live in sibling modules.

Exit statuses, whatever the subcommand:

* 0 — success;
* 2 — the user's input was refused (bad option, unreadable file, violated assumption): one
  line on stderr, no traceback;
* 1 — an internal error (a bug): one line saying so, with the hint to rerun with ``--debug``
  (anywhere on the command line) for the traceback;
* 130 / 143 — interrupted by Ctrl-C (SIGINT) / terminated (SIGTERM): one line, never a success.

``--plugin MODULE`` (repeatable, anywhere on the command line, like ``--debug``) imports an
outside module — a dotted name or a ``.py`` file — before the command runs, as does
``FLTHEORY_PLUGINS=mod1,mod2`` (:mod:`fltheory.plugins`); a module that fails to import is a
one-line error (exit 2).

``--version`` prints the version. Usage errors are caught as ``typer.TyperException`` where typer
vendors click (0.2x and later) and as ``click.ClickException`` where it depends on click (up to
0.20, the range Flower 1.41 pins), so the CLI works with any typer from 0.12 on.
"""

import signal
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Annotated

import numpy as np
import typer

from fltheory._version import __version__
from fltheory.errors import FLTheoryError


def _usage_error_class() -> type[Exception]:
    """typer >= 0.2x vendors click and exposes its base exception; older typer re-uses click's."""
    try:
        from typer import TyperException

        return TyperException
    except ImportError:
        from click.exceptions import ClickException  # type: ignore[import-not-found]

        return ClickException  # type: ignore[no-any-return]


UsageProblem = _usage_error_class()

app = typer.Typer(
    name="fltheory",
    help="Exact constants, bounds and limits for FL under correlated client availability.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Exit statuses (see the module docstring).
EXIT_INPUT, EXIT_BUG, EXIT_SIGINT, EXIT_SIGTERM = 2, 1, 130, 143
DEBUG_FLAG = "--debug"
PLUGIN_OPTION = "--plugin"


class Interrupted(BaseException):
    """Raised in the main thread when SIGINT or SIGTERM arrives (BaseException, so no library
    ``except Exception`` swallows it and typer does not turn it into a status of its own)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"fltheory {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            PLUGIN_OPTION,
            metavar="MODULE",
            help="Import an outside module (a dotted name or a .py file) that registers "
            "algorithms, problems, availability kinds, claims or experiments; repeatable, "
            "accepted anywhere on the command line (also: FLTHEORY_PLUGINS=mod1,mod2).",
        ),
    ] = None,
) -> None:
    """Exact constants, bounds and limits for FL under correlated client availability.

    Add --debug anywhere to see the traceback of an internal error, --plugin MODULE anywhere
    to load your own code.
    """


def _register_commands() -> None:
    """Add the subcommands, each a function of a sibling module, to :data:`app` (once; the
    modules are imported here, on the first run, so that they need not import the app)."""
    if app.registered_commands:
        return
    from fltheory.cli import (
        bound_cmd,
        chain_cmd,
        check_cmd,
        limit_cmd,
        optimize_cmd,
        report_cmd,
        reproduce_cmd,
        simulate_cmd,
        sweep_cmd,
    )

    for name, command in (
        ("bound", bound_cmd.bound_command),
        ("chain", chain_cmd.chain_command),
        ("check", check_cmd.check_command),
        ("limit", limit_cmd.limit_command),
        ("optimize-q", optimize_cmd.optimize_q_command),
        ("report", report_cmd.report_command),
        ("reproduce", reproduce_cmd.reproduce_command),
        ("simulate", simulate_cmd.simulate_command),
        ("sweep", sweep_cmd.sweep_command),
    ):
        app.command(name)(command)


def plugin_options(args: list[str]) -> tuple[list[str], list[str]]:
    """(the arguments without ``--plugin MODULE`` / ``--plugin=MODULE``, the modules named).

    >>> plugin_options(["simulate", "--plugin", "my_rules", "--config", "c.toml"])
    (['simulate', '--config', 'c.toml'], ['my_rules'])
    """
    rest: list[str] = []
    modules: list[str] = []
    items = iter(args)
    for arg in items:
        if arg == PLUGIN_OPTION:
            value = next(items, None)
            if value is None or value.startswith("--"):
                raise FLTheoryError(f"{PLUGIN_OPTION} needs a module name or a .py file")
            modules.append(value)
        elif arg.startswith(PLUGIN_OPTION + "="):
            modules.append(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    return rest, modules


def _load_plugins(modules: list[str]) -> None:
    """The plug-ins of ``FLTHEORY_PLUGINS`` and of ``--plugin``, imported before the command."""
    from fltheory import plugins

    plugins.load_environment()
    plugins.load_plugins(modules, via=PLUGIN_OPTION)


def _say(kind: str, message: str) -> None:
    sys.stderr.write(f"fltheory: {kind}: {' '.join(str(message).split())}\n")
    sys.stderr.flush()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


@contextmanager
def _signals_raise() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` while the command runs (main thread
    only; elsewhere Python's defaults stay)."""
    previous = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, _on_signal)
    except ValueError:  # not the main thread (e.g. called from a test runner's worker)
        pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(argv: list[str]) -> int:
    """Run the CLI on ``argv`` and return the exit status (never raises, never exits)."""
    debug = DEBUG_FLAG in argv
    args = [a for a in argv if a != DEBUG_FLAG]
    try:
        args, modules = plugin_options(args)
        _load_plugins(modules)
        _register_commands()
        # Overflow in arithmetic on huge-but-finite inputs is caught by the checks of the
        # results; numpy's RuntimeWarning lines would break the one-line contract of stderr.
        with _signals_raise(), np.errstate(all="ignore"):
            status = app(args=args, standalone_mode=False, prog_name="fltheory")
    except typer.Exit as stop:
        return stop.exit_code
    except typer.Abort:  # click's Ctrl-C at a prompt
        _say("interrupted", "aborted by the user")
        return EXIT_SIGINT
    except UsageProblem as err:  # usage errors: unknown option, bad value
        _say("error", err.format_message())  # type: ignore[attr-defined]
        return EXIT_INPUT
    except FLTheoryError as err:
        _say("error", str(err))
        return EXIT_INPUT
    except (KeyboardInterrupt, Interrupted) as stop:
        return _stopped(stop)
    except BrokenPipeError:  # `fltheory ... | head`: the reader went away
        return EXIT_INPUT
    except OSError as err:  # the environment refused (disk full, permission denied, ...)
        _say("error", f"{type(err).__name__}: {err}")
        return EXIT_INPUT
    except Exception as err:  # a bug: say so in one line, traceback only on request
        behind = _interrupt_behind(err)
        if behind is not None:  # the signal landed inside a compiled kernel, which wrapped it
            return _stopped(behind)
        if debug:
            traceback.print_exc()
        _say(
            "internal error",
            f"{type(err).__name__}: {err} (this is a bug in fltheory; rerun with {DEBUG_FLAG} "
            "for the traceback)",
        )
        return EXIT_BUG
    if status == EXIT_SIGINT:  # typer turned a KeyboardInterrupt into this status
        _say("interrupted", "stopped by Ctrl-C (SIGINT); no result was reported")
        return EXIT_SIGINT
    return status if isinstance(status, int) and not isinstance(status, bool) else 0


def _stopped(stop: BaseException) -> int:
    """Say how the run was stopped (SIGTERM or Ctrl-C) and return its exit status."""
    if getattr(stop, "signum", signal.SIGINT) == signal.SIGTERM:
        _say("terminated", "stopped by SIGTERM; no result was reported")
        return EXIT_SIGTERM
    _say("interrupted", "stopped by Ctrl-C (SIGINT); no result was reported")
    return EXIT_SIGINT


def _interrupt_behind(err: BaseException) -> BaseException | None:
    """The interrupt an exception was raised from, if any: a signal that arrives while numba's
    compiled code runs surfaces as ``SystemError: ... returned a result with an exception set``
    whose cause is the :class:`Interrupted` the handler raised.

    >>> try:
    ...     raise SystemError("returned a result with an exception set") from Interrupted(15)
    ... except SystemError as err:
    ...     _interrupt_behind(err).signum
    15
    """
    seen: set[int] = set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, (KeyboardInterrupt, Interrupted)):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI; exit the process with its status when ``argv`` is None."""
    status = run(sys.argv[1:] if argv is None else list(argv))
    if argv is None:
        sys.exit(status)
    return status
