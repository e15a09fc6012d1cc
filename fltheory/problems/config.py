"""Problem files (TOML) for the bounds of CA-Fed (ToN): ``fltheory bound`` and ``optimize-q``.

Layout (keys not marked optional are required; every table is strict: an unknown key, a value
of the wrong type or a non-finite number is an error naming the file, the table and the key)::

    rounds = 200             # T, communication rounds (the horizon of eq. 13)
    local_steps = 5          # E, local SGD steps per round
    sigma = 1.0              # σ_k (Assumption 5): one number or one per client
    alpha = "uniform"        # optional: target importance α (eq. 1), a list or "uniform" (default)
    q = [...]                # optional aggregation weights (default α/π scaled to ‖q‖₁ = Q:
                             # the unbiased rule, whose bias is 0 — the outputs say so)
    Q = 1.0                  # optional ‖q‖₁ (default Σq when q is given, else 1)

    [availability]           # the availability, as in a simulation config (docs/plugins.md):
    kind = "two_state"       #   kind = two_state, clients_csv, bernoulli, clustered,
    groups = [...]           #   finite_chain, ca_fed, ...; its fields; groups with a count
                             #   (N from the table, else from the rows of u, else n_clients)

    [clients]                # or instead of [availability], one of the three older forms
    pi = [...]               #   independent two-state clients: availabilities π_k
    lambda2 = [...]          #   ... and second eigenvalues λ₂,ₖ (eq. 236)
    # preset = "ca-fed"      #   the Section V-A population; optional n, g, nu, eps, seed, split
    # matrix = "P.csv"       #   a transition matrix file (.csv/.npy/.json) and optionally
    # states = "map.json"    #   its state→clients map (paths relative to this file)

    [steps]                  # exactly one of the two forms
    eta1 = 0.01              #   η_t = η₁/t^a
    power = 1.0
    # values = [...]         #   explicit η_1..η_n, continued as η_n(n/t)^a with
    # tail_power = 1.0       #   tail_power = a, or by zeros when tail_power is absent

    [problem]                # a quadratic problem, or a [constants] table instead
    u = [[...], ...]         #   (N, d) local minimisers
    H = [[[...]]]            #   optional (N, d, d) Hessians, or H_diag = [[...]] (N, d);
                             #   default the identity (as the simulator's quadratic problem)
    c = [...]                #   optional F_k* (default 0)
    diameter = 10.0              #   diameter of the ball W
    center = [...]           #   optional centre of W (default the origin)

    [constants]              # L, mu, Gamma, D, G, H, diameter; optional Gamma_prime
    [optimize]               # optional: kappa2 = number or list (κ̄² of problem 14, default 1)

The tables are :class:`~fltheory.config.schema.Strict` models: their types, required keys and
one-of rules are checked while parsing; the ranges (π ∈ [0, 1], η₁ > 0, ...) are checked once,
by the objects they build (:mod:`fltheory.checks`), and reported with the table's name.

The ``[availability]`` table is the simulator's, resolved by the caller: this layer sits below
the simulator's plug-ins, so :func:`load_problem_config` takes the resolver as an argument
(:func:`fltheory.bound_report` and the CLI pass :func:`fltheory.api.availability.as_chain`),
or a chain object directly.
"""

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from fltheory import checks
from fltheory.config import Strict, load_toml, parse
from fltheory.config.schema import table_name
from fltheory.errors import FLTheoryError, InputError
from fltheory.markov.constants import ChainConstants
from fltheory.markov.protocol import AvailabilityChain, is_availability_chain
from fltheory.optimize import DEFAULT_KAPPA2
from fltheory.optimize.guidelines import unbiased_weights
from fltheory.problems.constants import ProblemConstants
from fltheory.problems.quadratic import QuadraticProblem
from fltheory.problems.setup import ProblemSetup
from fltheory.problems.steps import StepSizes


def _one_form(table: Strict, forms: dict[str, tuple[str, ...]]) -> str:
    """The one form of ``table`` whose first key is given; keys of the other forms are refused.

    ``forms`` maps a form's name to its keys, the first of which selects the form.
    """
    given = [form for form, keys in forms.items() if getattr(table, keys[0]) is not None]
    if len(given) != 1:
        heads = ", ".join(keys[0] for keys in forms.values())
        raise ValueError(f"give exactly one of {heads}, got {', '.join(given) or 'none'}")
    form = given[0]
    for other, keys in forms.items():
        for key in keys:
            if other != form and getattr(table, key) is not None:
                raise ValueError(f"key '{key}' goes with '{keys[0]}', not with '{form}'")
    return form


