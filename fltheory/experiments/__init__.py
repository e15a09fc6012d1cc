"""The papers' experiments as a registry, each judged statistically over seeds.

* :mod:`~fltheory.experiments.model` — an experiment (ID, paper location, the paper's numbers and
  claims as data, setups and modes, panels, judge), the registry, the simulator features still
  missing (``requires``);
* :mod:`~fltheory.experiments.catalog` — the experiments, one module per figure group;
* :mod:`~fltheory.experiments.judges` — paired comparisons (Holm), rankings, magnitudes, verdicts;
* :mod:`~fltheory.experiments.runner` — runs a setup through the simulator and writes the verdict
  JSON, the Markdown summary and a PNG + CSV per panel, crash-safely;
* :mod:`~fltheory.experiments.stats` — paired differences with confidence intervals, ranking
  probabilities, trends, Holm's correction: what every verdict rests on.
* :mod:`~fltheory.experiments.record` — the record: full-size verdicts per (ID, setup) built from
  the run records that full runs write (quick runs are smoke tests and stay out of it).

The command is ``fltheory reproduce`` (``--list``, ``ID --quick|--full --setup S``).
"""
