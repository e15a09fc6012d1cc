"""Writes the reference part of docs/cli.md — every command of ``fltheory`` with its usage line and
every argument and option, with the help text that ``fltheory COMMAND --help`` prints — between
the markers ``<!-- cli:start -->`` and ``<!-- cli:end -->``; the rest of the page is written by
hand. Run from the repository root after changing a command or an option (a test fails while the
page is out of date)::

    python docs/build_cli.py

The text comes from the command functions themselves (the help, declarations and defaults of
their typer ``Argument``/``Option`` metadata), so the page cannot name an option a command does
not take, nor miss one, and it reads the same under any typer version.
"""

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

# The repository root goes on the path first, so this runs as `python docs/build_cli.py`.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "cli.md"
START, END = "<!-- cli:start -->", "<!-- cli:end -->"

#: How a value's type is shown (the annotation of the command function's parameter).
METAVARS = {int: "INTEGER", float: "FLOAT", str: "TEXT", Path: "PATH"}


def _cell(text: str) -> str:
    return " ".join(text.replace("\\[", "[").split()).replace("|", "\\|")


def commands() -> list[tuple[str, Callable[..., Any]]]:
    """(name, function) of every subcommand of ``fltheory`` in the app's order, after the
    root's callback (name ``""``: the options every command takes)."""
    from fltheory.cli import app as cli

    cli._register_commands()
    root = cli.app.registered_callback
    assert root is not None and root.callback is not None
    subs = [(info.name or "", info.callback) for info in cli.app.registered_commands]
    return [("", root.callback), *((name, f) for name, f in subs if f is not None)]


def _parameters(function: Callable[..., Any]) -> list[tuple[str, str]]:
    """(argument or option as typed on the command line, its help with default) of each
    parameter of a command function, read from its typer ``Argument``/``Option`` metadata
    (``Annotated[T, typer.Option(...)] = default``, or ``= typer.Option(default, ...)``)."""
    import typer.models

    rows = []
    hints = get_type_hints(function, include_extras=True)
    for name, param in inspect.signature(function).parameters.items():
        hint = hints.get(name, param.annotation)
        meta = [
            m
            for m in getattr(hint, "__metadata__", ())
            if isinstance(m, typer.models.ParameterInfo)
        ]
        if meta:  # Annotated: a string in the info's default slot is the first declaration
            info, kind, default = meta[0], get_args(hint)[0], param.default
            decls = list(info.param_decls or ())
            if isinstance(info.default, str) and info.default.startswith("-"):
                decls.insert(0, info.default)
        elif isinstance(param.default, typer.models.ParameterInfo):
            info, kind, default = param.default, hint, param.default.default
            decls = list(info.param_decls or ())
        else:
            continue
        if info.hidden:
            continue
        many = get_origin(_without_none(kind)) is list
        value = _without_none(kind)
        value = get_args(value)[0] if many else value
        required = default is inspect.Parameter.empty or default is ...
        if isinstance(info, typer.models.ArgumentInfo):
            shown = name.upper() + ("..." if many else "")
        else:
            flags = [d for d in decls if d.startswith("-")] or ["--" + name.replace("_", "-")]
            if value is bool:
                shown = flags[0] if decls else f"{flags[0]} / --no-{flags[0][2:]}"
            else:
                shown = f"{flags[0]} {info.metavar or METAVARS.get(value, 'TEXT')}"
        text = info.help or ""
        if required:
            text += " [required]"
        elif default is not None and value is not bool:
            text += f" [default: {default}]"
        rows.append((shown, text))
    return rows


def _without_none(annotation: Any) -> Any:
    """``T`` for ``T | None``; else the annotation."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    if type(None) in get_args(annotation) and len(args) == 1:
        return args[0]
    return annotation


def render() -> str:
    """The generated part: one section per command (the root's global options first)."""
    parts = []
    for name, function in commands():
        rows = _parameters(function)
        title = f"`fltheory {name}`" if name else "`fltheory` (options of every command)"
        help_text = (inspect.getdoc(function) or "").split("\n\n")[0]
        arguments = " ".join(shown for shown, _ in rows if not shown.startswith("-"))
        usage = f"fltheory {name} [OPTIONS] {arguments}" if name else "fltheory [OPTIONS] COMMAND"
        parts += [f"### {title}", "", _cell(help_text), "", "```text", usage.rstrip(), "```", ""]
        if rows:
            parts += ["| argument or option | meaning |", "|---|---|"]
            parts += [f"| `{_cell(shown)}` | {_cell(text)} |" for shown, text in rows]
            parts.append("")
    return "\n".join(parts).rstrip()


def update(page: str) -> str:
    """``page`` with the text between the markers replaced by :func:`render`."""
    head, sep, rest = page.partition(START)
    if not sep or END not in rest:
        raise ValueError(f"docs/cli.md has no {START} … {END} block")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{render()}\n{END}{tail}"


def stale(page: Path = PAGE) -> bool:
    """Whether ``page`` differs from what :func:`update` makes of it."""
    text = page.read_text(encoding="utf-8")
    return update(text) != text


def main() -> int:
    PAGE.write_text(update(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
