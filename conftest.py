"""Collection and Hypothesis profiles for every ``pytest`` run in this repository.

fltheory.flower (the optional ``flower`` extra) is only collected where Flower is installed.

Hypothesis profiles: ``ci`` (the default, and what CI and ``make test`` run: derandomized, so
the suite passes or fails by the code, never by the draw) and ``thorough`` (1000 random examples
a test, for local hunts: ``HYPOTHESIS_PROFILE=thorough pytest ...``), defined once in
:func:`fltheory.testing.register_profiles`, the function users call in their own conftest.
``HYPOTHESIS_PROFILE`` picks a profile; without it, ``ci``.
"""

import importlib.util

from fltheory.testing import register_profiles

collect_ignore = [] if importlib.util.find_spec("flwr") else ["fltheory/flower"]

register_profiles()
