"""Flower strategies on fltheory's rules: one :class:`FltheoryStrategy`, one subclass per rule.

A round t (Flower's ``server_round`` = t + 1) of :meth:`Strategy.start`:

1. ``configure_train``: the reachable clients A_t come from the :class:`AvailabilityDriver`
   (or are every connected node, and A_t is then who answers); CA-Fed first asks them for their
   loss F_k(w_t) (a ``query`` message); the :class:`~fltheory.sim.deployment.RoundServer` plans
   the coefficients q_t and only the clients with q_k > 0 are asked to train;
2. ``aggregate_train``: the local models received go through the rule's own weights or memory
   step and eq. (3), w ← Proj_W(w + η̄ Σ_k q_k Δ_k); a planned client that did not answer is
   treated as unreachable this round;
3. ``configure_evaluate``: FedPBC's postponed broadcast — the new model goes to the clients of
   A_t, which adopt it as their own; the other rules send nothing here (use ``evaluate_fn`` of
   ``start`` for a central evaluation).

Models travel as Flower ``ArrayRecord`` s (any number of arrays, any float dtype); the server
works on their concatenation in float64. Clients are told their round, learning rate and
number of local steps in the message's ``config`` record (see :mod:`fltheory.flower.client`).
"""

import inspect
import time
from collections.abc import Iterable
from logging import INFO
from typing import Any, ClassVar

import numpy as np
from flwr.app import Array, ArrayRecord, ConfigRecord, Message, MessageType, MetricRecord
from flwr.common import log
from flwr.serverapp import Grid
from flwr.serverapp.strategy import Strategy

from fltheory.errors import InputError
from fltheory.sim.algorithms import (
    F3AST,
    MIFA,
    AdaFed,
    Algorithm,
    CAFed,
    FedAR,
    FedAvg,
    FedPBC,
    FedVARP,
    MoreAvailable,
    Unbiased,
)
from fltheory.sim.deployment import AvailabilityDriver, RoundServer
from fltheory.sim.settings import Schedule, ServerOptions

#: How long to wait for the N client nodes to connect before the first round (seconds).
CONNECT_TIMEOUT = 600.0

Layout = list[tuple[str, tuple[int, ...], np.dtype]]


def flatten(record: ArrayRecord) -> tuple[np.ndarray, Layout]:
    """(the arrays of a record concatenated in float64, their names, shapes and dtypes).

    >>> vec, layout = flatten(ArrayRecord([np.ones((2, 2), np.float32), np.zeros(1)]))
    >>> vec.tolist(), [shape for _, shape, _ in layout]
    ([1.0, 1.0, 1.0, 1.0, 0.0], [(2, 2), (1,)])
    """
    layout: Layout = []
    parts = []
    for key, array in record.items():
        arr = array.numpy()
        layout.append((key, tuple(arr.shape), arr.dtype))
        parts.append(np.asarray(arr, dtype=np.float64).ravel())
    return (np.concatenate(parts) if parts else np.zeros(0)), layout


def unflatten(vec: np.ndarray, layout: Layout) -> ArrayRecord:
    """The record of :func:`flatten` back from a vector.

    >>> record = ArrayRecord([np.arange(3.0)])
    >>> unflatten(*flatten(record)).to_numpy_ndarrays()[0].tolist()
    [0.0, 1.0, 2.0]
    """
    out: dict[str, Array] = {}
    start = 0
    for key, shape, dtype in layout:
        size = int(np.prod(shape, dtype=np.int64))
        out[key] = Array(vec[start : start + size].reshape(shape).astype(dtype))
        start += size
    return ArrayRecord(out)