class ClientsTable(Strict):
    """``[clients]``: two-state clients (``pi``, ``lambda2``), the ``ca-fed`` preset of Section
    V-A, or a ``matrix`` file with its ``states`` map.

    >>> ClientsTable(pi=[0.9, 0.5], lambda2=[0.1, 0.5]).build(Path("."))[1].tolist()
    [0.9, 0.5]
    >>> parse(ClientsTable, {"matrix": "P.csv", "pi": [0.9]}, table="clients")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: [clients]: give exactly one of pi, preset, matrix, got pi, matrix
    """

    pi: list[float] | None = Field(default=None, description="π_k of independent two-state clients")
    lambda2: list[float] | None = Field(
        default=None, description="λ₂,k of the same clients (eq. 236)"
    )
    preset: Literal["ca-fed"] | None = Field(
        default=None, description="the population of CA-Fed Section V-A(a)"
    )
    n: int | None = Field(default=None, description="preset: number of clients N (default 100)")
    g: float | None = Field(default=None, description="preset: π = ½ ± g (default 0.4)")
    nu: float | None = Field(default=None, description="preset: λ₂ of the correlated clients (0.9)")
    eps: float | None = Field(
        default=None, description="preset: scale of the weak clients' λ₂ (0.01)"
    )
    seed: int | None = Field(default=None, description="preset: seed of the λ₂ draws (0)")
    split: Literal["blocks", "random"] | None = Field(
        default=None, description="preset: clients ordered by group, or shuffled ('blocks')"
    )
    matrix: str | None = Field(
        default=None,
        description="a transition-matrix file (.csv, .npy, .json), relative to this file",
    )
    states: str | None = Field(
        default=None, description="its state→clients map (.csv, .npy, .json)"
    )

    FORMS: ClassVar[dict[str, tuple[str, ...]]] = {
        "pi": ("pi", "lambda2"),
        "preset": ("preset", "n", "g", "nu", "eps", "seed", "split"),
        "matrix": ("matrix", "states"),
    }

    @model_validator(mode="after")
    def _check_form(self) -> "ClientsTable":
        if _one_form(self, self.FORMS) == "pi":
            if self.lambda2 is None:
                raise ValueError("the pi form needs lambda2")
            if self.pi is not None and len(self.pi) != len(self.lambda2):
                raise ValueError(
                    f"pi has {len(self.pi)} entries but lambda2 has {len(self.lambda2)} "
                    "(one of each per client)"
                )
        return self

    def build(self, base: Path) -> tuple[ChainConstants, np.ndarray]:
        """(constants of the chain, client availabilities π) through :mod:`fltheory.markov`;
        relative file paths are taken from ``base``."""
        if self.pi is not None:
            from fltheory.markov.product import ProductChain

            chain = ProductChain(self.pi, self.lambda2)
            return chain.constants(), np.asarray(chain.client_availability, dtype=float)
        if self.preset is not None:
            from fltheory.markov.population import ca_fed_population

            keys = self.FORMS["preset"][1:]
            given = {k: getattr(self, k) for k in keys if getattr(self, k) is not None}
            population = ca_fed_population(**given)
            return population.chain().constants(), np.asarray(population.pi, dtype=float)
        from fltheory.markov.io import load_chain

        assert self.matrix is not None  # the validator leaves one form
        states = None if self.states is None else base / self.states
        markov = load_chain(base / self.matrix, states)
        if markov.client_availability is None:
            raise InputError("the matrix form needs a state→clients map ('states' or the JSON's)")
        return markov.constants(), np.asarray(markov.client_availability, dtype=float)


class StepsTable(Strict):
    """``[steps]``: η_t = ``eta1``/t^``power``, or explicit ``values`` (optionally continued as
    η_n(n/t)^``tail_power``).

    >>> StepsTable(eta1=0.02, power=1.0).build().describe()
    'η_t = 0.02/t^1'
    """

    eta1: float | None = Field(default=None, description="η₁ of η_t = η₁/t^power")
    power: float | None = Field(default=None, description="the power of η_t = η₁/t^power")
    values: list[float] | None = Field(default=None, description="explicit steps η_1, …, η_n")
    tail_power: float | None = Field(
        default=None, description="continue the values as η_n(n/t)^tail_power (absent: by zeros)"
    )

    FORMS: ClassVar[dict[str, tuple[str, ...]]] = {
        "eta1": ("eta1", "power"),
        "values": ("values", "tail_power"),
    }

    @model_validator(mode="after")
    def _check_form(self) -> "StepsTable":
        if _one_form(self, self.FORMS) == "eta1" and self.power is None:
            raise ValueError("the eta1 form needs power")
        return self

    def build(self) -> StepSizes:
        """The :class:`StepSizes` of this table."""
        if self.values is not None:
            return StepSizes.explicit(self.values, tail_power=self.tail_power)
        assert self.eta1 is not None and self.power is not None  # the validator checked
        return StepSizes.power_law(self.eta1, self.power)


