"""Output helpers shared by subcommands: one JSON object on stdout, or rich tables.

Tables go through :func:`print_table`, which keeps them readable at any terminal width (80
columns when piped): a number is never cut or wrapped, a text column wraps at word boundaries
only, and columns that do not fit beside the first (key) column move to a second table that
repeats it.
"""

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console
from rich.table import Table
from rich.text import Text

from fltheory.jsonable import to_jsonable

#: Border and padding characters per column (``│ x `` ) plus the closing border.
_PER_COLUMN = 3


def emit_json(payload: dict[str, Any]) -> None:
    """Print ``payload`` as a single JSON object on stdout and nothing else."""
    sys.stdout.write(json.dumps(to_jsonable(payload), allow_nan=False) + "\n")


def console() -> Console:
    """A rich console on stdout for human-readable output."""
    return Console()


def warn(message: str) -> None:
    """A one-line warning on stderr (never on stdout, which may carry JSON)."""
    Console(stderr=True).print(f"[yellow]warning:[/yellow] {message}", highlight=False)


@dataclass(frozen=True)
class Col:
    """A table column: its header, whether its cells are numbers (right-aligned, never
    broken) and whether they are identifiers (left-aligned, never broken).

    >>> Col("value", numeric=True).justify, Col("id", atomic=True).unbroken
    ('right', True)
    """

    header: str
    numeric: bool = False
    atomic: bool = False

    @property
    def unbroken(self) -> bool:
        """Whether a cell must be shown whole on one line."""
        return self.numeric or self.atomic

    @property
    def justify(self) -> Literal["left", "right"]:
        """Numbers are right-aligned, text left-aligned."""
        return "right" if self.numeric else "left"


def _text(cell: "str | Text") -> Text:
    return cell if isinstance(cell, Text) else Text(cell)


def _longest_word(text: Text) -> int:
    return max((Text(w).cell_len for w in text.plain.split()), default=1)


def column_widths(
    columns: Sequence[Col], rows: Sequence[Sequence["str | Text"]], width: int
) -> list[int] | None:
    """Content widths for ``columns`` within ``width`` characters, or None when they cannot fit.

    A numeric or atomic column gets its widest cell; a text column at least its longest word.

    >>> column_widths([Col("k"), Col("x", numeric=True)], [["a b", "1.25"]], 80)
    [3, 4]
    >>> column_widths([Col("k"), Col("x", numeric=True)], [["aaa bbbb", "1.25"]], 16)
    [5, 4]
    >>> column_widths([Col("k"), Col("x", numeric=True)], [["aaa", "1.25"]], 8) is None
    True
    """
    cells = [[_text(row[i]) for row in rows] for i in range(len(columns))]
    natural, minimum = [], []
    for col, column_cells in zip(columns, cells, strict=True):
        head = Text(col.header)
        wide = max([c.cell_len for c in column_cells] + [head.cell_len])
        natural.append(wide)
        if col.unbroken:
            minimum.append(max([c.cell_len for c in column_cells] + [_longest_word(head)]))
        else:
            minimum.append(max(_longest_word(c) for c in [head, *column_cells]))
    room = width - _PER_COLUMN * len(columns) - 1
    if sum(minimum) > room:
        return None
    widths = list(natural)
    while sum(widths) > room:
        slack = [w - m for w, m in zip(widths, minimum, strict=True)]
        widths[slack.index(max(slack))] -= 1
    return widths


def print_table(
    out: Console,
    title: str,
    columns: Sequence[Col],
    rows: Sequence[Sequence["str | Text"]],
    *,
    key: int = 1,
    sections: Sequence[int] = (),
) -> None:
    """Print ``rows`` under ``columns``, split into several tables when one would not fit.

    The first ``key`` columns are repeated in every part; ``sections`` lists row indices after
    which a separator line is drawn. Cells are plain strings (no markup) or :class:`rich.text.Text`.

    >>> out = Console(width=30, file=__import__("io").StringIO())
    >>> rows = [["alpha", "1.2345678901e+55", "text that wraps"]]
    >>> print_table(out, "t", [Col("name"), Col("v", numeric=True), Col("note")], rows)
    >>> "1.2345678901e+55" in out.file.getvalue() and "…" not in out.file.getvalue()
    True
    """
    parts: list[list[int]] = []
    rest = list(range(key, len(columns)))
    while rest:
        take = len(rest)
        while take > 1:
            chosen = [*range(key), *rest[:take]]
            if column_widths([columns[i] for i in chosen], _pick(rows, chosen), out.width):
                break
            take -= 1
        parts.append([*range(key), *rest[:take]])
        rest = rest[take:]
    if not parts:
        parts = [list(range(len(columns)))]
    for number, chosen in enumerate(parts):
        picked = _pick(rows, chosen)
        cols = [columns[i] for i in chosen]
        widths = column_widths(cols, picked, out.width)
        suffix = "" if len(parts) == 1 else f" ({number + 1}/{len(parts)})"
        table = Table(title=Text(title + suffix))
        for i, col in enumerate(cols):
            # A numeric column is at least as wide as its widest cell, so no number wraps.
            table.add_column(
                col.header,
                justify=col.justify,
                overflow="fold",
                width=None if widths is None else widths[i],
            )
        for r, row in enumerate(picked):
            table.add_row(*(_text(c) for c in row), end_section=r in sections)
        out.print(table)


def _pick(rows: Sequence[Sequence["str | Text"]], chosen: Sequence[int]) -> list[list[Any]]:
    return [[row[i] for i in chosen] for row in rows]
