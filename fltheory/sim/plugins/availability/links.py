"""Unreliable links, independent across rounds (FedPBC Section VI; FedAR Section 6.1).

The link probabilities p_i are given either as ``p`` (one number for every client, or one per
client) or as ``p_groups`` (one number per block of consecutive clients, blocks of equal size).
"""

from pathlib import Path
from typing import Self

import numpy as np
from pydantic import Field, model_validator

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.availability import BernoulliLinks, DayCycleLinks, UniformNoiseLinks
from fltheory.sim.plugins.fields import Group, PerClient, expand_groups, group_count, per_client
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext, Built


class LinkGroup(Group):
    """A group of ``count`` clients with the same link probability p."""

    p: float = Field(description="link probability p of the group's clients")


class LinkParams(Strict):
    """Per-client link probabilities p_i: ``p``, ``p_groups`` or ``groups``, exactly one."""

    p: PerClient | None = Field(None, description="p_i: a number for every client, or one each")
    p_groups: list[float] | None = Field(
        None, description="instead of p: one p per block of consecutive clients (equal blocks)"
    )
    groups: list[LinkGroup] | None = Field(
        None,
        description="instead of p: groups of identical clients, each with count, p and an "
        "optional name",
    )

    @model_validator(mode="after")
    def _one_of_p(self) -> Self:
        given = [key for key in ("p", "p_groups", "groups") if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of 'p', 'p_groups' and 'groups'")
        return self

    def size(self, base: Path) -> int | None:
        """The number of clients the table fixes (None: it fits any number).

        >>> LinkParams(groups=[{"count": 3, "p": 0.5}]).size(Path("."))
        3
        """
        if self.groups is not None:
            return group_count(self.groups)
        return len(self.p) if isinstance(self.p, list) else None

    def named_groups(self, n: int) -> dict[str, np.ndarray]:
        """The clients of each of ``groups`` (none without them)."""
        return {} if self.groups is None else expand_groups(self.groups, n, ())[1]

    def probabilities(self, n: int) -> np.ndarray:
        """The (N,) p_i.

        >>> LinkParams(p_groups=[0.2, 0.9]).probabilities(5).tolist()
        [0.2, 0.2, 0.2, 0.9, 0.9]
        """
        if self.p is not None:
            return per_client(self.p, n, "p")
        if self.groups is not None:
            return expand_groups(self.groups, n, ("p",))[0]["p"]
        groups = np.asarray(self.p_groups, dtype=float)
        if not 1 <= groups.size <= n:
            raise InputError(f"'p_groups' must list 1 to {n} probabilities, got {groups.size}")
        sizes = [len(b) for b in np.array_split(np.arange(n), groups.size)]
        return np.repeat(groups, sizes)


@AVAILABILITY.register("bernoulli", params=LinkParams)
def build_bernoulli(params: LinkParams, ctx: AvailabilityContext) -> Built:
    """Link i active independently each round with probability p_i (FedPBC, scenario 1).

    >>> build_bernoulli(LinkParams(p=0.5), AvailabilityContext(3, 0))[0].pi.tolist()
    [0.5, 0.5, 0.5]
    """
    n = ctx.n_clients
    return BernoulliLinks(params.probabilities(n)), params.named_groups(n)


class UniformNoiseParams(LinkParams):
    """Parameters of :class:`~fltheory.sim.availability.UniformNoiseLinks`."""

    half_width: float = Field(0.02, ge=0.0, description="a: p_i^t = p_i + U(−a, a)")


@AVAILABILITY.register("uniform_noise", params=UniformNoiseParams)
def build_uniform_noise(params: UniformNoiseParams, ctx: AvailabilityContext) -> Built:
    """p_i^t = p_i + U(−a, a), i.i.d. over clients and rounds (FedPBC, scenario 2).

    >>> build_uniform_noise(UniformNoiseParams(p=0.5), AvailabilityContext(2, 0))[0].half_width
    0.02
    """
    n = ctx.n_clients
    return UniformNoiseLinks(params.probabilities(n), params.half_width), params.named_groups(n)


class DayCycleParams(LinkParams):
    """Parameters of :class:`~fltheory.sim.availability.DayCycleLinks`."""

    amplitude: float = Field(ge=0.0, description="A: p_i^t = p_i + A·sin(2π(t/period + phase_i))")
    period: float = Field(gt=0.0, description="rounds per cycle")
    phase: PerClient = Field(0.0, description="phase_i in cycles (a number, or one per client)")


@AVAILABILITY.register("day_cycle", params=DayCycleParams)
def build_day_cycle(params: DayCycleParams, ctx: AvailabilityContext) -> Built:
    """A deterministic day cycle of the link probabilities, links i.i.d. given it.

    >>> p = DayCycleParams(p=0.5, amplitude=0.1, period=4)
    >>> build_day_cycle(p, AvailabilityContext(1, 0))[0].link_probabilities(2).ravel().tolist()
    [0.5, 0.6]
    """
    n = ctx.n_clients
    p = params.probabilities(n)
    phase = per_client(params.phase, n, "phase")
    return DayCycleLinks(p, params.amplitude, params.period, phase), params.named_groups(n)
