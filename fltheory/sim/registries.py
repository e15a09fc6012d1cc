"""The simulator's plug-in registries and what their builders are given.

* :data:`ALGORITHMS` — aggregation strategies, one module each in :mod:`fltheory.sim.algorithms`;
  a builder ``build(params, AlgorithmContext) -> Algorithm``, and the extra ``reference``: the
  loop twin (:mod:`fltheory.sim.twins`) that :mod:`fltheory.sim.reference` runs.
* :data:`PROBLEMS` — ``[problem]`` kinds (:mod:`fltheory.sim.plugins.problems`):
  ``build(params, ProblemContext) -> (problem, client groups)``.
* :data:`MODELS` — models trained on data problems (:mod:`fltheory.sim.plugins.models`):
  ``build(params, ModelShape) -> Model``.
* :data:`AVAILABILITY` — ``[availability]`` kinds (:mod:`fltheory.sim.plugins.availability`):
  ``build(params, AvailabilityContext) -> (process, client groups)``.
* :data:`LOCAL_METHODS` — the clients' local work (:mod:`fltheory.sim.local`):
  ``build(params, LocalContext) -> LocalMethod`` (the contract: :mod:`fltheory.sim.local.base`).

Each registry imports every module of its package on first use, so a new plug-in is one module
that calls ``REGISTRY.register(...)``; outside code registers the same way from its own module,
loaded by entry point (groups ``fltheory.algorithms``, ``fltheory.problems``, ``fltheory.models``,
``fltheory.availability``, ``fltheory.local_methods``), ``--plugin`` or ``FLTHEORY_PLUGINS``
(:mod:`fltheory.plugins`). A plug-in algorithm needs no ``reference`` twin.

>>> "fedavg" in ALGORITHMS and "digits" in PROBLEMS and "cnn" in MODELS
True
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory.config import Strict
from fltheory.registry import Registry

if TYPE_CHECKING:  # the algorithm modules import this one to register themselves
    import torch

    from fltheory.sim.algorithms.base import Algorithm
    from fltheory.sim.local.base import LocalMethod
    from fltheory.sim.models import Model

#: (built object, named boolean client masks reported per group in the summary).
Built = tuple[Any, dict[str, np.ndarray]]

ALGORITHMS: "Registry[Algorithm]" = Registry(
    "algorithm", package="fltheory.sim.algorithms", group="fltheory.algorithms"
)
PROBLEMS: Registry[Built] = Registry(
    "problem kind", package="fltheory.sim.plugins.problems", group="fltheory.problems"
)
MODELS: "Registry[Model]" = Registry(
    "model", package="fltheory.sim.plugins.models", group="fltheory.models"
)
AVAILABILITY: Registry[Built] = Registry(
    "availability kind", package="fltheory.sim.plugins.availability", group="fltheory.availability"
)
LOCAL_METHODS: "Registry[LocalMethod]" = Registry(
    "local method", package="fltheory.sim.local", group="fltheory.local_methods"
)


@dataclass(frozen=True, eq=False)
class AlgorithmContext:
    """What an algorithm's builder may depend on besides its parameters.

    >>> AlgorithmContext(n_clients=4, rounds=10, seed=0, pi=np.full(4, 0.5)).n_clients
    4
    """

    n_clients: int
    rounds: int
    seed: int
    #: the availability process's marginal π (e.g. "More available" keeps π > threshold).
    pi: np.ndarray
    #: the clients' local minima F_k* when the problem knows them (quadratics), else None.
    local_minima: np.ndarray | None = None
    #: minima(kind): F_k* by kind ("oracle", "sklearn"), computed on demand (data problems).
    minima: Callable[[str], np.ndarray] | None = None


@dataclass(frozen=True)
class ModelShape:
    """The data a model is built for: features, classes, and the (C, H, W) image shape if any.

    >>> ModelShape(64, 10, (1, 8, 8)).image
    (1, 8, 8)
    """

    n_features: int
    n_classes: int
    image: tuple[int, int, int] | None = None


def _float64() -> "torch.dtype":
    """torch.float64, importing torch only when a problem is built (the availability plug-ins
    of this module serve the theory commands, which never load torch)."""
    import torch

    return torch.float64


@dataclass(frozen=True, eq=False)
class ProblemContext:
    """What a problem builder is given: the seed, torch placement, and a model factory.

    ``model`` builds the model chosen in the same table (``model = "..."`` and its fields) for
    the data's shape; it is None for problems without a ``model`` field.

    >>> ProblemContext(seed=0).dtype
    torch.float64
    """

    seed: int
    device: str = "cpu"
    dtype: "torch.dtype" = field(default_factory=_float64)
    model: "Callable[[ModelShape], Model] | None" = None


@dataclass(frozen=True)
class AvailabilityContext:
    """What an availability builder is given: N, the seed, and the folder of relative paths.

    >>> AvailabilityContext(n_clients=3, seed=0).base
    PosixPath('.')
    """

    n_clients: int
    seed: int
    base: Path = Path(".")


class NoParams(Strict):
    """Parameters of a plug-in that takes none (any key is an error).

    >>> NoParams().model_dump()
    {}
    """