class QuadraticTable(Strict):
    """``[problem]``: F_k(w) = ½(w − u_k)ᵀH_k(w − u_k) + c_k on the ball W(center, diameter).

    >>> table = QuadraticTable(u=[[0.0], [2.0]], H_diag=[[1.0], [1.0]], diameter=8.0)
    >>> half = np.full(2, 0.5)
    >>> table.build(half, np.ones(2), half, np.zeros(2))[0].w_star.tolist()
    [1.0]
    """

    u: list[list[float]] = Field(description="the local minimisers u_k, one row per client")
    H: list[list[list[float]]] | None = Field(
        default=None, description="the Hessians H_k (N × d × d); default the identity"
    )
    H_diag: list[list[float]] | None = Field(
        default=None, description="instead of H: their diagonals (N × d); default the identity"
    )
    c: float | list[float] = Field(default=0.0, description="F_k* (a number, or one per client)")
    diameter: float = Field(description="diameter of the ball W")
    center: list[float] | None = Field(default=None, description="centre of W (default the origin)")

    @model_validator(mode="after")
    def _check_hessians(self) -> "QuadraticTable":
        if self.H is not None and self.H_diag is not None:
            raise ValueError("give at most one of H (full Hessians) or H_diag (diagonals)")
        return self

    def build(
        self, alpha: np.ndarray, pi: np.ndarray, q: np.ndarray, sigma: np.ndarray
    ) -> tuple[QuadraticProblem, ProblemConstants, np.ndarray]:
        """(the problem, its constants on W, the centre of W)."""
        if len(self.u) != pi.size:
            raise InputError(f"u has {len(self.u)} rows but [clients] has {pi.size} clients")
        c = np.full(pi.size, self.c) if isinstance(self.c, float) else np.asarray(self.c)
        if self.H is not None:
            problem = QuadraticProblem(self.u, self.H, c, alpha, pi, q)
        else:  # H_diag, or the identity by default
            diag = (
                np.ones_like(np.asarray(self.u, dtype=float))
                if self.H_diag is None
                else self.H_diag
            )
            problem = QuadraticProblem.from_diagonal(self.u, diag, c, alpha, pi, q)
        center = np.zeros(problem.dim) if self.center is None else np.asarray(self.center)
        return problem, problem.constants(center, self.diameter, sigma), center


class ConstantsTable(Strict):
    """``[constants]``: the constants of Assumptions 2–5, Lemma 1 and eq. 9 for your own model.

    >>> table = ConstantsTable(L=2, mu=0.5, Gamma=0.3, D=4, G=4.1, H=5, diameter=2)
    >>> table.build(np.full(2, 0.5), np.ones(2), np.zeros(2)).kappa
    4.0
    """

    L: float = Field(description="smoothness L (Assumption 2)")
    mu: float = Field(description="strong convexity μ (Assumption 3)")
    Gamma: float = Field(description="heterogeneity Γ at the optimum (eq. 9)")
    D: float = Field(description="gradient bound D (Assumption 4)")
    G: float = Field(description="gradient bound G (Lemma 1)")
    H: float = Field(description="bound H of Lemma 1")
    diameter: float = Field(description="diameter of W")
    Gamma_prime: float | None = Field(default=None, description="Γ′ of Theorem 3 (default Γ)")

    def build(self, alpha: np.ndarray, pi: np.ndarray, sigma: np.ndarray) -> ProblemConstants:
        """The :class:`ProblemConstants` of this table."""
        return ProblemConstants(**self.model_dump(), sigma=sigma, alpha=alpha, pi=pi)


class OptimizeTable(Strict):
    """``[optimize]``: κ̄² of problem 14 (eq. 14), one value or a list solved as a sweep.

    >>> OptimizeTable().kappa2
    1.0
    """

    kappa2: float | list[float] = Field(
        default=DEFAULT_KAPPA2,
        description="κ̄² of problem 14: a number, or a list solved as a sweep",
    )


