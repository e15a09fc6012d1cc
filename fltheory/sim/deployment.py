"""One federation, round by round: the engine's server side for real deployments (Flower).

The vectorised engine (:mod:`fltheory.sim.engine`) owns the whole loop: the availability trace,
every client's local SGD and the server step. A deployment splits it: the server learns each
round which clients are reachable, asks some of them to train, receives their local models and
aggregates. :class:`RoundServer` is that server side with ``R = 1`` repetition and no copy of any
rule: it calls the algorithm's pure weight rule (``weights``) or its memory step (``step`` and
``after_server``), the engine's ``Σ q_k Δ_k`` and :func:`~fltheory.sim.engine.server_step`
(eq. 3 with the server learning rate η̄), with a ``local`` function that hands back the models
the clients reported. So a deployment that feeds the trace of a simulation ends on the same
server model as the engine (tests/flower, tests/sim/test_deployment.py).

Which clients are reachable comes either from an :class:`AvailabilityDriver` (a fltheory chain,
an availability process or a recorded trace: a simulated federation with the paper's
availability model) or, in a real deployment, from who answered; the π̂/λ̂ estimators then run
on the observed rows (:func:`~fltheory.sim.knowledge.bayesian_knowledge`, causal, so round t's
estimates equal the engine's on the full trace).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.markov.protocol import AvailabilityChain
from fltheory.rng import generator
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.memory import Memory, MemoryAlgorithm
from fltheory.sim.availability import AvailabilityProcess
from fltheory.sim.contract import SimProblem
from fltheory.sim.engine import server_step, weighted_updates
from fltheory.sim.knowledge import bayesian_knowledge
from fltheory.sim.settings import Schedule, ServerOptions

__all__ = ["AvailabilityDriver", "LocalTrainer", "RoundServer", "run_federation"]


@dataclass(frozen=True, eq=False)
class AvailabilityDriver:
    """Which clients are reachable at each round: row t of a (T, N) boolean trace.

    >>> from fltheory.markov import ProductChain
    >>> driver = AvailabilityDriver.from_chain(ProductChain([0.5, 0.9], [0.5, 0.1]), 4, seed=0)
    >>> driver.trace.shape, driver.active(0).dtype == bool
    ((4, 2), True)
    >>> AvailabilityDriver.from_trace([[1, 0], [0, 1]]).active(1).tolist()
    [False, True]
    """

    trace: np.ndarray

    def __post_init__(self) -> None:
        from fltheory.markov.estimators import as_trace

        object.__setattr__(self, "trace", as_trace(self.trace))

    @property
    def n_clients(self) -> int:
        """N.

        >>> AvailabilityDriver.from_trace([[1, 0, 1]]).n_clients
        3
        """
        return int(self.trace.shape[1])

    @property
    def rounds(self) -> int:
        """T, the rounds the driver covers.

        >>> AvailabilityDriver.from_trace([[1], [0]]).rounds
        2
        """
        return int(self.trace.shape[0])

    def active(self, t: int) -> np.ndarray:
        """(N,) bool: the clients reachable at round t (0-based).

        >>> AvailabilityDriver.from_trace([[1, 0]]).active(0).tolist()
        [True, False]
        """
        if not 0 <= t < self.rounds:
            raise InputError(f"the availability driver covers rounds 0..{self.rounds - 1}, not {t}")
        return np.asarray(self.trace[t].copy())

    @classmethod
    def from_trace(cls, trace: np.ndarray | list[Any]) -> "AvailabilityDriver":
        """A recorded (T, N) 0/1 trace.

        >>> AvailabilityDriver.from_trace(np.eye(2)).trace.tolist()
        [[True, False], [False, True]]
        """
        return cls(np.asarray(trace))

    @classmethod
    def from_file(cls, path: str | Path) -> "AvailabilityDriver":
        """A trace file (.csv or .npy, :func:`~fltheory.sim.availability_io.load_trace`).

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "trace.csv"
        >>> _ = path.write_text("1,0\\n1,1\\n")
        >>> AvailabilityDriver.from_file(path).trace.sum(axis=0).tolist()
        [2, 1]
        """
        from fltheory.sim.availability_io import load_trace

        return cls(load_trace(path))

    @classmethod
    def from_chain(
        cls, chain: AvailabilityChain, rounds: int, seed: int, purpose: str = "flower/availability"
    ) -> "AvailabilityDriver":
        """T rounds of any fltheory chain (``chain.sample``) from stream (seed, purpose).

        >>> from fltheory.markov import ClusteredChain
        >>> chain = ClusteredChain([0.5], [0.5], [0, 0, 0])  # one cluster: all or nobody
        >>> trace = AvailabilityDriver.from_chain(chain, 5, seed=1).trace
        >>> bool((trace == trace[:, :1]).all())
        True
        """
        return cls(chain.sample(rounds, generator(seed, purpose)))

    @classmethod
    def from_process(
        cls, process: AvailabilityProcess, rounds: int, seed: int, rep: int = 0
    ) -> "AvailabilityDriver":
        """Repetition ``rep`` of a simulator availability process: the very trace the engine
        draws for (seed, rep), so a deployment replays a simulation's availability.

        >>> from fltheory.sim.availability import BernoulliLinks
        >>> process = BernoulliLinks(np.array([0.5, 0.5]))
        >>> same = process.sample(3, 2, 6)[1]
        >>> bool((AvailabilityDriver.from_process(process, 6, seed=3, rep=1).trace == same).all())
        True
        """
        return cls(process.sample(seed, rep + 1, rounds)[rep])


def _as_vector(x: np.ndarray | list[float] | None, n: int, what: str) -> np.ndarray | None:
    if x is None:
        return None
    arr = np.asarray(x, dtype=float)
    if arr.shape != (n,):
        raise InputError(f"{what} must have one value per client ({n}), got shape {arr.shape}")
    return arr


class RoundServer:
    """The server of one federation (R = 1): weight rule or memory step, then eq. (3).

    ``pi``/``lambda2``: the oracle availability known to the server (N,), or None for running
    Bayesian estimates from the observed rounds (``prior``: its Beta(a, b)). Per round:
    :meth:`plan` (who trains, from the active set and, for CA-Fed, their losses), then
    :meth:`finish` with the local models received; the model moves only when someone took part.

    >>> alg = __import__("fltheory.sim.algorithms", fromlist=["Unbiased"]).Unbiased()
    >>> server = RoundServer(alg, alpha=[0.5, 0.5], w0=[0.0], pi=[0.5, 1.0])
    >>> mask = np.array([True, True])
    >>> server.plan(mask).tolist()  # q = α/π
    [1.0, 0.5]
    >>> server.finish(mask, {0: np.array([1.0]), 1: np.array([2.0])}).tolist()  # 1·1 + 0.5·2
    [2.0]
    """

    def __init__(
        self,
        algorithm: Algorithm,
        alpha: np.ndarray | list[float],
        w0: np.ndarray | list[float],
        *,
        server: ServerOptions | None = None,
        pi: np.ndarray | list[float] | None = None,
        lambda2: np.ndarray | list[float] | None = None,
        prior: tuple[float, float] = (1.0, 1.0),
    ) -> None:
        if algorithm.corrects_gradients:
            raise InputError(
                f"{algorithm.name} corrects the clients' local gradients: not offered here"
            )
        self.algorithm = algorithm
        self.alpha = np.asarray(alpha, dtype=float)
        n = self.alpha.size
        self.pi = _as_vector(pi, n, "pi")
        self.lambda2 = _as_vector(lambda2, n, "lambda2")
        if self.pi is not None and algorithm.needs_pi and not (self.pi > 0).all():
            raise InputError(f"{algorithm.name} divides by the availability: every pi must be > 0")
        if self.pi is not None and algorithm.needs_lambda2 and self.lambda2 is None:
            raise InputError(f"{algorithm.name} needs each client's lambda2 with an oracle pi")
        self.prior = prior
        self.options = server or ServerOptions()
        self.w = torch.as_tensor(np.asarray(w0, dtype=float))[None, :].clone()
        self.v = torch.zeros_like(self.w)
        self.t = 0
        self.history: list[np.ndarray] = []
        self.state: State | None = None
        self.memory: Memory | None = None
        if isinstance(algorithm, MemoryAlgorithm):
            self.memory = algorithm.init_memory(1, n, self.w)

    @property
    def n_clients(self) -> int:
        """N.

        >>> from fltheory.sim.algorithms import FedAvg
        >>> RoundServer(FedAvg(), [0.5, 0.5], [0.0]).n_clients
        2
        """
        return int(self.alpha.size)

    @property
    def model(self) -> np.ndarray:
        """The current server model w_t (P,), float64.

        >>> from fltheory.sim.algorithms import FedAvg
        >>> RoundServer(FedAvg(), [1.0], [3.0, 4.0]).model.tolist()
        [3.0, 4.0]
        """
        return self.w[0].numpy().copy()

    def _input(self, mask: np.ndarray, losses: np.ndarray | None) -> RoundInput:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (self.n_clients,):
            raise InputError(f"the active set must have {self.n_clients} entries")
        if self.pi is None:
            know = bayesian_knowledge(np.stack([*self.history, mask])[None], self.prior)
            pi, lam = know.pi(self.t, 1), know.lambda2(self.t, 1)
        else:
            pi = self.pi[None]
            lam = None if self.lambda2 is None else self.lambda2[None]
        row = None if losses is None else np.asarray(losses, dtype=float)[None]
        return RoundInput(self.t, mask[None], self.alpha, pi, lam, row)

    def _state(self, inp: RoundInput) -> State:
        if self.state is None:  # as the engine: the state starts from the round-0 knowledge
            return self.algorithm.init_state(1, self.alpha, inp.pi)
        return self.state

    def plan(self, mask: np.ndarray, losses: np.ndarray | None = None) -> np.ndarray:
        """(N,) coefficients of round t: q_k > 0 marks the clients asked to train.

        Memory algorithms ask every active client (1.0). ``losses``: (N,) F_k(w_t) of the
        active clients (NaN elsewhere), needed by CA-Fed. Nothing is committed here.

        >>> from fltheory.sim.algorithms import FedAvg
        >>> RoundServer(FedAvg(), [0.5, 0.5], [0.0]).plan(np.array([True, False])).tolist()
        [1.0, 0.0]
        """
        inp = self._input(mask, losses)
        if self.memory is not None:
            return np.asarray(inp.mask[0].astype(float))
        q, _ = self.algorithm.weights(inp, self._state(inp))
        return np.asarray(q[0], dtype=float)

    def finish(
        self,
        mask: np.ndarray,
        models: Mapping[int, np.ndarray],
        losses: np.ndarray | None = None,
    ) -> np.ndarray:
        """Round t with the local models received (client → (P,)); returns w_{t+1}.

        ``mask`` is the round's final active set (a planned participant that did not answer is
        dropped from it by the caller). Every client with q_k > 0 must have reported; FedPBC's
        clients train from their own models, the others from w_t.

        >>> from fltheory.sim.algorithms import MIFA
        >>> server = RoundServer(MIFA(), [0.5, 0.5], [0.0])
        >>> server.finish(np.array([True, False]), {0: np.array([4.0])}).tolist()  # (4 + 0)/2
        [2.0]
        """
        inp = self._input(mask, losses)
        local = _Reported(models)
        w = self.w
        if self.memory is not None:
            assert isinstance(self.algorithm, MemoryAlgorithm)
            delta, moved_rows, _, self.memory = self.algorithm.step(inp, w, self.memory, local)
        else:
            q, state = self.algorithm.weights(inp, self._state(inp))
            missing = sorted(set(np.flatnonzero(q[0] > 0).tolist()) - set(models))
            if missing:
                raise InputError(
                    f"round {self.t}: clients {missing} were weighted but sent no model"
                )
            delta, moved_rows = weighted_updates(w, q, local)
            self.state = state
        if moved_rows.any():
            w, self.v = server_step(w, self.v, delta, self.options)
        self.w = w
        if self.memory is not None:
            assert isinstance(self.algorithm, MemoryAlgorithm)
            self.memory = self.algorithm.after_server(inp, w, self.memory)
        self.history.append(inp.mask[0])
        self.t += 1
        return self.model


@dataclass(frozen=True, eq=False)
class _Reported:
    """local(rr, kk, theta0) for R = 1: the models clients kk reported; a client that did not
    report (FedPBC's inactive clients, whose models the server never sees) keeps theta0."""

    models: Mapping[int, np.ndarray]

    def __call__(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor:
        assert correction is None, "gradient-correcting rules are refused up front"
        rows = []
        for i, k in enumerate(kk.tolist()):
            if k in self.models:
                rows.append(torch.as_tensor(np.asarray(self.models[k], dtype=float)).to(theta0))
            else:
                rows.append(theta0[i])
        return torch.stack(rows) if rows else theta0.clone()

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray:
        """Unknown: the clients trained elsewhere (only SCAFFOLD asks, refused up front)."""
        raise InputError("the server does not know the clients' local work")


@dataclass(eq=False)
class LocalTrainer:
    """The clients' side on a tensor problem (:mod:`fltheory.sim.problems`, full local
    gradients): E local SGD steps (eq. 2) at the round's learning rate, the loss F_k(w) that
    CA-Fed asks for, and FedPBC's own client models (Algorithm 2: every client computes every
    round; one that was unreachable catches up on the rounds it missed when next reached).

    >>> from fltheory.sim.problems import QuadraticSim
    >>> from fltheory.sim.settings import Schedule
    >>> trainer = LocalTrainer(QuadraticSim(np.array([[1.0], [3.0]]), np.full(2, 0.5)),
    ...                        Schedule(0.5), local_steps=1)
    >>> trainer.train(1, np.array([1.0]), t=0).tolist()  # 1 − 0.5·(1 − 3)
    [2.0]
    >>> trainer.loss(0, np.array([3.0]))  # ½(3 − 1)²
    2.0
    """

    problem: SimProblem
    schedule: Schedule
    local_steps: int = 1

    def train(self, k: int, theta: np.ndarray, t: int) -> np.ndarray:
        """Client k's model after E local steps of round t from ``theta`` (P,).

        >>> from fltheory.sim.problems import QuadraticSim
        >>> trainer = LocalTrainer(QuadraticSim(np.array([[0.0]]), np.ones(1)), Schedule(0.5), 2)
        >>> trainer.train(0, np.array([4.0]), t=0).tolist()  # (1 − 0.5)² · 4
        [1.0]
        """
        x = torch.as_tensor(np.asarray(theta, dtype=float))[None]
        clients = torch.tensor([k])
        lr = self.schedule.at(t)
        return self.problem.local_sgd(x, clients, None, lr, self.local_steps)[0].numpy()

    def loss(self, k: int, theta: np.ndarray) -> float:
        """F_k(theta) (full local data).

        >>> from fltheory.sim.problems import QuadraticSim
        >>> LocalTrainer(QuadraticSim(np.array([[0.0]]), np.ones(1)), Schedule(0.1)).loss(
        ...     0, np.array([2.0]))
        2.0
        """
        x = torch.as_tensor(np.asarray(theta, dtype=float))[None]
        return float(self.problem.losses(x, torch.tensor([k]))[0])

    def catch_up(self, k: int, own: np.ndarray, done: int, t: int) -> np.ndarray:
        """FedPBC client k's own model after rounds done..t (rounds it computed offline).

        >>> from fltheory.sim.problems import QuadraticSim
        >>> trainer = LocalTrainer(QuadraticSim(np.array([[0.0]]), np.ones(1)), Schedule(0.5))
        >>> trainer.catch_up(0, np.array([8.0]), done=0, t=2).tolist()  # three halvings
        [1.0]
        """
        x = np.asarray(own, dtype=float)
        for s in range(done, t + 1):
            x = self.train(k, x, s)
        return x


def run_federation(
    server: RoundServer, trainer: LocalTrainer, driver: AvailabilityDriver, rounds: int
) -> np.ndarray:
    """A federation without a network: per round, the reachable clients, CA-Fed's loss query,
    the plan, local training of the planned clients and the server step; FedPBC's clients keep
    their own models (all computing, or the active only with ``compute="active"``) and get the
    new model at the end of the round. Returns w_T, the engine's ``final_w`` on the same trace.

    >>> from fltheory.sim.algorithms import FedAvg
    >>> from fltheory.sim.problems import QuadraticSim
    >>> from fltheory.sim.settings import Schedule
    >>> problem = QuadraticSim(np.array([[0.0], [2.0]]), np.full(2, 0.5))
    >>> server = RoundServer(FedAvg(), problem.alpha, [0.0])
    >>> trainer = LocalTrainer(problem, Schedule(1.0))  # one step of lr 1 reaches u_k
    >>> run_federation(server, trainer, AvailabilityDriver.from_trace([[1, 1]]), 1).tolist()
    [1.0]
    """
    from fltheory.sim.algorithms.fedpbc import FedPBC

    n = server.n_clients
    pbc = server.algorithm if isinstance(server.algorithm, FedPBC) else None
    own = {k: server.model for k in range(n)}
    done = dict.fromkeys(range(n), 0)
    for t in range(rounds):
        mask = driver.active(t)
        w = server.model
        losses = None
        if server.algorithm.needs_losses:
            losses = np.array([trainer.loss(k, w) if mask[k] else np.nan for k in range(n)])
        q = server.plan(mask, losses)
        models = {}
        for k in np.flatnonzero(q > 0).tolist():
            if pbc is None:
                models[k] = trainer.train(k, w, t)
            else:
                first = done[k] if pbc.compute == "all" else t
                models[k] = own[k] = trainer.catch_up(k, own[k], first, t)
                done[k] = t + 1
        w_next = server.finish(mask, models, losses)
        if pbc is not None:
            for k in np.flatnonzero(mask).tolist():
                own[k], done[k] = w_next.copy(), t + 1
    return server.model
