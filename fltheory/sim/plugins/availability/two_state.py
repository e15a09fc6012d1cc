"""Independent two-state Markov clients (CA-Fed ToN eq. 236): given, read from a CSV of
(π, λ₂) pairs, or the paper's four-group population (Section V-A(a))."""

from pathlib import Path
from typing import Literal, Self

from pydantic import Field, model_validator

from fltheory.config import Strict
from fltheory.markov.population import authors_population, ca_fed_population, read_clients_csv
from fltheory.sim.availability import TwoStateChains
from fltheory.sim.plugins.fields import Group, PerClient, expand_groups, group_count, per_client
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext, Built


class CAFedPopulationParams(Strict):
    """Parameters of :func:`~fltheory.markov.population.ca_fed_population`."""

    g: float = Field(0.4, description="availability offset: π = ½ ± g")
    nu: float = Field(0.9, description="λ₂ of the correlated clients (±ν)")
    eps: float = Field(1e-2, description="λ₂ of the weakly correlated clients (±ε)")
    split: Literal["blocks", "random"] = Field(
        "blocks", description="clients ordered by group, or the groups in random order"
    )


@AVAILABILITY.register("ca_fed", params=CAFedPopulationParams)
def build_ca_fed(params: CAFedPopulationParams, ctx: AvailabilityContext) -> Built:
    """The paper's four groups of two-state clients (CA-Fed ToN Section V-A(a)).

    >>> process, groups = build_ca_fed(CAFedPopulationParams(), AvailabilityContext(8, 0))
    >>> process.pi.tolist()[:2], len(groups)
    ([0.9, 0.9], 4)
    """
    pop = ca_fed_population(
        ctx.n_clients, g=params.g, nu=params.nu, eps=params.eps, seed=ctx.seed, split=params.split
    )
    groups = {name: pop.labels == i for i, name in enumerate(pop.group_names)}
    return TwoStateChains(pop.pi, pop.lambda2), groups


class LeafStream(Strict):
    """The authors' LEAF data whose stream draws the population (spec A.5)."""

    gamma: float = Field(ge=0.0, description="γ of the synthetic_leaf problem")
    delta: float = Field(ge=0.0, description="δ of the synthetic_leaf problem")
    n_features: int = Field(60, ge=1, description="features d of the problem")
    n_classes: int = Field(10, ge=2, description="classes C of the problem")
    max_samples: int = Field(0, ge=0, description="the problem's cap on samples (0: none)")


class AuthorsPopulationParams(Strict):
    """Parameters of :func:`~fltheory.markov.population.authors_population`."""

    g: float = Field(0.4, description="availability offset: π = ½ ± g")
    nu: float = Field(0.9, description="λ₂ of the stable (correlated) clients")
    eps: float = Field(1e-2, description="shifting λ₂ ~ ½(N(0, ε²) + ε), clipped")
    split: Literal["multinomial", "deterministic"] = Field(
        "multinomial", description="types by a multinomial draw or the deterministic split"
    )
    leaf: LeafStream | None = Field(
        None,
        description="draw the types and λ₂ inside the authors' LEAF stream (same config seed as "
        "a synthetic_leaf problem with rng_layout = 'authors'), as their generator does",
    )


@AVAILABILITY.register("ca_fed_authors", params=AuthorsPopulationParams)
def build_ca_fed_authors(params: AuthorsPopulationParams, ctx: AvailabilityContext) -> Built:
    """The CA-Fed authors' code's two-state population (spec C.8).

    50 % available & shifting, 25 % unavailable & stable, 25 % unavailable & shifting
    (arodio/CA-Fed ``JOINT_PROBABILITY_MATRIX``).

    >>> process, groups = build_ca_fed_authors(
    ...     AuthorsPopulationParams(split="deterministic"), AvailabilityContext(8, 0))
    >>> sorted(process.pi.tolist()).count(0.9), int(groups["less available, correlated"].sum())
    (4, 2)
    """
    if params.leaf is None:
        pop = authors_population(
            ctx.n_clients, params.g, params.nu, params.eps, ctx.seed, params.split
        )
    else:
        from fltheory.sim.data import authors_leaf

        leaf = params.leaf
        _, pop = authors_leaf(
            leaf.gamma,
            leaf.delta,
            ctx.n_clients,
            seed=ctx.seed,
            n_features=leaf.n_features,
            n_classes=leaf.n_classes,
            max_samples=leaf.max_samples or None,
            g=params.g,
            nu=params.nu,
            deterministic_split=params.split == "deterministic",
        )
    groups = {name: pop.labels == i for i, name in enumerate(pop.group_names)}
    return TwoStateChains(pop.pi, pop.lambda2), groups


