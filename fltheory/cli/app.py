"""The ``fltheory`` command: a typer app whose subcommands live in sibling modules.

Every user-facing error (bad option, unreadable file, violated assumption) is printed as one
line on stderr with exit status 2; no traceback.
"""

import sys

import typer

from fltheory.errors import FLTheoryError

app = typer.Typer(
    name="fltheory",
    help="Exact constants, bounds and limits for FL under correlated client availability.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Exact constants, bounds and limits for FL under correlated client availability."""


def _register_commands() -> None:
    # Imported for their side effect of adding commands to ``app``.
    from fltheory.cli import (
        bound_cmd,  # noqa: F401
        chain_cmd,  # noqa: F401
        limit_cmd,  # noqa: F401
        optimize_cmd,  # noqa: F401
        simulate_cmd,  # noqa: F401
    )


def _fail(message: str) -> int:
    sys.stderr.write(f"fltheory: error: {' '.join(message.split())}\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return (and exit with) its status."""
    _register_commands()
    try:
        app(args=argv, standalone_mode=False)
    except typer.Exit as stop:
        status = stop.exit_code
    except typer.Abort:
        status = _fail("aborted")
    except typer.TyperException as err:  # usage errors: unknown option, bad value, ...
        status = _fail(err.format_message())
    except FLTheoryError as err:
        status = _fail(str(err))
    except (OSError, ValueError) as err:
        status = _fail(f"{type(err).__name__}: {err}")
    else:
        status = 0
    if argv is None:
        sys.exit(status)
    return status