class ProblemFile(Strict):
    """A whole problem file (layout in the module docstring).

    >>> parse(ProblemFile, {"rounds": 10}, source="f.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: missing key 'local_steps' in the top level of f.toml
    """

    rounds: int = Field(description="horizon T of eq. 13")
    local_steps: int = Field(description="local SGD steps E per round")
    sigma: float | list[float] = Field(
        description="stochastic-gradient noise σ_k (Assumption 5): a number, or one per client"
    )
    alpha: Literal["uniform"] | list[float] = Field(
        "uniform", description="target importance α of eq. 1: 'uniform', or one per client"
    )
    q: list[float] | None = Field(
        default=None,
        description="aggregation weights q_k of eq. 3 (default: α/π scaled to Q, the unbiased "
        "rule; the outputs say so)",
    )
    Q: float | None = Field(default=None, description="‖q‖₁ (default: Σq when q is given, else 1)")
    clients: ClientsTable | None = Field(
        default=None, description="the older form of the availability ([clients] below)"
    )
    availability: dict[str, Any] | None = Field(
        default=None,
        description="the availability as in a simulation config: kind and its fields "
        "(docs/plugins.md), n_clients; N from the table, else the rows of u",
    )
    steps: StepsTable = Field(description="the step sizes η_t ([steps] below)")
    problem: QuadraticTable | None = Field(
        default=None, description="a quadratic problem ([problem] below), or [constants]"
    )
    constants: ConstantsTable | None = Field(
        default=None, description="the constants of your own model ([constants] below)"
    )
    optimize: OptimizeTable = Field(
        default=OptimizeTable(), description="options of optimize-q ([optimize] below)"
    )

    @model_validator(mode="after")
    def _check_problem(self) -> "ProblemFile":
        if (self.problem is None) == (self.constants is None):
            raise ValueError("give exactly one of the tables [problem] or [constants]")
        if self.clients is not None and self.availability is not None:
            raise ValueError("give one of the tables [availability] or [clients], not both")
        return self

    def n_clients_hint(self) -> int | None:
        """N as the per-client entries of the file say (the rows of u, else a list of σ, α or
        q), for an ``[availability]`` kind that does not fix it; None when nothing does."""
        if self.problem is not None:
            return len(self.problem.u)
        for value in (self.sigma, self.alpha, self.q):
            if isinstance(value, list):
                return len(value)
        return None


@contextmanager
def _building(table: str, source: Path | None) -> Iterator[None]:
    """Prefix an error raised while building ``[table]`` with the table and the file."""
    try:
        yield
    except FLTheoryError as err:
        raise type(err)(f"{table_name(table, source)}: {err}") from None


def _alpha(alpha: Literal["uniform"] | list[float], n: int) -> np.ndarray:
    """α of eq. 1: uniform, or the given list (on the simplex)."""
    return np.full(n, 1.0 / n) if alpha == "uniform" else checks.simplex(alpha, "alpha", n)


#: What the outputs say when a problem file gives no q.
Q_DEFAULT = "q = α/π (default: unbiased)"


def _weights(
    q: list[float] | None, Q: float | None, alpha: np.ndarray, pi: np.ndarray
) -> tuple[np.ndarray, float, str | None]:
    """(q, Q, how q was chosen): the given q and Q = Σq by default, or the unbiased α/π scaled
    to Q (default 1), said as :data:`Q_DEFAULT`."""
    if q is None:
        total = 1.0 if Q is None else Q
        return unbiased_weights(alpha, pi, Q=total), total, Q_DEFAULT
    q_arr = checks.aggregation_weights(q, pi)
    return q_arr, float(q_arr.sum()) if Q is None else Q, None


#: Turns an ``[availability]`` table into (chain, named client groups): called with the table,
#: the folder relative paths start from, the file (for messages) and N when the file fixes it.
AvailabilityResolver = Callable[
    [dict[str, Any], Path, Path | None, int | None],
    tuple[AvailabilityChain, dict[str, np.ndarray]],
]


def _chain_of(
    chain: AvailabilityChain, n_hint: int | None, where: str
) -> tuple[ChainConstants, np.ndarray]:
    """(constants, π) of a chain object, N checked against the file's per-client entries."""
    if not is_availability_chain(chain):
        raise InputError(f"chain must be an AvailabilityChain, got {type(chain).__name__}")
    pi = chain.client_availability
    if pi is None:
        raise InputError("the chain needs a state→clients map (its client availabilities π)")
    if n_hint is not None and pi.size != n_hint:
        raise InputError(f"the chain has {pi.size} clients, {where} {n_hint}")
    return chain.constants(), np.asarray(pi, dtype=float)


