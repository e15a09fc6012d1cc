"""Collection and Hypothesis profiles for every ``pytest`` run in this repository.

fltheory.flower (the optional ``flower`` extra) is only collected where Flower is installed.

Hypothesis profiles:

* ``ci`` (the default, and what CI and ``make test`` run): derandomized — each property test
  draws the same examples on every machine and every run, from no saved database — so the
  suite passes or fails by the code, never by the draw;
* ``thorough``: 1000 random examples a test, for local hunts (``HYPOTHESIS_PROFILE=thorough
  pytest ...``; add ``--hypothesis-seed=N`` to replay a run). A failure found there becomes
  an explicit ``@example`` or a regression test.

``HYPOTHESIS_PROFILE`` picks a profile; without it, ``ci``.
"""

import importlib.util
import os

from hypothesis import HealthCheck, settings

collect_ignore = [] if importlib.util.find_spec("flwr") else ["fltheory/flower"]

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=False,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")