class TwoStateGroup(Group):
    """A group of ``count`` two-state clients with the same π and λ₂."""

    pi: float = Field(description="stationary availability π of the group's clients")
    lambda2: float = Field(description="second eigenvalue λ₂ of the group's clients")


class TwoStateParams(Strict):
    """Parameters of :class:`~fltheory.sim.availability.TwoStateChains`: ``pi`` and
    ``lambda2``, or ``groups``.

    >>> TwoStateParams(groups=[{"count": 2, "pi": 0.9, "lambda2": 0.5}]).size(Path("."))
    2
    """

    pi: PerClient | None = Field(
        None, description="stationary availability π_k (a number, or one per client)"
    )
    lambda2: PerClient | None = Field(
        None, description="second eigenvalue λ₂,k (a number, or one per client)"
    )
    groups: list[TwoStateGroup] | None = Field(
        None,
        description="instead of pi and lambda2: groups of identical clients, each with count, "
        "pi, lambda2 and an optional name",
    )

    @model_validator(mode="after")
    def _one_form(self) -> Self:
        if self.groups is not None:
            if self.pi is not None or self.lambda2 is not None:
                raise ValueError("give either 'groups' or 'pi' and 'lambda2', not both")
        elif self.pi is None or self.lambda2 is None:
            missing = "pi" if self.pi is None else "lambda2"
            raise ValueError(f"missing key '{missing}' (give 'pi' and 'lambda2', or 'groups')")
        return self

    def size(self, base: Path) -> int | None:
        """The number of clients the table fixes (None: it fits any number)."""
        if self.groups is not None:
            return group_count(self.groups)
        for value in (self.pi, self.lambda2):
            if isinstance(value, list):
                return len(value)
        return None


@AVAILABILITY.register("two_state", params=TwoStateParams)
def build_two_state(params: TwoStateParams, ctx: AvailabilityContext) -> Built:
    """Independent two-state chains with given π_k and λ₂,k (eq. 236).

    >>> params = TwoStateParams(pi=0.5, lambda2=[0, 0.5])
    >>> build_two_state(params, AvailabilityContext(2, 0))[0].lambda2
    array([0. , 0.5])
    """
    n = ctx.n_clients
    if params.groups is not None:
        values, groups = expand_groups(params.groups, n, ("pi", "lambda2"))
        return TwoStateChains(values["pi"], values["lambda2"]), groups
    assert params.pi is not None and params.lambda2 is not None  # the validator checked
    return TwoStateChains(
        per_client(params.pi, n, "pi"), per_client(params.lambda2, n, "lambda2")
    ), {}


class ClientsCSVParams(Strict):
    """Parameters of :func:`~fltheory.markov.population.read_clients_csv`."""

    path: str = Field(
        description="CSV with columns pi and lambda2, and optionally count (the row stands for "
        "that many clients) and name (the row's group); relative to the config"
    )

    def size(self, base: Path) -> int | None:
        """The number of clients in the file (its counts added up)."""
        return read_clients_csv(base / self.path).n_clients


@AVAILABILITY.register("clients_csv", params=ClientsCSVParams)
def build_clients_csv(params: ClientsCSVParams, ctx: AvailabilityContext) -> Built:
    """Two-state chains with (π_k, λ₂,k) read from a CSV file, one row per client or group."""
    rows = read_clients_csv(ctx.base / params.path)
    return TwoStateChains(rows.pi, rows.lambda2), rows.groups
