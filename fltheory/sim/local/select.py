"""Which local method a run uses: the one named in its settings, else (no name) plain
``sgd`` unless an optimiser key (local epochs, momentum, weight decay) is set or the algorithm
corrects gradients, then ``torch_sgd`` — the choice the engine made before local methods were
plug-ins, so every existing run keeps its numbers.

>>> from fltheory.sim.settings import SimSettings
>>> local_method(SimSettings(rounds=1), corrects_gradients=False)
PlainSGD()
>>> local_method(SimSettings(rounds=1), corrects_gradients=True).optimiser.active
False
"""

from fltheory.config.schema import parse
from fltheory.errors import InputError
from fltheory.sim.local.base import LocalContext, LocalMethod
from fltheory.sim.registries import LOCAL_METHODS
from fltheory.sim.settings import SimSettings


def default_name(settings: SimSettings, corrects_gradients: bool) -> str:
    """``torch_sgd`` when the optimiser is active or gradients are corrected, else ``sgd``."""
    return "torch_sgd" if settings.optimiser.active or corrects_gradients else "sgd"


def local_method(settings: SimSettings, corrects_gradients: bool) -> LocalMethod:
    """The run's :class:`LocalMethod`, built from :data:`LOCAL_METHODS` (one-line errors for
    an unknown name or a method that cannot take the algorithm's gradient corrections)."""
    name = settings.local_method or default_name(settings, corrects_gradients)
    ctx = LocalContext(settings.local_steps, settings.optimiser)
    entry = LOCAL_METHODS.get(name)
    params = parse(entry.params, dict(settings.local_params or {}), table=f"local method {name}")
    method = entry.build(params, ctx)
    if corrects_gradients and not method.accepts_correction:
        raise InputError(f"local method '{name}' takes no gradient correction (try 'torch_sgd')")
    return method
