"""The CLI's one progress bar (fltheory.cli.progress): rows per label on a terminal's stderr,
nothing at all for --json, logs and pipes."""

import pytest

from fltheory.cli.progress import progress_bar


def test_a_terminal_gets_one_row_per_label(monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then treats stderr as a terminal
    with progress_bar(eta=True) as rows:
        assert rows is not None
        rows.advance("fedavg", 1, 2)
        rows.advance("fedavg", 2, 2)
        rows.row("claims")("cafed:lemma-8", 3, 4)  # one row, described by the latest report
        rows.row("claims")("cafed:lemma-10", 4, 4)
        tasks = rows._bar.tasks
        assert [t.description for t in tasks] == ["fedavg", "cafed:lemma-10"]
        assert [(t.completed, t.total) for t in tasks] == [(2, 2), (4, 4)]


def test_a_row_starts_where_its_first_report_is(monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    with progress_bar() as rows:
        assert rows is not None
        rows.advance("runs", 5, 8)  # runs found in the store
        assert rows._bar.tasks[0].completed == 5


@pytest.mark.parametrize("enabled", [True, False])
def test_pipes_and_json_get_no_bar(monkeypatch, capsys, enabled):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    with progress_bar(enabled=enabled) as rows:
        assert rows is None
    assert capsys.readouterr().err == ""  # not even rich's blank line
