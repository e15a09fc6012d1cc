"""Checkpoints of a running comparison, so a killed ``fltheory simulate --out`` can continue.

A comparison runs its algorithms one after the other. In ``DIR/checkpoint/``:

* ``run-<i>.npz`` — the records of algorithm i once it has finished (written once);
* ``current.npz`` — the :class:`~fltheory.sim.engine.EngineState` of the algorithm running now
  after some round t: models, server momentum, the weight rule's state, per-client memory,
  local momentum buffers, records so far, compute seconds.

The simulator's randomness is all drawn from generators keyed by (seed, purpose, repetition,
block of rounds) (:mod:`fltheory.rng`): the availability trace, the minibatch plan and FedAvg(S)'s
sampling keys are pure functions of (seed, r, t), rebuilt identically on resume, so these files
hold no generator state. Tensors are saved with their exact bits and dtype: a resumed run is bit
for bit the uninterrupted one. Every file carries the config hash and code version it belongs to;
a checkpoint of another configuration is refused. Files are written with
:func:`~fltheory.atomic.write_atomic` (a kill leaves the previous checkpoint intact).

How often (:class:`Checkpointer`): every K rounds, or by default ("auto") whenever the compute
since the last checkpoint is at least ``RATIO`` times what writing one took (and at least
``MIN_INTERVAL`` seconds), so checkpointing costs at most 1/RATIO = 5 % of the run.
"""

import json
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from fltheory.atomic import npz_bytes, write_atomic
from fltheory.errors import InputError
from fltheory.sim.algorithms.memory import MemoryAlgorithm
from fltheory.sim.compare import Setup
from fltheory.sim.engine import EngineState, run_info
from fltheory.sim.outfiles import CHECKPOINT_FOLDER
from fltheory.sim.results import RunResult
from fltheory.sim.settings import AlgorithmSpec

#: auto policy: compute time between checkpoints ≥ RATIO × the last checkpoint's cost ...
RATIO = 20.0
#: ... and ≥ this many seconds.
MIN_INTERVAL = 1.0
#: Bump when the layout of the files changes (older checkpoints are then refused).
FORMAT = 1


def _text(value: Any) -> np.ndarray:
    return np.array(json.dumps(value, sort_keys=True))


def _load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def _host(value: torch.Tensor) -> np.ndarray:
    return value.detach().cpu().numpy()


def state_arrays(st: EngineState) -> dict[str, np.ndarray]:
    """An engine state as named arrays (see :func:`restore_state`).

    >>> from fltheory.sim.engine import EngineState
    >>> w = torch.zeros(2, 3)
    >>> st = EngineState(1, w, w, {}, None, np.zeros((2, 4, 5)), np.zeros((2, 4, 5), bool),
    ...                  {"objective": [torch.ones(2)]}, {}, {"server": [w]})
    >>> sorted(state_arrays(st))[:4], state_arrays(st)["weights"].shape  # rounds done only
    (['included', 'models/server', 'recorded/objective', 'seconds'], (2, 1, 5))
    """
    out = {
        "t": np.array(st.t),
        "seconds": np.array(st.seconds),
        "w": _host(st.w),
        "v": _host(st.v),
        "weights": st.weights[:, : st.t],
        "included": st.included[:, : st.t],
    }
    if st.local_buf is not None:
        out["local_buf"] = _host(st.local_buf)
    for group, table in (("state", st.state), ("memory", st.memory or {})):
        for name, value in table.items():
            if isinstance(value, torch.Tensor):
                out[f"{group}/tensor/{name}"] = _host(value)
            else:
                out[f"{group}/array/{name}"] = np.asarray(value)
    for group, lists in (("recorded", st.recorded), ("extra", st.extra), ("models", st.models)):
        for name, values in lists.items():
            stacked = torch.stack(values, dim=1) if values else torch.zeros(st.w.shape[0], 0)
            out[f"{group}/{name}"] = _host(stacked)
    return out


