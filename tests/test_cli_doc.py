"""docs/cli.md names every command and option of ``fltheory``: its reference part is generated
from the command functions (docs/build_cli.py) and kept current, and checked here against the
help that the app itself prints (typer's help records, an independent reading)."""

import importlib.util
import re
import sys
from pathlib import Path

import typer

from fltheory.cli import app as cli

ROOT = Path(__file__).resolve().parents[1]


def _builder():
    spec = importlib.util.spec_from_file_location("build_cli", ROOT / "docs" / "build_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_cli", module)
    spec.loader.exec_module(module)
    return module


def _sections() -> dict[str, str]:
    """The generated part of docs/cli.md by command name ("" for the root's options)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    generated = text.split("<!-- cli:start -->", 1)[1].split("<!-- cli:end -->", 1)[0]
    parts = re.split(r"^### `fltheory ?([\w-]*)`.*$", generated, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_page_is_current():
    assert not _builder().stale(), "docs/cli.md is out of date: run python docs/build_cli.py"


def test_a_stale_page_would_be_found(tmp_path):
    builder = _builder()
    page = tmp_path / "cli.md"
    page.write_text(builder.update((ROOT / "docs" / "cli.md").read_text()).replace("--json", "-j"))
    assert builder.stale(page)


def test_every_command_and_option_the_app_prints_is_on_the_page():
    cli._register_commands()
    root = typer.main.get_command(cli.app)
    root_ctx = typer.Context(root, info_name="fltheory")
    sections = _sections()
    assert set(sections) == {"", *root.commands}  # every command has its section
    for name, command in [("", root), *root.commands.items()]:
        ctx = root_ctx if not name else typer.Context(command, info_name=name, parent=root_ctx)
        for param in command.params:
            record = param.get_help_record(ctx)
            if record is None or param.param_type_name == "argument":
                continue
            for flag in re.findall(r"--[\w-]+", record[0]):
                assert re.search(rf"(?<![\w-]){flag}(?![\w-])", sections[name]), (name, flag)
            help_text = (record[1] or "").replace("\\[", "[")  # rich markup escape
            assert " ".join(help_text.split()).split("[default")[0].strip()[:40] in (
                " ".join(sections[name].replace("\\|", "|").split())
            ), (name, record[1])
