"""Reference-loop twins: each algorithm's rule again, one repetition and client at a time.

The reference loop (:mod:`fltheory.sim.reference`) runs every algorithm through its twin, found
in the algorithm's registry entry (``reference=``). A twin is written from the paper with Python
lists, dicts and per-client tensors, NOT by calling the vectorised rule, so that agreement to
1e-10 in float64 checks the vectorised code.

A twin keeps a mutable state dict per repetition:

* :meth:`Twin.start` — the state before round 0;
* :meth:`Twin.step` — the round's server direction Δ (None: the model stays) and the
  coefficient with which each client's (fresh or stored) update enters it;
* :meth:`Twin.after_server` — state changes after w ← Proj_W(w + η̄Δ) (FedPBC's broadcast);
* :meth:`Twin.extra_models` — models evaluated besides the global one (FedPBC's client mean).

:class:`WeightTwin` turns a scalar weight rule q = rule(alg, view, state) into a twin with
Δ = Σ_k q_k (x_k − w), x_k the model after E local steps of client k from w (eq. 3).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

#: local(k, x): client k's model after its local work (eq. 2) started from x. The reference loop
#: passes the run's local method one client at a time
#: (:class:`fltheory.sim.local.base.ReferenceLocalFn`, which also takes a gradient correction and
#: gives ``work(k)``: SCAFFOLD's twin checks for it with ``isinstance``).
LocalStep = Callable[[int, torch.Tensor], torch.Tensor]
State = dict[str, Any]


@dataclass(frozen=True, eq=False)
class RoundView:
    """Round t (0-based) of repetition r as a twin sees it, in plain Python values.

    ``active``: the clients of A_t in increasing order; ``pi``/``lambda2``: the availability
    knowledge of the server this round (``lambda2`` None when undefined); ``losses``: F_k at
    w_{t,0} on the first minibatch, for active clients of algorithms that need losses.

    >>> RoundView(0, 0, 1, [1], [0.5, 0.5], [0.5, 0.5]).n
    2
    """

    t: int
    r: int
    reps: int
    active: list[int]
    alpha: list[float]
    pi: list[float]
    lambda2: list[float] | None = None
    losses: dict[int, float] | None = None

    @property
    def n(self) -> int:
        """Number of clients N."""
        return len(self.alpha)


class Twin:
    """Base of the reference twins (see the module docstring); subclasses write :meth:`step`."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """State before round 0 (``pi0``: the availability known at round 0; ``w``: w₀)."""
        return {}

    def step(
        self, alg: Any, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """(Δ or None, {client: coefficient}) for one round."""
        raise NotImplementedError

    def after_server(self, alg: Any, st: State, view: RoundView, w: torch.Tensor) -> None:
        """Update the state once the server produced the new global model ``w``."""

    def extra_models(self, alg: Any, st: State) -> dict[str, torch.Tensor]:
        """Extra models to evaluate, by tag (metrics ``objective_<tag>`` …)."""
        return {}


Rule = Callable[[Any, RoundView, State], dict[int, float]]
Init = Callable[[Any, list[float], list[float]], State]


@dataclass(frozen=True, eq=False)
class WeightTwin(Twin):
    """A twin from a scalar weight rule (called every round, also when A_t is empty).

    >>> twin = WeightTwin(lambda alg, view, st: {k: 1.0 / len(view.active) for k in view.active})
    >>> w = torch.zeros(1, dtype=torch.float64)
    >>> view = RoundView(0, 0, 1, [0, 1], [0.5, 0.5], [1.0, 1.0])
    >>> twin.step(None, {}, view, w, lambda k, x: x + k)
    (tensor([0.5000], dtype=torch.float64), {0: 0.5, 1: 0.5})
    """

    rule: Rule
    init: Init | None = None

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        return {} if self.init is None else self.init(alg, alpha, pi0)

    def step(
        self, alg: Any, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        q = self.rule(alg, view, st)
        if not q:
            return None, {}
        delta = torch.zeros_like(w)
        for k, qk in q.items():
            delta = delta + qk * (local(k, w) - w)
        return delta, q
