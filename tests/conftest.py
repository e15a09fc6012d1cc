"""Hypothesis profiles: ``default`` keeps the suite fast; ``thorough`` is for local deep runs.

Select with ``HYPOTHESIS_PROFILE=thorough pytest``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,  # no replay of locally saved failures: every machine runs the same examples
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
