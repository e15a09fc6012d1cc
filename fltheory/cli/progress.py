"""The CLI's one progress bar: rich rows on stderr, one per label, while a command computes.

Logs and pipes get no bar (nor the blank line rich leaves behind): :func:`progress_bar` then
yields None, which every computing function takes as "no progress".
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class Rows:
    """Rows of a running bar, keyed by label; a row starts on its label's first report (so work
    found done, e.g. runs already in a store, does not speed up the ETA)."""

    def __init__(self, bar: Progress) -> None:
        self._bar = bar
        self._rows: dict[str, TaskID] = {}

    def advance(self, label: str, done: int, total: int, description: str | None = None) -> None:
        """Show ``done`` of ``total`` on ``label``'s row, described by ``description`` (the
        label itself by default)."""
        text = label if description is None else description
        if label not in self._rows:
            self._rows[label] = self._bar.add_task(text, total=total, completed=done)
        self._bar.update(self._rows[label], completed=done, total=total, description=text)

    def row(self, label: str) -> Callable[[str, int, int], None]:
        """``report(description, done, total)`` on ``label``'s one row, described by the latest
        report (e.g. the claim being checked)."""

        def report(description: str, done: int, total: int) -> None:
            self.advance(label, done, total, description)

        return report


@contextmanager
def progress_bar(*, enabled: bool = True, eta: bool = False) -> Iterator[Rows | None]:
    """A transient bar on stderr (description, bar, done/total, time elapsed, and the time
    remaining with ``eta``) while the block runs; None when not ``enabled`` (e.g. ``--json``)
    or stderr is not a terminal.

    >>> with progress_bar(enabled=False) as rows:
    ...     rows is None
    True
    """
    err = Console(stderr=True)
    if not enabled or not err.is_terminal:
        yield None
        return
    columns: list[ProgressColumn | str] = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if eta:
        columns += [TextColumn("ETA"), TimeRemainingColumn()]
    bar = Progress(*columns, console=err, transient=True)
    with bar:
        yield Rows(bar)
