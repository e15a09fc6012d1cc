"""The contract between the engine and an aggregation strategy.

An algorithm is a small object whose per-round rule is a PURE function: it reads the round's
inputs (:class:`RoundInput`, numpy arrays batched over R repetitions) and its state, and returns
the aggregation weights q_t (R, N) — zero for every client that does not take part — with its
new state. The engine (:mod:`fltheory.sim.engine`) then runs local SGD for the clients with
q_k > 0 and applies eq. (3): w ← Proj_W(w + η̄ Σ_k q_k Δ_k).

Weights are computed in float64 on the CPU whatever the engine's device and precision.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    from fltheory.sim.loss_signal import LossSignal

State = dict[str, np.ndarray]


@dataclass(frozen=True, eq=False)
class RoundInput:
    """What a weight rule sees at round t (0-based).

    mask: (R, N) active clients A_t; alpha: (N,) target weights of eq. (1); pi, lambda2: (R, N)
    availability and λ₂ known to the server (oracle or estimates; lambda2 may be None);
    losses: (R, N) loss F_k^(t) at w_{t,0} on batch B_{t,0}^k for active clients (NaN for the
    others), present only for algorithms with ``needs_losses``.

    >>> inp = RoundInput(t=0, mask=np.array([[True, False, True]]), alpha=np.full(3, 1 / 3),
    ...                  pi=np.full((1, 3), 0.5))
    >>> int(inp.mask.sum()), inp.lambda2 is None
    (2, True)
    """

    t: int
    mask: np.ndarray
    alpha: np.ndarray
    pi: np.ndarray
    lambda2: np.ndarray | None = None
    losses: np.ndarray | None = None


class Algorithm:
    """Base class: subclasses set ``name`` and implement :meth:`weights`.

    >>> class Everyone(Algorithm):
    ...     name = "everyone"
    ...     def weights(self, inp, state):
    ...         return inp.mask / inp.mask.sum(axis=1, keepdims=True), state
    >>> mask = np.array([[True, False, True]])
    >>> inp = RoundInput(0, mask, alpha=np.full(3, 1 / 3), pi=np.full((1, 3), 0.5))
    >>> Everyone().weights(inp, {})[0].tolist()
    [[0.5, 0.0, 0.5]]
    """

    name: ClassVar[str] = "algorithm"
    needs_losses: ClassVar[bool] = False
    needs_lambda2: ClassVar[bool] = False
    #: Whether the rule divides by the availability π (then every π must be > 0).
    needs_pi: ClassVar[bool] = True
    #: Whether it corrects the clients' local gradients (SCAFFOLD's control variates): their
    #: local work then runs through :mod:`fltheory.sim.local_opt`.
    corrects_gradients: ClassVar[bool] = False
    #: With ``needs_losses``: the losses it is fed (None: the engine's first-minibatch loss,
    #: else a full-set :class:`~fltheory.sim.loss_signal.LossSignal`, CA-Fed's option).
    signal: "LossSignal | None" = None

    def init_state(self, reps: int, alpha: np.ndarray, pi0: np.ndarray) -> State:
        """State before round 0 (``pi0``: the (R, N) availability known at round 0).

        >>> from fltheory.sim.algorithms import F3AST
        >>> alg = F3AST(k=1, beta=0.5, r0="pi")  # F3AST's rates start at π
        >>> alg.init_state(1, np.full(2, 0.5), np.array([[0.9, 0.2]]))["r"].tolist()
        [[0.9, 0.2]]
        """
        return {}

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        """(q_t (R, N) with q = 0 outside the participants, new state).

        >>> from fltheory.sim.algorithms import FedAvg
        >>> inp = RoundInput(0, np.array([[True, True, False]]), np.full(3, 1 / 3),
        ...                  np.full((1, 3), 0.5))
        >>> FedAvg().weights(inp, {})[0].tolist()  # 1/|A_t| (FedPBC Algorithm 1)
        [[0.5, 0.5, 0.0]]
        """
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """Hyper-parameters for the results file.

        >>> from fltheory.sim.algorithms import FedAvg
        >>> FedAvg(rule="fixed").describe()
        {'name': 'fedavg', 'rule': 'fixed'}
        """
        return {"name": self.name}
