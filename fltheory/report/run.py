"""Compute, draw and write a report: :func:`make_report`, what ``fltheory report`` runs."""

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.provenance import config_hash, provenance
from fltheory.report.config import ReportConfig
from fltheory.report.data import CHECK_RESULTS, Progress, compute, stderr_progress

if TYPE_CHECKING:
    from fltheory.resultdir import ResultFolder


def as_report_config(
    cfg: "ReportConfig | Mapping[str, Any] | str | os.PathLike[str] | None",
    availability: Any = None,
) -> ReportConfig:
    """A :class:`ReportConfig` from itself, its tables as a dict, a report file or None (the
    CA-Fed default); ``availability`` — a chain object, an ``[availability]`` table or a file
    (:mod:`fltheory.api.availability`) — replaces the config's setting.

    >>> from fltheory.markov import ProductChain
    >>> as_report_config(None, ProductChain([0.9, 0.2], [0.5, 0.0])).availability["kind"]
    'two_state'
    """
    from fltheory.config.schema import parse
    from fltheory.errors import InputError
    from fltheory.report.config import load_report_config

    if cfg is None or isinstance(cfg, str | os.PathLike):
        out = load_report_config(None if cfg is None else Path(cfg))
    elif isinstance(cfg, Mapping):
        out = parse(ReportConfig, dict(cfg), table="")
    elif isinstance(cfg, ReportConfig):
        out = cfg
    else:
        raise InputError(
            "config must be a ReportConfig, a report file or its tables as a dict, got "
            f"{type(cfg).__name__}"
        )
    if availability is None:
        return out
    from fltheory.api.availability import availability_setting

    if isinstance(availability, Mapping) and "kind" in availability:
        table = dict(availability)
    else:
        setting = availability_setting(availability)
        table = setting.simulation_table()
        path = table.get("path")
        if setting.source is not None and isinstance(path, str):
            table["path"] = str(Path(setting.source).parent / path)
    data = out.model_dump(exclude_unset=True)
    data.pop("population", None)
    data["availability"] = table
    return ReportConfig.model_validate(data)


def make_report(
    cfg: "ReportConfig | Mapping[str, Any] | str | os.PathLike[str] | None",
    out: str | Path,
    *,
    availability: Any = None,
    quick: bool = False,
    progress: Progress = stderr_progress,
    claims_path: Path = CHECK_RESULTS,
    overwrite: bool = False,
    inputs: tuple[str | Path, ...] = (),
) -> dict[str, Any]:
    """Write the report of ``cfg`` (shortened by :meth:`ReportConfig.quick` with ``quick``) into
    ``out``; returns ``{"paths": {"html", "md", "json"}, "seconds", "summary"}``. ``cfg`` is a
    :class:`ReportConfig`, its tables as a dict, a report file or None (the CA-Fed default);
    ``availability`` (a chain object, a table or a file) replaces its setting. ``out`` is
    checked and locked before any work (:class:`~fltheory.resultdir.ResultFolder`): a folder of
    foreign files, or a report without ``overwrite``, is refused; ``inputs`` (the report file)
    may not be in it.

    >>> import tempfile
    >>> from fltheory.markov import ProductChain
    >>> small = {"problem": {"kappa2": [1.0]}, "simulation": {"rounds": 20, "seeds": 2,
    ...     "leaf": False, "limit_clients": 4, "raster_rounds": 10}}
    >>> with tempfile.TemporaryDirectory() as folder:  # doctest: +SKIP
    ...     result = make_report(small, folder, progress=lambda message: None,
    ...                          availability=ProductChain([0.9, 0.5, 0.2], [0.1, 0.5, 0.9]))
    ...     result["summary"][0]
    'Availability: 3 clients, λ(P) = 0.95, C_P = 31.6.'
    """
    from fltheory.report.render import OWNED
    from fltheory.resultdir import ResultFolder

    if isinstance(cfg, str | os.PathLike) and not inputs:
        inputs = (Path(cfg),)
    cfg = as_report_config(cfg, availability)

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
