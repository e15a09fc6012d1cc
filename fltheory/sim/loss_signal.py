"""The loss signal a loss-driven algorithm (CA-Fed) receives each round (spec C.5, C.6).

``minibatch`` (the paper, Section IV-A; the engine's default) is an active client's loss on its
first minibatch of the round and is computed by the engine itself. The others are the mean
per-sample loss of the server model w_{t,0} on a fixed set of each client's samples:

* ``train`` — all its training samples (noise-free in the sampling of the batch);
* ``validation`` — a seeded 20 % of its training samples (⌈0.2·n_k⌉ rows drawn without
  replacement from ``generator(seed, "sim/loss-signal/validation")``; P2:307's validation split).
  The rows stay in the training set: the split is a held-out *measurement* set for CA-Fed only,
  not removed from local training (the training data of every algorithm stay identical);
* ``test`` — its whole local test set (the authors' code: ``val_loader`` is the test set;
  a client without test samples falls back to its training mean).

``ridge`` adds (ridge/2)‖w‖² (the objective the simulator trains); the authors' code evaluates
the loss without it (``ridge = False``).

>>> import numpy as np, torch
>>> from fltheory.sim.data import synthetic_leaf
>>> from fltheory.sim.models import SoftmaxRegression
>>> from fltheory.sim.problems import DataProblem
>>> data = synthetic_leaf(0.5, 0.5, 3, seed=1, n_features=4, n_classes=3, max_samples=60)
>>> problem = DataProblem(SoftmaxRegression(4, 3), data, data.train_counts, dtype=torch.float64)
>>> w = torch.zeros(2, problem.n_params, dtype=torch.float64)
>>> signal_losses(problem, w, LossSignal("train")).round(4).tolist()  # log 3 at w = 0
[[1.0986, 1.0986, 1.0986], [1.0986, 1.0986, 1.0986]]
"""

import weakref
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.contract import DataBacked, SimProblem

Which = Literal["minibatch", "train", "validation", "test"]
WHICH = ("minibatch", "train", "validation", "test")
#: Share of each client's training samples in its validation set (P2:307).
VALIDATION_FRACTION = 0.2
#: Samples per chunk of the per-sample loss evaluation.
CHUNK = 4096

_ROWS: "weakref.WeakKeyDictionary[Any, dict[tuple[str, int], Any]]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class LossSignal:
    """Which losses (``which``), with or without the ridge term, and the validation seed.

    >>> LossSignal("validation", ridge=False, seed=3).which
    'validation'
    """

    which: Which
    ridge: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        if self.which not in WHICH[1:]:
            raise InputError(f"loss signal must be one of {WHICH[1:]}, got {self.which!r}")


def validation_rows(counts: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows into the training array, owner client) of every client's validation samples.

    >>> rows, owner = validation_rows(np.array([10, 3]), 0)
    >>> owner.tolist(), bool(((rows >= 10) == (owner == 1)).all())
    ([0, 0, 1], True)
    """
    rng = generator(seed, "sim/loss-signal/validation")
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rows, owner = [], []
    for k, n in enumerate(counts.tolist()):
        m = max(1, int(np.ceil(VALIDATION_FRACTION * n)))
        rows.append(start[k] + np.sort(rng.choice(n, size=m, replace=False)))
        owner.append(np.full(m, k))
    return np.concatenate(rows), np.concatenate(owner)


def _sample_set(problem: DataBacked, which: str, seed: int) -> tuple[torch.Tensor, ...]:
    """(x, y, owner, counts) tensors of the samples ``which`` uses, cached per problem."""
    cache = _ROWS.setdefault(problem, {})
    key = (which, seed if which == "validation" else 0)
    if key not in cache:
        data, device = problem.data, problem.device
        n = data.n_clients
        if which == "test":
            x, y = data.x_test, data.y_test
            owner = np.repeat(np.arange(n), data.test_counts)
        elif which == "validation":
            rows, owner = validation_rows(data.train_counts, seed)
            x, y = data.x_train[rows], data.y_train[rows]
        else:
            x, y = data.x_train, data.y_train
            owner = np.repeat(np.arange(n), data.train_counts)
        counts = np.bincount(owner, minlength=n)
        cache[key] = (
            torch.as_tensor(x, device=device, dtype=problem.dtype),
            torch.as_tensor(y, device=device),
            torch.as_tensor(owner, device=device),
            torch.as_tensor(counts, device=device, dtype=problem.dtype),
        )
    found: tuple[torch.Tensor, ...] = cache[key]
    return found


def _client_means(problem: DataBacked, w: torch.Tensor, which: str, seed: int) -> torch.Tensor:
    x, y, owner, counts = _sample_set(problem, which, seed)
    total = torch.zeros(w.shape[0], problem.n_clients, device=w.device, dtype=w.dtype)
    for s in range(0, x.shape[0], CHUNK):
        per = problem.model.global_losses(w, x[s : s + CHUNK], y[s : s + CHUNK])
        total.index_add_(1, owner[s : s + CHUNK], per.to(w.dtype))
    return total / torch.clamp(counts, min=1)


def signal_losses(problem: SimProblem, w: torch.Tensor, signal: LossSignal) -> np.ndarray:
    """(R, N) loss of each server model w_r (rows of ``w``) on each client's sample set."""
    if not isinstance(problem, DataBacked) or problem.data is None:
        raise InputError(f"loss signal '{signal.which}' needs a data problem")
    with torch.no_grad():
        means = _client_means(problem, w, signal.which, signal.seed)
        if signal.which == "test":
            empty = torch.as_tensor(problem.data.test_counts == 0, device=w.device)
            if bool(empty.any()):
                train = _client_means(problem, w, "train", 0)
                means = torch.where(empty[None], train, means)
        if signal.ridge:
            means = means + problem.model.penalty(w)[:, None]
    return means.double().cpu().numpy()
