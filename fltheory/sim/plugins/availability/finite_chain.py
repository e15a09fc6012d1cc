"""Any finite Markov chain of availability states (CA-Fed ToN Section III)."""

from pathlib import Path

from pydantic import Field

from fltheory.config import Strict
from fltheory.sim.availability import FiniteChain
from fltheory.sim.plugins.fields import rectangular
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext, Built


class FiniteChainParams(Strict):
    """Parameters of :class:`~fltheory.sim.availability.FiniteChain`."""

    matrix: list[list[float]] = Field(description="transition matrix P (M × M, rows sum to 1)")
    state_clients: list[list[int]] = Field(description="M × N 0/1 map: who is active in each state")

    def size(self, base: Path) -> int | None:
        """N, the columns of the state map.

        >>> FiniteChainParams(matrix=[[1.0]], state_clients=[[1, 0, 1]]).size(Path("."))
        3
        """
        return len(self.state_clients[0]) if self.state_clients else None


@AVAILABILITY.register("finite_chain", params=FiniteChainParams)
def build_finite_chain(params: FiniteChainParams, ctx: AvailabilityContext) -> Built:
    """A chain over M states with a state → active-clients map, from its stationary law.

    >>> p = FiniteChainParams(matrix=[[0.5, 0.5], [0.5, 0.5]], state_clients=[[1, 0], [0, 1]])
    >>> build_finite_chain(p, AvailabilityContext(2, 0))[0].pi.tolist()
    [0.5, 0.5]
    """
    state_clients = rectangular(params.state_clients, "state_clients")
    return FiniteChain(rectangular(params.matrix, "matrix"), state_clients), {}
