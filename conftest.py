"""Collection for ``pytest tests fltheory --doctest-modules``: fltheory.flower (the optional
``flower`` extra) is only collected where Flower is installed."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("flwr") else ["fltheory/flower"]