def restore_state(
    arrays: dict[str, np.ndarray], spec: AlgorithmSpec, shape: tuple[int, int, int], device: str
) -> EngineState:
    """The engine state saved by :func:`state_arrays` for an (R, T, N) trace, on ``device``.

    >>> from fltheory.sim.algorithms import FedAvg
    >>> from fltheory.sim.settings import Schedule
    >>> from fltheory.sim.engine import EngineState
    >>> w = torch.arange(6.0).reshape(2, 3)
    >>> st = EngineState(1, w, w, {}, None, np.ones((2, 4, 5)), np.ones((2, 4, 5), bool),
    ...                  {"objective": [torch.ones(2)]}, {}, {"server": [w]})
    >>> spec = AlgorithmSpec("fedavg", FedAvg(), Schedule(0.1))
    >>> back = restore_state(state_arrays(st), spec, (2, 4, 5), "cpu")
    >>> back.t, back.w.tolist() == w.tolist(), bool(back.weights[:, 1:].any())  # later: zero
    (1, True, False)
    """
    t = int(arrays["t"])
    weights = np.zeros(shape, dtype=np.float32)
    included = np.zeros(shape, dtype=bool)
    weights[:, :t], included[:, :t] = arrays["weights"], arrays["included"]

    def tensor(value: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(value)).to(device)

    tables: dict[str, dict[str, Any]] = {"state": {}, "memory": {}}
    lists: dict[str, dict[str, list[torch.Tensor]]] = {"recorded": {}, "extra": {}, "models": {}}
    for key, value in arrays.items():
        group, _, rest = key.partition("/")
        if group in tables:
            kind, _, name = rest.partition("/")
            tables[group][name] = tensor(value) if kind == "tensor" else value.copy()
        elif group in lists:
            lists[group][rest] = list(tensor(value).unbind(1)) if value.shape[1] else []
    return EngineState(
        t=t,
        w=tensor(arrays["w"]),
        v=tensor(arrays["v"]),
        state=tables["state"],
        memory=tables["memory"] if isinstance(spec.algorithm, MemoryAlgorithm) else None,
        weights=weights,
        included=included,
        recorded=lists["recorded"],
        extra=lists["extra"],
        models=lists["models"],
        seconds=float(arrays["seconds"]),
        local_buf=tensor(arrays["local_buf"]) if "local_buf" in arrays else None,
    )


#: RunResult fields saved for a finished algorithm (the others are rebuilt from the setup).
_RUN_FIELDS = ("objective", "accuracy", "distance", "weights", "included", "final_w")


def run_arrays(run: RunResult) -> dict[str, np.ndarray]:
    """The records of a finished run that cannot be rebuilt from the configuration."""
    out = {name: getattr(run, name) for name in _RUN_FIELDS if getattr(run, name) is not None}
    out["seconds"] = np.array(run.seconds)
    if run.client_accuracy is not None:
        out["client_accuracy"] = run.client_accuracy
    out.update({f"extra/{k}": v for k, v in run.extra.items()})
    out.update({f"models/{k}": v for k, v in run.models.items()})
    return out


def restore_run(arrays: dict[str, np.ndarray], spec: AlgorithmSpec, setup: Setup) -> RunResult:
    """The finished run saved by :func:`run_arrays`; what the configuration determines (label,
    evaluated rounds, participation counts, the server's knowledge, info) comes from ``setup``."""
    know = setup.knowledge(spec)

    def group(name: str) -> dict[str, np.ndarray]:
        return {k.partition("/")[2]: v for k, v in arrays.items() if k.startswith(f"{name}/")}

    return RunResult(
        label=spec.label,
        eval_rounds=setup.settings.eval_rounds(),
        objective=arrays.get("objective"),
        accuracy=arrays.get("accuracy"),
        distance=arrays.get("distance"),
        weights=arrays["weights"],
        included=arrays["included"],
        n_active=setup.trace.sum(axis=2),
        final_w=arrays["final_w"],
        pi_hat=know.pi_ if know.estimated else None,
        lambda2_hat=know.lambda2_ if know.estimated else None,
        seconds=float(arrays["seconds"]),
        info=run_info(spec),
        extra=group("extra"),
        client_accuracy=arrays.get("client_accuracy"),
        models=group("models"),
    )