class FltheoryStrategy(Strategy):
    """A Flower strategy running a fltheory aggregation rule (``algorithm``).

    ``alpha``: target weights α of eq. (1) (N,); ``schedule``/``local_steps``: the clients'
    learning rate η_t and E of eq. (2), sent with every training message; ``server``: η̄,
    momentum, weight decay, projection of eq. (3); ``pi``/``lambda2``: oracle availability (N,)
    or None for running estimates from the observed rounds; ``driver``: who is reachable at
    each round (None: every connected node is asked and A_t is who answers); ``run``: a tag
    that keeps the clients' state of this run apart from other runs on the same nodes;
    ``timeout``: seconds to wait for replies (None: wait for all).

    >>> strategy = FltheoryStrategy(Unbiased(), alpha=[0.5, 0.5], pi=[0.5, 0.9])
    >>> strategy.algorithm.name, strategy.n_clients
    ('unbiased', 2)
    """

    #: The rule's class for the named subclasses (None: pass ``algorithm``).
    rule: ClassVar[type[Algorithm] | None] = None

    def __init__(
        self,
        algorithm: Algorithm,
        *,
        alpha: np.ndarray | list[float],
        schedule: Schedule | None = None,
        local_steps: int = 1,
        server: ServerOptions | None = None,
        pi: np.ndarray | list[float] | None = None,
        lambda2: np.ndarray | list[float] | None = None,
        prior: tuple[float, float] = (1.0, 1.0),
        driver: AvailabilityDriver | None = None,
        run: str = "fltheory",
        timeout: float | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.alpha = np.asarray(alpha, dtype=float)
        self.schedule = schedule or Schedule(0.1)
        if local_steps < 1:
            raise InputError(f"local_steps must be >= 1, got {local_steps}")
        self.local_steps = local_steps
        self.options = server or ServerOptions()
        self.pi, self.lambda2, self.prior = pi, lambda2, prior
        if driver is not None and driver.n_clients != self.n_clients:
            raise InputError(f"the driver has {driver.n_clients} clients, alpha {self.n_clients}")
        self.driver = driver
        self.run = run
        self.timeout = timeout
        self.server: RoundServer | None = None
        self.layout: Layout = []
        self.initial = ArrayRecord()
        self.nodes: dict[int, int] = {}
        self._round: dict[str, Any] = {}
        self._started: set[int] = set()

    @property
    def n_clients(self) -> int:
        """N.

        >>> FedAvgStrategy(alpha=[0.2, 0.3, 0.5]).n_clients
        3
        """
        return int(self.alpha.size)

    @property
    def postponed(self) -> bool:
        """Whether clients keep their own models (FedPBC's postponed broadcast).

        >>> FedPBCStrategy(alpha=[0.5, 0.5]).postponed, FedAvgStrategy(alpha=[1.0]).postponed
        (True, False)
        """
        return isinstance(self.algorithm, FedPBC)

    # --- Flower's Strategy interface -------------------------------------------------------
    def summary(self) -> None:
        """Log the rule and its settings.

        >>> FedAvgStrategy(alpha=[1.0]).summary()
        """
        log(INFO, "\t├── fltheory rule: %s", self.algorithm.describe())
        log(INFO, "\t├── client lr: %s, local steps: %d", self.schedule, self.local_steps)
        log(INFO, "\t└── server: %s, availability: %s", self.options, self._source())

    def configure_train(
        self, server_round: int, arrays: ArrayRecord, config: ConfigRecord, grid: Grid
    ) -> Iterable[Message]:
        """Messages to the clients planned for round ``server_round − 1`` (see module doc).

        >>> FedAvgStrategy(alpha=[1.0]).configure_train.__name__
        'configure_train'
        """
        t = server_round - 1
        vec, layout = flatten(arrays)
        if self.server is None:
            self.layout, self.initial = layout, arrays
            self.server = RoundServer(
                self.algorithm,
                self.alpha,
                vec,
                server=self.options,
                pi=self.pi,
                lambda2=self.lambda2,
                prior=self.prior,
            )
        nodes = self._connect(grid)
        if self.driver is None:
            mask = np.ones(self.n_clients, dtype=bool)
        else:
            mask = self.driver.active(t)
        losses = None
        if self.algorithm.needs_losses:
            losses = np.full(self.n_clients, np.nan)
            asked = [nodes[k] for k in np.flatnonzero(mask).tolist()]
            replies = self._ask(grid, asked, "loss", arrays)
            for k, reply in replies.items():
                losses[k] = float(reply.content["metrics"]["loss"])  # type: ignore[arg-type]
            mask = mask & ~np.isnan(losses)
        known = self.driver is not None or losses is not None
        q = self.server.plan(mask, losses) if known else mask.astype(float)
        self._round = {"t": t, "mask": mask, "losses": losses, "known": known, "q": q}
        settings = {
            "op": "train",
            "run": self.run,
            "round": t,
            "lr": self.schedule.lr,
            "lr_kind": self.schedule.kind,
            "lr_t0": self.schedule.t0,
            "steps": self.local_steps,
            "postponed": self.postponed,
            "compute_all": self.postponed and getattr(self.algorithm, "compute", "") == "all",
        }
        messages = []
        for k in np.flatnonzero(q > 0).tolist():
            content: dict[str, Any] = {"config": ConfigRecord({**config, **settings})}
            if not self.postponed:
                content["arrays"] = arrays
            elif k not in self._started:  # x_i^0 = x^0 (FedPBC Algorithm 2, line 2)
                content["arrays"] = self.initial
                self._started.add(k)
            messages.append(_message(content, nodes[k], MessageType.TRAIN))
        return messages

    def aggregate_train(
        self, server_round: int, replies: Iterable[Message]
    ) -> tuple[ArrayRecord | None, MetricRecord | None]:
        """The rule's aggregation and eq. (3) on the local models received.

        >>> FedAvgStrategy(alpha=[1.0]).aggregate_train.__name__
        'aggregate_train'
        """
        assert self.server is not None, "configure_train runs first"
        by_node = {node: k for k, node in self.nodes.items()}
        models: dict[int, np.ndarray] = {}
        for reply in replies:
            if reply.has_error():
                continue
            k = by_node[reply.metadata.src_node_id]
            models[k] = flatten(reply.content["arrays"])[0]  # type: ignore[arg-type]
        planned = self._round["q"] > 0
        answered = np.zeros(self.n_clients, dtype=bool)
        answered[list(models)] = True
        mask = self._round["mask"] & ~(planned & ~answered)
        w = self.server.finish(mask, models, self._round["losses"])
        self._round["mask"] = mask
        metrics = {"active": int(mask.sum()), "trained": len(models)}
        return unflatten(w, self.layout), MetricRecord(metrics)  # type: ignore[arg-type]

    def configure_evaluate(
        self, server_round: int, arrays: ArrayRecord, config: ConfigRecord, grid: Grid
    ) -> Iterable[Message]:
        """FedPBC: the new model to the clients of A_t (postponed broadcast); else nothing.

        >>> FedAvgStrategy(alpha=[1.0]).configure_evaluate(1, ArrayRecord(), ConfigRecord(), None)
        []
        """
        if not self.postponed:
            return []
        settings = {"op": "adopt", "run": self.run, "round": self._round["t"]}
        content = {"arrays": arrays, "config": ConfigRecord({**config, **settings})}
        active = np.flatnonzero(self._round["mask"]).tolist()
        return [_message(content, self.nodes[k], MessageType.EVALUATE) for k in active]

    def aggregate_evaluate(
        self, server_round: int, replies: Iterable[Message]
    ) -> MetricRecord | None:
        """How many clients adopted the broadcast model (FedPBC).

        >>> FedAvgStrategy(alpha=[1.0]).aggregate_evaluate(1, [])
        """
        if not self.postponed:
            return None
        return MetricRecord({"adopted": sum(not r.has_error() for r in replies)})

    # --- helpers ---------------------------------------------------------------------------
    def _source(self) -> str:
        if self.driver is not None:
            return f"driver over {self.driver.rounds} rounds"
        return "observed (clients that answer)"

    def _connect(self, grid: Grid) -> dict[int, int]:
        """client index k → node id, asked once from every node (its ``client-id`` or
        ``partition-id`` node config)."""
        if self.nodes:
            return self.nodes
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while len(ids := list(grid.get_node_ids())) < self.n_clients:
            if time.monotonic() > deadline:
                raise InputError(f"{len(ids)} of {self.n_clients} client nodes connected")
            time.sleep(0.2)
        config = ConfigRecord({"op": "id", "run": self.run})
        msgs = [_message({"config": config}, node, MessageType.QUERY) for node in ids]
        nodes: dict[int, int] = {}
        for reply in grid.send_and_receive(msgs, timeout=self.timeout):
            if not reply.has_error():
                nodes[int(reply.content["metrics"]["client"])] = reply.metadata.src_node_id  # type: ignore[arg-type]
        if sorted(nodes) != list(range(self.n_clients)):
            raise InputError(f"client nodes must be numbered 0..{self.n_clients - 1}: {nodes}")
        self.nodes = nodes
        return nodes

    def _ask(self, grid: Grid, nodes: list[int], op: str, arrays: ArrayRecord) -> dict:
        """Replies (by client index) of a query ``op`` sent with the current model."""
        by_node = {node: k for k, node in self.nodes.items()}
        config = ConfigRecord({"op": op, "run": self.run})
        msgs = [_message({"arrays": arrays, "config": config}, n, MessageType.QUERY) for n in nodes]
        replies = grid.send_and_receive(msgs, timeout=self.timeout)
        return {by_node[r.metadata.src_node_id]: r for r in replies if not r.has_error()}


def _message(content: dict[str, Any], node: int, kind: str) -> Message:
    from flwr.app import RecordDict

    return Message(RecordDict(content), dst_node_id=node, message_type=kind)


def _named(rule: type[Algorithm], doc: str) -> type[FltheoryStrategy]:
    """A subclass whose rule is built from keyword parameters (the rule's own fields)."""

    names = set(inspect.signature(FltheoryStrategy.__init__).parameters)

    def __init__(self: FltheoryStrategy, *, alpha: Any, **kwargs: Any) -> None:
        params = {k: v for k, v in kwargs.items() if k not in names}
        rest = {k: v for k, v in kwargs.items() if k in names}
        FltheoryStrategy.__init__(self, rule(**params), alpha=alpha, **rest)

    return type(
        f"{rule.__name__}Strategy",
        (FltheoryStrategy,),
        {"__init__": __init__, "__doc__": doc, "rule": rule, "__module__": __name__},
    )


FedAvgStrategy = _named(
    FedAvg,
    """FedAvg: q_k = 1/|A_t| (``rule="mean"``) or fixed q on A_t (``rule="fixed"``).

    >>> FedAvgStrategy(alpha=[0.5, 0.5], rule="fixed").algorithm.rule
    'fixed'
    """,
)
UnbiasedStrategy = _named(
    Unbiased,
    """Unbiased: q_k = α_k/π_k (π oracle or estimated).

    >>> UnbiasedStrategy(alpha=[0.5, 0.5], pi=[0.5, 1.0]).algorithm.name
    'unbiased'
    """,
)
AdaFedStrategy = _named(
    AdaFed,
    """AdaFed: α_k/π_k normalised over the active clients.

    >>> AdaFedStrategy(alpha=[0.5, 0.5]).algorithm.name
    'adafed'
    """,
)
MoreAvailableStrategy = _named(
    MoreAvailable,
    """More available: only the clients of ``members`` (e.g. π above a threshold).

    >>> MoreAvailableStrategy(alpha=[0.5, 0.5], members=np.array([True, False])).algorithm.name
    'more_available'
    """,
)
F3ASTStrategy = _named(
    F3AST,
    """F3AST: ``k`` clients a round by their participation rates (filter ``beta``).

    >>> F3ASTStrategy(alpha=[0.5, 0.5], k=1, beta=0.1).algorithm.k
    1
    """,
)
CAFedStrategy = _named(
    CAFed,
    """CA-Fed (Algorithm 1): losses asked from the active clients each round, F̂ filtered and
    tracked, clients excluded by get() with π̂/λ̂ (oracle, or estimated when ``pi`` is None).

    >>> CAFedStrategy(alpha=[0.5, 0.5], kappa2=0.25).algorithm.kappa2
    0.25
    """,
)
FedPBCStrategy = _named(
    FedPBC,
    """FedPBC: clients keep their own models and compute every round (``compute="all"``);
    the server averages the active ones' models and broadcasts at the end of the round.

    >>> FedPBCStrategy(alpha=[0.5, 0.5], compute="active").algorithm.compute
    'active'
    """,
)
FedARStrategy = _named(
    FedAR,
    """FedAR: a server-side table of the latest updates, rectified by staleness (eqs. 4–7).

    >>> FedARStrategy(alpha=[0.5, 0.5], p=0.2).algorithm.p
    0.2
    """,
)
MIFAStrategy = _named(
    MIFA,
    """MIFA: the mean over all N clients of their latest updates (server-side table).

    >>> MIFAStrategy(alpha=[0.5, 0.5]).algorithm.name
    'mifa'
    """,
)
FedVARPStrategy = _named(
    FedVARP,
    """FedVARP: fresh updates corrected by the stored ones (server-side table).

    >>> FedVARPStrategy(alpha=[0.5, 0.5]).algorithm.name
    'fedvarp'
    """,
)
