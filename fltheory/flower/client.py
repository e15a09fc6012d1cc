"""A Flower ``ClientApp`` that plays the clients of a fltheory tensor problem.

Each node is client k of the problem (its ``client-id`` node config, else its
``partition-id``, which Flower's simulation numbers 0..N−1). It answers the messages of
:class:`~fltheory.flower.strategy.FltheoryStrategy`:

* query ``id``: its index k; query ``loss``: F_k(w) at the model sent (CA-Fed);
* train: E local SGD steps (eq. 2) at η_t from the model sent, returned as its local model;
  with ``postponed`` (FedPBC) it trains its OWN model instead, kept in the node's state,
  first catching up on the rounds it was unreachable (``compute_all``: Algorithm 2, where
  every client computes every round), and returns it;
* evaluate ``adopt`` (FedPBC's broadcast): it replaces its own model by the one sent.

The training itself is :class:`~fltheory.sim.deployment.LocalTrainer` (full local gradients),
so the simulated clients compute exactly what the engine computes.
"""

from flwr.app import ArrayRecord, ConfigRecord, Context, Message, MetricRecord, RecordDict
from flwr.clientapp import ClientApp

from fltheory.flower.strategy import flatten, unflatten
from fltheory.sim.contract import SimProblem
from fltheory.sim.deployment import LocalTrainer
from fltheory.sim.settings import Schedule


def _client(context: Context) -> int:
    config = context.node_config
    return int(config.get("client-id", config.get("partition-id", 0)))  # type: ignore[arg-type]


def _trainer(problem: SimProblem, config: ConfigRecord) -> LocalTrainer:
    schedule = Schedule(float(config["lr"]), str(config["lr_kind"]), float(config["lr_t0"]))  # type: ignore[arg-type]
    return LocalTrainer(problem, schedule, int(config["steps"]))  # type: ignore[call-overload]


def _reply(msg: Message, content: dict) -> Message:
    return Message(RecordDict(content), reply_to=msg)


def problem_client_app(problem: SimProblem) -> ClientApp:
    """The ``ClientApp`` of a tensor problem's clients (:mod:`fltheory.sim.problems`).

    >>> import numpy as np
    >>> from fltheory.sim.problems import QuadraticSim
    >>> app = problem_client_app(QuadraticSim(np.array([[0.0], [1.0]]), np.full(2, 0.5)))
    >>> type(app).__name__
    'ClientApp'
    """
    app = ClientApp()

    @app.query()
    def query(msg: Message, context: Context) -> Message:
        config = msg.content["config"]
        k = _client(context)
        if config["op"] == "id":
            return _reply(msg, {"metrics": MetricRecord({"client": k})})
        theta = flatten(msg.content["arrays"])[0]  # type: ignore[arg-type]
        trainer = LocalTrainer(problem, Schedule(1.0))
        return _reply(msg, {"metrics": MetricRecord({"loss": trainer.loss(k, theta)})})

    @app.train()
    def train(msg: Message, context: Context) -> Message:
        config = msg.content["config"]
        k, t, run = _client(context), int(config["round"]), str(config["run"])  # type: ignore[call-overload]
        trainer = _trainer(problem, config)  # type: ignore[arg-type]
        if not config["postponed"]:
            arrays = msg.content["arrays"]
            vec, layout = flatten(arrays)  # type: ignore[arg-type]
            return _reply(msg, {"arrays": unflatten(trainer.train(k, vec, t), layout)})
        own_key, done_key = f"{run}.x", f"{run}.done"
        if "arrays" in msg.content:  # x_i^0 from the server at first contact
            context.state[own_key] = msg.content["arrays"]
            context.state[done_key] = ConfigRecord({"round": 0})
        vec, layout = flatten(context.state[own_key])  # type: ignore[arg-type]
        done = int(context.state[done_key]["round"])  # type: ignore[index, call-overload]
        first = done if config["compute_all"] else t
        own = trainer.catch_up(k, vec, first, t)
        record = unflatten(own, layout)
        context.state[own_key] = record
        context.state[done_key] = ConfigRecord({"round": t + 1})
        return _reply(msg, {"arrays": record})

    @app.evaluate()
    def adopt(msg: Message, context: Context) -> Message:
        config = msg.content["config"]
        run = str(config["run"])
        context.state[f"{run}.x"] = ArrayRecord(dict(msg.content["arrays"].items()))  # type: ignore[union-attr]
        context.state[f"{run}.done"] = ConfigRecord({"round": int(config["round"]) + 1})  # type: ignore[call-overload]
        return _reply(msg, {"metrics": MetricRecord({"adopted": 1})})

    return app
