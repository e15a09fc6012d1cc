"""Theory vs simulation around one run: the limits before it, the comparison and its files after.

:class:`TheoryRun` is made from a parsed configuration before anything is simulated (so a
problem or availability without a known limit, a burn-in past the last round or a missing
matplotlib are refused up front), then judges the models the run evaluated and renders the
result files ``theory.json``, ``theory.csv`` and ``theory.png``
(:data:`~fltheory.sim.outfiles.THEORY_FILES`).
"""

from collections.abc import Mapping
from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.sim.theory.compare import TheoryComparison, compare_with_theory
from fltheory.sim.theory.exact import plan_theory
from fltheory.sim.theory.plot import overlay_png, require_matplotlib
from fltheory.sim.theory.stats import LEVEL


class TheoryRun:
    """The theory side of a simulation of ``cfg`` (a :class:`~fltheory.sim.config.SimConfig`).

    >>> from fltheory.sim.config import build, run_config
    >>> from fltheory.sim.theory.compare import models_of_runs
    >>> cfg = build({"run": {"rounds": 200, "lr": 0.5}, "seeds": 8, "device": "cpu",
    ...              "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...              "availability": {"kind": "bernoulli", "p": [0.5, 0.9]},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> theory = TheoryRun(cfg)
    >>> summary, runs = run_config(cfg)
    >>> theory.judge(models_of_runs(runs)).verdicts
    {'fedavg': 'agrees'}
    """

    def __init__(
        self,
        cfg: Any,
        *,
        burn_in: int | None = None,
        level: float = LEVEL,
        plot: bool = False,
        provenance: dict[str, Any] | None = None,
    ) -> None:
        rounds = cfg.settings.rounds
        if burn_in is not None and not 0 <= burn_in < rounds:
            raise InputError(f"the burn-in must be below the {rounds} rounds, got {burn_in}")
        if plot:
            require_matplotlib()
        self.plan = plan_theory(cfg)
        self.rounds = rounds
        self.eps = float(np.finfo(str(cfg.dtype).removeprefix("torch.")).eps)
        self.burn_in, self.level = burn_in, level
        self.provenance = dict(provenance or {})
        self.result: TheoryComparison | None = None

    def judge(self, models: Mapping[str, Mapping[str, np.ndarray]]) -> TheoryComparison:
        """Compare the evaluated models with the limits (kept as :attr:`result`)."""
        record = {**self.provenance, "burn_in": self.burn_in, "level": self.level}
        self.result = compare_with_theory(
            self.plan, models, rounds=self.rounds, eps=self.eps, burn_in=self.burn_in,
            level=self.level, provenance=record,
        )  # fmt: skip
        return self.result

    def files(
        self, summary: dict[str, Any], models: Mapping[str, Mapping[str, np.ndarray]]
    ) -> dict[str, bytes | str]:
        """The result files of the comparison (the ``extra`` of
        :func:`~fltheory.sim.rundir.simulate_into`)."""
        result = self.judge(models)
        return {
            "theory.json": result.to_json(),
            "theory.csv": result.to_csv(),
            "theory.png": overlay_png(result),
        }
