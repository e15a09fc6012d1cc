"""Compute, draw and write a report: :func:`make_report`, what ``fltheory report`` runs."""

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.provenance import config_hash, provenance
from fltheory.report.config import ReportConfig
from fltheory.report.data import CHECK_RESULTS, Progress, compute, stderr_progress

if TYPE_CHECKING:
    from fltheory.resultdir import ResultFolder


def make_report(
    cfg: ReportConfig,
    out: str | Path,
    *,
    quick: bool = False,
    progress: Progress = stderr_progress,
    claims_path: Path = CHECK_RESULTS,
    overwrite: bool = False,
    inputs: tuple[str | Path, ...] = (),
) -> dict[str, Any]:
    """Write the report of ``cfg`` (shortened by :meth:`ReportConfig.quick` with ``quick``) into
    ``out``; returns ``{"paths": {"html", "md", "json"}, "seconds", "summary"}``. ``out`` is
    checked and locked before any work (:class:`~fltheory.resultdir.ResultFolder`): a folder of
    foreign files, or a report without ``overwrite``, is refused; ``inputs`` (the report file)
    may not be in it."""
    from fltheory.report.render import OWNED
    from fltheory.resultdir import ResultFolder

    with ResultFolder(
        out, owned=OWNED, overwrite=overwrite, resumable=False, inputs=inputs
    ) as folder:
        return _make(cfg, folder, quick, progress, claims_path)


def _make(
    cfg: ReportConfig,
    folder: "ResultFolder",
    quick: bool,
    progress: Progress,
    claims_path: Path,
) -> dict[str, Any]:
    from fltheory.report.plots import all_figures
    from fltheory.report.render import summary_lines, write_report
    from fltheory.report.sections import build_sections

    started = time.perf_counter()
    used = cfg.quick() if quick else cfg
    data = compute(used, progress, claims_path, quick=quick)
    progress("drawing the figures")
    figures = all_figures(data)
    sections = build_sections(data.numbers)
    resolved = used.model_dump()
    meta = {
        "mode": "quick" if quick else "full",
        "config": resolved,
        "provenance": provenance(config=resolved, config_hash=config_hash(resolved)),
    }
    progress("writing report.html, report.md, report.json")
    paths = write_report(folder, used.heading, data.numbers, sections, figures, meta)
    return {
        "paths": paths,
        "seconds": time.perf_counter() - started,
        "summary": summary_lines(data.numbers),
    }
