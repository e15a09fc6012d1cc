"""fltheory's aggregation rules as Flower strategies (the optional ``flower`` extra).

* :mod:`~fltheory.flower.strategy` — :class:`FltheoryStrategy`, a Flower message-API
  ``Strategy`` around :class:`~fltheory.sim.deployment.RoundServer` (the engine's pure weight
  rules, memory steps and eq. 3 with a server learning rate), and one subclass per rule:
  FedAvg, Unbiased, AdaFed, More available, F3AST, CA-Fed, FedPBC, FedAR, MIFA, FedVARP.
* :mod:`~fltheory.flower.client` — :func:`problem_client_app`, a ``ClientApp`` that trains a
  fltheory tensor problem's client (local SGD, CA-Fed's loss, FedPBC's own model).

Which clients are reachable comes from an :class:`~fltheory.sim.deployment.AvailabilityDriver`
(any fltheory chain, process or trace: a Flower simulation with a paper's availability model),
or, without one, from who answered (π̂/λ̂ estimated from those rounds).

Install with ``pip install 'fltheory[flower]'`` (Flower 1.41 with its simulation engine).
"""

try:
    import flwr  # noqa: F401
except ImportError:
    raise ImportError(
        "fltheory.flower needs Flower: install the extra with pip install 'fltheory[flower]'"
    ) from None

from fltheory.flower.client import problem_client_app
from fltheory.flower.strategy import (
    AdaFedStrategy,
    CAFedStrategy,
    F3ASTStrategy,
    FedARStrategy,
    FedAvgStrategy,
    FedPBCStrategy,
    FedVARPStrategy,
    FltheoryStrategy,
    MIFAStrategy,
    MoreAvailableStrategy,
    UnbiasedStrategy,
)
from fltheory.sim.deployment import AvailabilityDriver

__all__ = [
    "AdaFedStrategy",
    "AvailabilityDriver",
    "CAFedStrategy",
    "F3ASTStrategy",
    "FedARStrategy",
    "FedAvgStrategy",
    "FedPBCStrategy",
    "FedVARPStrategy",
    "FltheoryStrategy",
    "MIFAStrategy",
    "MoreAvailableStrategy",
    "UnbiasedStrategy",
    "problem_client_app",
]
