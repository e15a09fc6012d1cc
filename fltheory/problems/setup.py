"""The inputs of the bounds of CA-Fed (ToN) for one problem, gathered in one record.

:class:`ProblemSetup` is what a problem file (:mod:`fltheory.problems.config`) is read into and
what :func:`fltheory.bounds.report.all_bounds` and ``fltheory optimize-q`` consume; it lives in
``fltheory.problems`` so that the bounds import it without ``fltheory.problems`` ever importing
``fltheory.bounds``.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fltheory import checks
from fltheory.errors import InputError
from fltheory.markov.constants import ChainConstants
from fltheory.optimize import DEFAULT_KAPPA2
from fltheory.problems.constants import ProblemConstants
from fltheory.problems.quadratic import QuadraticProblem
from fltheory.problems.steps import StepSizes

#: Largest horizon T (and local steps E): the series of eq. 13 are summed term by term up to
#: 10⁷ and extrapolated beyond; 10⁸ rounds is past any experiment of the papers, and a request
#: for 10⁹ or 10¹⁸ is a typo, not a question.
MAX_ROUNDS = 10**8

#: Relative tolerance between Q and Σq.
Q_RTOL = 1e-9


@dataclass(frozen=True, eq=False)
class ProblemSetup:
    """Everything Theorems 1–3 (eqs. 10, 11, 13, 15) and problems 14/212 need.

    Attributes:
        constants: L, μ, Γ, D, G, H, diameter(W), σ, α, π (Assumptions 2–5, Lemma 1, eq. 9).
        chain: λ(P), C_P, T_P, ln M of the availability chain (eqs. 5, 156, 157).
        pi, alpha, q: availabilities (eq. 4), target importance (eq. 1), aggregation weights.
        local_steps: E, the local SGD steps per round; rounds: T, the horizon of eq. 13.
        Q: ‖q‖₁; steps: the local step sizes η_t.
        problem, center: the quadratic problem and the centre of W, when the file has one.
        kappa2: the κ̄² values of problem 14 (eq. 14; one solve per value).
        source: the file it was read from.
        q_default: how q was chosen when the file gave none (e.g. "q = α/π (default:
            unbiased)"), None when q was given.
        groups: named client groups (name → boolean mask over the clients) of the availability
            table, for the outputs; empty when it has none.

    >>> from fltheory.markov.product import ProductChain
    >>> pi, alpha = np.array([0.5, 0.5]), np.array([0.5, 0.5])
    >>> consts = ProblemConstants(2.0, 1.0, 0.1, 1.0, 1.0, 1.0, 1.0, 0.0, alpha, pi)
    >>> setup = ProblemSetup(consts, ProductChain(pi, [0.5, 0.5]).constants(), pi, alpha,
    ...                      q=np.array([1.0, 1.0]), local_steps=2, Q=2.0,
    ...                      steps=StepSizes.power_law(0.01, 1.0), rounds=100)
    >>> setup.n_clients, setup.kappa2
    (2, (1.0,))
    """

    constants: ProblemConstants
    chain: ChainConstants
    pi: np.ndarray
    alpha: np.ndarray
    q: np.ndarray
    local_steps: int
    Q: float
    steps: StepSizes
    rounds: int
    problem: QuadraticProblem | None = None
    center: np.ndarray | None = None
    kappa2: tuple[float, ...] = (DEFAULT_KAPPA2,)
    source: Path | None = None
    q_default: str | None = None
    groups: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        checks.positive_integer(self.local_steps, "local_steps")
        checks.positive_integer(self.rounds, "rounds")
        for name in ("rounds", "local_steps"):
            value = getattr(self, name)
            if value > MAX_ROUNDS:
                raise InputError(
                    f"{name} = {value} is beyond the largest accepted, {MAX_ROUNDS:.0e}"
                )
        q = checks.aggregation_weights(self.q, self.pi)
        Q = checks.positive(self.Q, "Q")
        if abs(float(q.sum()) - Q) > Q_RTOL * Q:
            raise InputError(f"Q = {Q:g} differs from Σq = {q.sum():.12g}")
        kappa2 = checks.nonnegative_vector(self.kappa2, "kappa2")
        object.__setattr__(self, "kappa2", tuple(float(k) for k in kappa2))

    @property
    def n_clients(self) -> int:
        """N, the number of clients.

        >>> from fltheory.problems.config import load_problem_config
        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> load_problem_config(examples / "ca_fed_population.toml").n_clients  # [clients] n
        100
        """
        return int(self.pi.size)
