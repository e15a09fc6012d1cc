"""Clustered availability: one two-state chain per cluster (CA-Fed ToN Section V-B(e))."""

from pathlib import Path
from typing import Literal, Self

import numpy as np
from pydantic import Field, model_validator

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.availability import ClusteredChains
from fltheory.sim.plugins.fields import Group, expand_groups, group_count
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext, Built


class ClusterGroup(Group):
    """A cluster of ``count`` clients sharing one two-state chain."""

    pi: float = Field(description="stationary availability of the cluster's chain")
    lambda2: float = Field(description="second eigenvalue of the cluster's chain")


class ClusteredParams(Strict):
    """Parameters of :class:`~fltheory.sim.availability.ClusteredChains`: ``pi``, ``lambda2``
    (and ``assignment``), or ``groups``, one cluster each."""

    pi: list[float] | None = Field(
        None, description="stationary availability of each cluster's chain"
    )
    lambda2: list[float] | None = Field(
        None, description="second eigenvalue of each cluster's chain"
    )
    assignment: Literal["blocks"] | list[int] = Field(
        "blocks", description="'blocks': equal consecutive blocks; or each client's cluster"
    )
    groups: list[ClusterGroup] | None = Field(
        None,
        description="instead of pi, lambda2 and assignment: one cluster per group, each with "
        "count, pi, lambda2 and an optional name (consecutive clients)",
    )

    @model_validator(mode="after")
    def _one_lambda2_per_cluster(self) -> Self:
        if self.groups is not None:
            if self.pi is not None or self.lambda2 is not None or self.assignment != "blocks":
                raise ValueError("give either 'groups' or 'pi', 'lambda2' and 'assignment'")
            return self
        if self.pi is None or self.lambda2 is None:
            missing = "pi" if self.pi is None else "lambda2"
            raise ValueError(f"missing key '{missing}' (give 'pi' and 'lambda2', or 'groups')")
        if len(self.pi) != len(self.lambda2):
            raise ValueError(f"pi and lambda2 list {len(self.pi)} and {len(self.lambda2)} clusters")
        return self

    def size(self, base: Path) -> int | None:
        """The number of clients the table fixes (None: it fits any number).

        >>> ClusteredParams(pi=[0.5], lambda2=[0.0], assignment=[0, 0, 0]).size(Path("."))
        3
        """
        if self.groups is not None:
            return group_count(self.groups)
        return len(self.assignment) if isinstance(self.assignment, list) else None


@AVAILABILITY.register("clustered", params=ClusteredParams)
def build_clustered(params: ClusteredParams, ctx: AvailabilityContext) -> Built:
    """A client is active iff its cluster's two-state chain is (Section V-B(e)).

    >>> process, groups = build_clustered(ClusteredParams(pi=[0.9, 0.2], lambda2=[0, 0.5]),
    ...                                   AvailabilityContext(4, 0))
    >>> process.pi.tolist(), list(groups)
    ([0.9, 0.9, 0.2, 0.2], ['cluster 0', 'cluster 1'])
    """
    n = ctx.n_clients
    if params.groups is not None:
        _, masks = expand_groups(params.groups, n, ())
        pi = [g.pi for g in params.groups]
        lambda2 = [g.lambda2 for g in params.groups]
        label = np.repeat(np.arange(len(params.groups)), [g.count for g in params.groups])
        return ClusteredChains(np.asarray(pi), np.asarray(lambda2), label), masks
    assert params.pi is not None and params.lambda2 is not None  # the validator checked
    clusters = len(params.pi)
    if params.assignment == "blocks":
        if not 1 <= clusters <= n:
            raise InputError(f"need 1 to {n} clusters, got {clusters}")
        sizes = [len(b) for b in np.array_split(np.arange(n), clusters)]
        assignment = np.repeat(np.arange(clusters), sizes)
    else:
        assignment = np.asarray(params.assignment)
    process = ClusteredChains(np.asarray(params.pi), np.asarray(params.lambda2), assignment)
    groups = {f"cluster {c}": process.assignment == c for c in range(clusters)}
    return process, groups
