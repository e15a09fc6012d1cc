"""Hypothesis profiles for property tests — fltheory's own suite and its users' — in one place.

* ``ci`` (the default): derandomized — each property test draws the same examples on every
  machine and every run, from no saved database — so a suite passes or fails by the code, never
  by the draw; 40 examples a test;
* ``thorough``: 1000 random examples a test, for local hunts (``HYPOTHESIS_PROFILE=thorough
  pytest ...``; add ``--hypothesis-seed=N`` to replay a run). A failure found there becomes an
  explicit ``@example`` or a regression test.

Both lift Hypothesis' deadline and its too-slow health check: exact arithmetic on a large
drawn instance may take seconds. Call :func:`register_profiles` in a ``conftest.py``; the
environment variable ``HYPOTHESIS_PROFILE`` then picks the profile (``ci`` without it).
"""

import os

from hypothesis import HealthCheck, settings

#: The profiles :func:`register_profiles` defines, by name.
PROFILES = {
    "ci": {
        "max_examples": 40,
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow],
        "derandomize": True,
        "database": None,
    },
    "thorough": {
        "max_examples": 1000,
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow],
        "derandomize": False,
    },
}
#: The environment variable that picks the profile to load.
ENV = "HYPOTHESIS_PROFILE"


def register_profiles(*, load: bool = True, default: str = "ci") -> str:
    """Register the ``ci`` and ``thorough`` profiles (:data:`PROFILES`) with Hypothesis and,
    with ``load``, load the one named by ``HYPOTHESIS_PROFILE`` (else ``default``). Returns the
    name of the profile chosen. A ``conftest.py`` needs two lines::

        from fltheory.testing import register_profiles
        register_profiles()

    >>> from hypothesis import settings
    >>> register_profiles(load=False)
    'ci'
    >>> settings.get_profile("thorough").max_examples
    1000
    """
    for name, options in PROFILES.items():
        settings.register_profile(name, **options)  # type: ignore[arg-type]
    chosen = os.environ.get(ENV) or default
    if load:
        settings.load_profile(chosen)
    return chosen