@dataclass(eq=False)
class Checkpointer:
    """Saves and loads the checkpoints of one comparison in ``directory/checkpoint``.

    ``every``: checkpoint after every K-th round (0: never; None: the auto policy of the
    module docstring); ``key``: what the files must match to be resumed (config hash, code
    version).

    >>> import tempfile
    >>> ck = Checkpointer(Path(tempfile.mkdtemp()), every=2, key={"config_hash": "abc"})
    >>> ck.due(2), ck.due(3)
    (True, False)
    """

    directory: Path
    every: int | None = None
    key: dict[str, Any] = field(default_factory=dict)
    rounds: int = 0
    index: int = 0
    saves: int = 0
    save_seconds: float = 0.0
    _last_cost: float = field(default=0.0, repr=False)
    _since: float = field(default=0.0, repr=False)
    _pending: dict[str, dict[str, np.ndarray]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.every is not None and self.every < 0:
            raise InputError(f"--checkpoint-every must be >= 0 rounds, got {self.every}")
        self.folder = self.directory / CHECKPOINT_FOLDER
        self._since = time.perf_counter()

    def _meta(self, **extra: Any) -> np.ndarray:
        return _text({"format": FORMAT, **self.key, **extra})

    def due(self, t: int) -> bool:
        """Whether to save after ``t`` rounds done (never after the last round)."""
        if self.every == 0 or (self.rounds and t >= self.rounds):
            return False
        if self.every is not None:
            return t % self.every == 0
        return self._time_due()

    def _time_due(self) -> bool:
        elapsed = time.perf_counter() - self._since
        return elapsed >= max(MIN_INTERVAL, RATIO * self._last_cost)

    def _save(self, files: dict[str, dict[str, np.ndarray]]) -> None:
        """Write the finished runs not saved yet, then ``files``, and time the whole save."""
        start = time.perf_counter()
        self.folder.mkdir(exist_ok=True)
        for name, arrays in {**self._pending, **files}.items():
            write_atomic(self.folder / name, npz_bytes(arrays))
        self._pending.clear()
        self._since = time.perf_counter()
        self._last_cost = self._since - start
        self.saves += 1
        self.save_seconds += self._last_cost

    def __call__(self, st: EngineState) -> None:
        """The engine's hook: save the state of the running algorithm when due."""
        if self.due(st.t):
            meta = {"meta": self._meta(algorithm=self.index)}
            self._save({"current.npz": meta | state_arrays(st)})

    def finished(self, index: int, run: RunResult) -> None:
        """Save algorithm ``index``'s records once it has finished: now with a fixed period,
        else with the next save that is due (the auto policy's budget holds for these too)."""
        if self.every != 0:
            meta = {"meta": self._meta(algorithm=index)}
            self._pending[f"run-{index}.npz"] = meta | run_arrays(run)
            if self.every is not None or self._time_due():
                self._save({})

    def remove(self) -> None:
        """Delete the checkpoints (the result is complete), temporary files of a kill included
        (those a kill left beside the result files are tidied by :mod:`fltheory.resultdir`)."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def _checked(self, path: Path, index: int) -> dict[str, np.ndarray] | None:
        """The arrays of a checkpoint file of algorithm ``index`` (None: absent or stale)."""
        try:
            arrays = _load(path)
            meta = json.loads(str(arrays.pop("meta")))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return None  # absent (a kill before the rename leaves no such file)
        mismatch = [k for k, v in {"format": FORMAT, **self.key}.items() if meta.get(k) != v]
        if mismatch:
            raise InputError(
                f"--resume: the checkpoint in {self.folder} belongs to another run "
                f"(its {', '.join(mismatch)} differ); give --overwrite to start again"
            )
        return arrays if meta.get("algorithm") == index else None

    def load(self) -> tuple[list[dict[str, np.ndarray]], dict[str, np.ndarray] | None]:
        """(records of the finished algorithms 0, 1, ..., state of the next one or None)."""
        done: list[dict[str, np.ndarray]] = []
        while (
            arrays := self._checked(self.folder / f"run-{len(done)}.npz", len(done))
        ) is not None:
            done.append(arrays)
        return done, self._checked(self.folder / "current.npz", len(done))
