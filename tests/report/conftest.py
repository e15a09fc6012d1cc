"""One small report shared by the report tests (8 clients, short simulations, no LEAF run)."""

from pathlib import Path
from typing import Any

import pytest

from fltheory.report.config import ReportConfig

SMALL = {
    "title": "small test setting",
    "population": {"n": 8},
    "problem": {"kappa2": [0.01, 1.0, 100.0]},
    "simulation": {
        "rounds": 60,
        "seeds": 4,
        "leaf": False,
        "limit_clients": 4,
        "raster_rounds": 20,
    },
}


@pytest.fixture(scope="session")
def small_config() -> ReportConfig:
    return ReportConfig.model_validate(SMALL)


@pytest.fixture(scope="session")
def small_report(tmp_path_factory: pytest.TempPathFactory, small_config: ReportConfig) -> Any:
    """(output directory, make_report result, report.json) of the small setting."""
    import json

    from fltheory.report.run import make_report

    out: Path = tmp_path_factory.mktemp("report")
    result = make_report(small_config, out, progress=lambda message: None)
    return out, result, json.loads((out / "report.json").read_text(encoding="utf-8"))
