"""Aggregation strategies: one module each, a pure per-round weight rule plus a thin class."""

from fltheory.sim.algorithms.adafed import AdaFed
from fltheory.sim.algorithms.base import Algorithm, RoundInput
from fltheory.sim.algorithms.cafed import CAFed
from fltheory.sim.algorithms.f3ast import F3AST
from fltheory.sim.algorithms.fedavg import FedAvg
from fltheory.sim.algorithms.more_available import MoreAvailable
from fltheory.sim.algorithms.unbiased import Unbiased

__all__ = [
    "F3AST",
    "AdaFed",
    "Algorithm",
    "CAFed",
    "FedAvg",
    "MoreAvailable",
    "RoundInput",
    "Unbiased",
]
