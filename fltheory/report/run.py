"""Compute, draw and write a report: :func:`make_report`, what ``fltheory report`` runs."""

import time
from pathlib import Path
from typing import Any

from fltheory.errors import InputError
from fltheory.provenance import config_hash, provenance
from fltheory.report.config import ReportConfig
from fltheory.report.data import CHECK_RESULTS, Progress, compute, stderr_progress


def make_report(
    cfg: ReportConfig,
    out: str | Path,
    *,
    quick: bool = False,
    progress: Progress = stderr_progress,
    claims_path: Path = CHECK_RESULTS,
) -> dict[str, Any]:
    """Write the report of ``cfg`` (shortened by :meth:`ReportConfig.quick` with ``quick``) into
    ``out``; returns ``{"paths": {"html", "md", "json"}, "seconds", "summary"}``."""
    from fltheory.report.plots import all_figures
    from fltheory.report.render import summary_lines, write_report
    from fltheory.report.sections import build_sections

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a directory")
    started = time.perf_counter()
    used = cfg.quick() if quick else cfg
    data = compute(used, progress, claims_path)
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
    paths = write_report(out, used.title, data.numbers, sections, figures, meta)
    return {
        "paths": paths,
        "seconds": time.perf_counter() - started,
        "summary": summary_lines(data.numbers),
    }