def load_problem_config(
    path: str | Path,
    *,
    availability: AvailabilityResolver | None = None,
    chain: AvailabilityChain | None = None,
) -> ProblemSetup:
    """Read a TOML problem file (format in the module docstring) into a :class:`ProblemSetup`.

    An ``[availability]`` table is resolved by ``availability`` (see the module docstring);
    ``chain``, an availability chain object, replaces the file's ``[clients]`` or
    ``[availability]`` table.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> setup = load_problem_config(examples / "quadratic_small.toml")
    >>> setup.n_clients, setup.rounds, setup.local_steps
    (5, 500, 2)
    """
    path = Path(path)
    raw = load_toml(path, "problem file")
    return problem_setup(raw, base=path.parent, source=path, availability=availability, chain=chain)


def problem_setup(
    raw: Mapping[str, Any],
    *,
    base: str | Path = ".",
    source: Path | None = None,
    availability: AvailabilityResolver | None = None,
    chain: AvailabilityChain | None = None,
) -> ProblemSetup:
    """A :class:`ProblemSetup` from the tables of a problem file given as a dict (relative paths
    from ``base``; ``source`` names the file in messages); ``availability`` and ``chain`` as
    in :func:`load_problem_config`, where a chain object may also stand in the dict as
    ``availability``.

    >>> from fltheory.markov.product import ProductChain
    >>> setup = problem_setup({"rounds": 100, "local_steps": 1, "sigma": 1.0,
    ...     "steps": {"eta1": 0.01, "power": 1.0},
    ...     "problem": {"u": [[0.0], [1.0]], "diameter": 4.0}},
    ...     chain=ProductChain([0.9, 0.3], [0.5, 0.0]))
    >>> setup.pi.tolist(), setup.q_default, setup.problem.w_star.tolist()
    ([0.9, 0.3], 'q = α/π (default: unbiased)', [0.5])
    """
    base = Path(base)
    path = source
    data_raw = dict(raw)
    if is_availability_chain(data_raw.get("availability")):
        if chain is not None:
            raise InputError("give the chain once: as 'availability' or as chain")
        chain = data_raw.pop("availability")
    if chain is not None:  # it replaces the file's own availability
        data_raw.pop("clients", None)
        data_raw.pop("availability", None)
    data = parse(ProblemFile, data_raw, source=path)
    hint = data.n_clients_hint()
    groups: dict[str, np.ndarray] = {}
    if chain is not None:
        with _building("", path):
            chain_consts, pi = _chain_of(chain, hint, "the problem")
    elif data.availability is not None:
        if availability is None:
            raise InputError(
                f"{table_name('availability', path)}: read this file with fltheory.bound_report "
                "or fltheory.optimal_weights (or the CLI), which resolve the table"
            )
        resolved, groups = availability(dict(data.availability), base, path, hint)
        chain_consts, pi = _chain_of(resolved, hint, "the problem")
    elif data.clients is None:
        where = "" if path is None else f" of {path}"
        raise InputError(f"missing table [availability] (or [clients]){where}")
    else:
        with _building("clients", path):
            chain_consts, pi = data.clients.build(base)
    chain_out = chain_consts
    n = pi.size
    with _building("steps", path):
        steps = data.steps.build()
    with _building("", path):
        alpha = _alpha(data.alpha, n)
        sigma = checks.nonnegative_vector(
            np.full(n, data.sigma) if isinstance(data.sigma, float) else data.sigma, "sigma", n
        )
        q, Q, q_default = _weights(data.q, data.Q, alpha, pi)
    problem, center = None, None
    if data.problem is not None:
        with _building("problem", path):
            problem, constants, center = data.problem.build(alpha, pi, q, sigma)
    else:
        assert data.constants is not None  # the validator leaves one of the two
        with _building("constants", path):
            constants = data.constants.build(alpha, pi, sigma)
    kappa2 = data.optimize.kappa2
    with _building("optimize", path):
        kappa2_values = tuple(checks.nonnegative_vector(np.atleast_1d(kappa2), "kappa2"))
    with _building("", path):
        return ProblemSetup(
            constants=constants,
            chain=chain_out,
            pi=pi,
            alpha=alpha,
            q=q,
            local_steps=data.local_steps,
            Q=Q,
            steps=steps,
            rounds=data.rounds,
            problem=problem,
            center=center,
            kappa2=kappa2_values,
            source=path,
            q_default=q_default,
            groups=groups,
        )
