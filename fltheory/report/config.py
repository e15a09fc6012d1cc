"""The configuration of ``fltheory report``: strict tables with the paper's setting as default.

A report file is TOML with optional tables (every key optional, unknown keys refused; the
reference is ``docs/report_file.md``)::

    title = "My setting"
    [availability] # any availability model, as in a simulation config (docs/plugins.md) ...
    [population]   # ... or the CA-Fed Section V-A(a) preset: n, g, nu, eps, seed, split
    [problem]      # quadratic clients for Theorems 1-3 and problems 14/212, the weights rule
    [simulation]   # the PyTorch simulation of section 5

Without a file the defaults below are the report: N = 100 clients, g = 0.4, ν = 0.9, ε = 10⁻².
"""

from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, model_validator

from fltheory.config.files import load_toml
from fltheory.config.schema import Strict, parse


class PopulationTable(Strict):
    """``[population]``: :func:`fltheory.markov.population.ca_fed_population` parameters.

    >>> PopulationTable().n
    100
    """

    n: int = Field(default=100, ge=4, le=10_000, description="number of clients N")
    g: float = Field(default=0.4, gt=0.0, lt=0.5, description="availability offset: π = ½ ± g")
    nu: float = Field(default=0.9, ge=-1.0, lt=1.0, description="λ₂ of the correlated clients")
    eps: float = Field(default=1e-2, ge=0.0, le=0.5, description="scale of the weak clients' λ₂")
    seed: int = Field(
        default=0, ge=0, le=2**32 - 1, description="seed of the weak clients' λ₂ draws"
    )
    split: Literal["blocks", "random"] = "blocks"


class ProblemTable(Strict):
    """``[problem]``: F_k(w) = ½‖w − u_k‖² with u_k = ±``spread``·1 + N(0, I) (+ for the more
    available class), weights q of eq. 3, horizon and steps of eq. 13.

    >>> ProblemTable().weights
    'uniform'
    """

    u: list[Annotated[list[float], Field(min_length=1, max_length=64)]] | None = Field(
        default=None,
        max_length=100_000,
        description="the clients' minimisers u_k, one row per client (default: drawn as "
        "±spread·1 + N(0, I), + for the clients more available than average)",
    )
    dim: int = Field(default=2, ge=1, le=64, description="dimension d of w")
    spread: float = Field(
        default=1.0, ge=0.0, le=100.0, description="offset of the class means of u_k"
    )
    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="seed of the u_k draws")
    sigma: float = Field(default=1.0, ge=0.0, le=1e6, description="stochastic-gradient noise σ_k")
    diameter: float = Field(default=8.0, gt=0.0, le=1e6, description="diameter of the set W")
    rounds: int = Field(default=200, ge=1, le=10**8, description="horizon T of eq. 13")
    local_steps: int = Field(default=2, ge=1, le=1000, description="local steps E")
    weights: Literal["uniform", "unbiased"] = Field(
        default="uniform",
        description="the aggregation rule every section follows: q = α (FedAvg's fixed rule) "
        "or q = α/π scaled to Q = 1 (unbiased)",
    )
    eta1: float = Field(default=0.05, gt=0.0, le=1.0, description="η_t = eta1/t^power")
    power: float = Field(default=1.0, ge=0.0, le=2.0, description="decay of the steps")
    kappa2: list[Annotated[float, Field(ge=0.0, le=1e300)]] = Field(
        default=[0.01, 1.0, 1e6, 1e12, 1e18, 1e24, 1e30, 1e36],
        min_length=1,
        max_length=50,
        description="κ̄² sweep of problem 14 (wide: ε_opt is huge when C_P is)",
    )


class SimulationTable(Strict):
    """``[simulation]``: the simulated runs of section 5 (``--quick`` shortens them).

    >>> SimulationTable().limit_clients
    16
    """

    limit_clients: int = Field(
        default=16, ge=4, le=20, description="clients of the exact-limit population (2^N states)"
    )
    rounds: int = Field(default=400, ge=10, le=100_000, description="rounds of the quadratic runs")
    seeds: int = Field(default=10, ge=2, le=1000, description="independent runs (confidence bands)")
    lr: float = Field(default=0.1, gt=0.0, le=1.0, description="local step size η")
    server_lr: float = Field(default=1.0, gt=0.0, le=10.0, description="server step size η̄")
    burn_in: float = Field(default=0.2, ge=0.0, lt=1.0, description="fraction of rounds discarded")
    leaf: bool = Field(default=True, description="also run Synthetic LEAF on the whole population")
    leaf_rounds: int = Field(default=60, ge=2, le=10_000, description="rounds of the LEAF runs")
    leaf_seeds: int = Field(default=3, ge=2, le=100, description="independent LEAF runs")
    raster_rounds: int = Field(default=200, ge=10, le=10_000, description="rounds of the raster")


class ReportConfig(Strict):
    """A whole report file (layout in the module docstring).

    >>> parse(ReportConfig, {"populaton": {}}, source="r.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown key 'populaton' in the top level of r.toml; did you ...
    """

    title: str = Field(
        default="The CA-Fed paper's population",
        max_length=200,
        description="the report's title (default with [availability]: 'Your setting')",
    )
    availability: dict[str, Any] | None = Field(
        default=None,
        description="any availability model: kind and its fields, as in a simulation config "
        "(docs/plugins.md); replaces [population]",
    )
    population: PopulationTable = Field(
        default_factory=PopulationTable, description="the CA-Fed preset (the default setting)"
    )
    problem: ProblemTable = Field(
        default_factory=ProblemTable, description="the quadratic problem and the weights rule"
    )
    simulation: SimulationTable = Field(
        default_factory=SimulationTable, description="the simulations of section 5"
    )

    @model_validator(mode="after")
    def _one_setting(self) -> Self:
        if self.availability is not None and "population" in self.model_fields_set:
            raise ValueError("give [availability] or [population] (the CA-Fed preset), not both")
        return self

    @property
    def heading(self) -> str:
        """The title shown: ``title``, or "Your setting" for an [availability] without one.

        >>> ReportConfig(availability={"kind": "bernoulli", "p": [0.5]}).heading
        'Your setting'
        """
        if self.availability is not None and "title" not in self.model_fields_set:
            return "Your setting"
        return self.title

    def quick(self) -> "ReportConfig":
        """The same setting with shorter simulations (``--quick``).

        >>> ReportConfig().quick().simulation.rounds
        150
        """
        sim = self.simulation
        shorter = sim.model_copy(
            update={
                "rounds": min(sim.rounds, 150),
                "seeds": min(sim.seeds, 6),
                "leaf_rounds": min(sim.leaf_rounds, 20),
                "leaf_seeds": 2,
                "limit_clients": min(sim.limit_clients, 12),
            }
        )
        return self.model_copy(update={"simulation": shorter})


def load_report_config(path: str | Path | None) -> ReportConfig:
    """The report file at ``path``, or the embedded default when ``path`` is None.

    >>> load_report_config(None).population.n
    100
    """
    if path is None:
        return ReportConfig()
    cfg = parse(ReportConfig, load_toml(path, "report file"), source=path)
    table = cfg.availability
    if table is not None and isinstance(table.get("path"), str):
        # a file the table names is relative to the report file, wherever the report runs
        where = Path(path).parent / table["path"]
        cfg = cfg.model_copy(update={"availability": {**table, "path": str(where)}})
    return cfg
