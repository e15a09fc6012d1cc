"""The vectorised simulator: R repetitions × N clients as one tensor program per round.

Round t (CA-Fed ToN eqs. 2–3, Algorithm 1):
1. A_t is row t of the pre-drawn trace (the same trace for every algorithm);
2. algorithms that need them get the losses F_k^(t) of the active clients at w_{t,0} on their
   first minibatch B_{t,0}^k (one batched forward pass);
3. the algorithm's pure weight rule returns q_t (R, N), zero outside the participants;
4. the (repetition, client) pairs with q_k > 0 are gathered into one batch of M rows and run
   E local SGD steps (eq. 2) together: batched parameters, batched minibatch gathers (data
   problems: ``local_sgd_round``, through compiled CPU kernels where they apply,
   :mod:`fltheory.sim.cpu_kernels`);
5. Δ = Σ_k q_k Δ_k per repetition (a scatter-add), then w ← Proj_W(w + η̄Δ) (eq. 3; optional
   server momentum / weight decay). A repetition with no participant keeps its model.

Algorithms with per-client memory (:class:`~fltheory.sim.algorithms.memory.MemoryAlgorithm`:
FedPBC, FedAR, MIFA, FedVARP) replace steps 3–5's Δ by their own ``step`` (given a function that
runs local SGD for any pairs from any starting points) and may update their memory after the
server step; the server step itself and the evaluation are shared. FedPBC's client-model mean is
evaluated as extra metrics (``RunResult.extra``); the final per-client test accuracies of the
global model are recorded for data problems (``RunResult.client_accuracy``).

Step 4 is the run's local method (:mod:`fltheory.sim.local`, chosen by
:func:`fltheory.sim.local.select.local_method`: plain SGD through ``problem.local_sgd``, or
torch SGD with the authors' local epochs, momentum, weight decay and SCAFFOLD's gradient
corrections, or a plug-in's); a method's (R, N, P) per-client buffers (local momentum) live in
:attr:`EngineState.local_buf`, kept across rounds (and checkpoints).

Per-client state lives in (R, N, ...) arrays owned by the algorithm; :mod:`fltheory.sim.reference`
is the plain per-client loop the tests compare this engine against.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from fltheory.sim.algorithms.base import RoundInput, State
from fltheory.sim.algorithms.memory import LocalFn, Memory, MemoryAlgorithm
from fltheory.sim.batches import BatchPlan
from fltheory.sim.contract import ChunkedUpdates, ClientScores, SimProblem
from fltheory.sim.knowledge import Knowledge
from fltheory.sim.local.base import EngineBatches, EngineRound
from fltheory.sim.local.select import local_method
from fltheory.sim.local_opt import EpochPlan
from fltheory.sim.loss_signal import signal_losses
from fltheory.sim.results import RunResult
from fltheory.sim.settings import AlgorithmSpec, ServerOptions, SimSettings

Progress = Callable[[int], None]
#: observe(t, w): called after round t with the (R, P) models w_{t+1} (custom metrics).
Observer = Callable[[int, torch.Tensor], None]


def server_step(
    w: torch.Tensor, v: torch.Tensor, delta: torch.Tensor, opts: ServerOptions
) -> tuple[torch.Tensor, torch.Tensor]:
    """(w_next, v_next): v = μv + (Δ − λ_wd·w), w_next = Proj_W(w + η̄v), rows = repetitions."""
    direction = delta - opts.weight_decay * w if opts.weight_decay else delta
    v = opts.momentum * v + direction if opts.momentum else direction
    w = w + opts.lr * v
    if opts.diameter is not None:
        radius = 0.5 * opts.diameter
        norm = torch.linalg.vector_norm(w, dim=-1, keepdim=True)
        w = w * torch.clamp(radius / torch.clamp(norm, min=1e-300), max=1.0)
    return w, v


def _row_chunk(problem: SimProblem) -> int:
    """(repetition, client) rows per chunk of :func:`weighted_updates`: the problem's
    ``update_rows()`` where it chunks them (a size fixed by the config, never by the free
    memory), else all rows at once."""
    return problem.update_rows() if isinstance(problem, ChunkedUpdates) else 2**62


def weighted_updates(
    w: torch.Tensor, q: np.ndarray, local: LocalFn, chunk: int = 2**62
) -> tuple[torch.Tensor, np.ndarray]:
    """(Δ = Σ_k q_k Δ_k per repetition, rows with a participant) for a weight rule q (R, N);
    the rows run in chunks of ``chunk`` (in order: the same sums)."""
    rr, kk = np.nonzero(q > 0)
    delta = torch.zeros_like(w)
    for s in range(0, rr.size, chunk):
        r_c, k_c = rr[s : s + chunk], kk[s : s + chunk]
        rr_t = torch.as_tensor(r_c, device=w.device)
        theta0 = w[rr_t]
        theta = local(r_c, k_c, theta0)
        qk = torch.as_tensor(q[r_c, k_c], device=w.device, dtype=w.dtype)
        delta.index_add_(0, rr_t, (theta - theta0) * qk[:, None])
    return delta, np.bincount(rr, minlength=w.shape[0]) > 0


def _record(
    problem: SimProblem,
    w: torch.Tensor,
    out: dict[str, list[torch.Tensor]],
    suffix: str,
    objective: bool = True,
) -> None:
    """Append the objective (unless ``objective`` is False), accuracy and distance of the
    (R, P) models w (those defined)."""
    if objective:
        out.setdefault("objective" + suffix, []).append(problem.objective(w))
    for name, value in (("accuracy", problem.accuracy(w)), ("distance", problem.distance(w))):
        if value is not None:
            out.setdefault(name + suffix, []).append(value)


def _client_accuracy(problem: SimProblem, w: torch.Tensor) -> np.ndarray | None:
    """(R, N) test accuracy of the final global models on each client's test set."""
    value = problem.client_accuracies(w) if isinstance(problem, ClientScores) else None
    return None if value is None else value.double().cpu().numpy()


@dataclass(eq=False)
class EngineState:
    """Everything the round loop carries from one round to the next, so a run can stop after
    any round and continue bit for bit (:mod:`fltheory.sim.checkpoint` saves it).

    ``t``: rounds done; ``w``, ``v``: (R, P) models and server momentum; ``state``/``memory``:
    the algorithm's weight-rule state and per-client memory; ``weights``/``included``: (R, T, N)
    records (rounds < t filled); ``recorded``/``extra``/``models``: per evaluation, the metrics of
    the server model, those of the algorithm's extra models, and the (R, P) models themselves
    (``server``, and e.g. FedPBC's ``client_mean``); ``seconds``: compute time so far.
    """

    t: int
    w: torch.Tensor
    v: torch.Tensor
    state: State
    memory: Memory | None
    weights: np.ndarray
    included: np.ndarray
    recorded: dict[str, list[torch.Tensor]]
    extra: dict[str, list[torch.Tensor]]
    models: dict[str, list[torch.Tensor]]
    seconds: float = 0.0
    local_buf: torch.Tensor | None = None


#: checkpoint(state): called after every round with the live state (it decides whether to save).
Checkpoint = Callable[[EngineState], None]


def initial_state(
    problem: SimProblem,
    trace: np.ndarray,
    spec: AlgorithmSpec,
    knowledge: Knowledge,
    w0: np.ndarray,
) -> EngineState:
    """The state before round 0: w = w0 in every repetition, no momentum, empty records."""
    reps, rounds, n = trace.shape
    alg = spec.algorithm
    w = torch.as_tensor(w0, device=problem.device, dtype=problem.dtype).expand(reps, -1).clone()
    memory = alg.init_memory(reps, n, w) if isinstance(alg, MemoryAlgorithm) else None
    return EngineState(
        t=0,
        w=w,
        v=torch.zeros_like(w),
        state=alg.init_state(reps, problem.alpha, knowledge.pi(0, reps)),
        memory=memory,
        weights=np.zeros((reps, rounds, n), dtype=np.float32),
        included=np.zeros((reps, rounds, n), dtype=bool),
        recorded={"objective": [], "accuracy": [], "distance": []},
        extra={},
        models={"server": []},
    )


def run_info(spec: AlgorithmSpec) -> dict[str, Any]:
    """The hyper-parameters a run records (``RunResult.info``)."""
    return {**spec.algorithm.describe(), "lr": spec.schedule.lr, "server_lr": spec.server.lr}


def run_vectorised(
    problem: SimProblem,
    trace: np.ndarray,
    spec: AlgorithmSpec,
    settings: SimSettings,
    knowledge: Knowledge,
    plan: BatchPlan | EpochPlan | None,
    w0: np.ndarray,
    progress: Progress | None = None,
    observe: Observer | None = None,
    start: EngineState | None = None,
    checkpoint: Checkpoint | None = None,
) -> RunResult:
    """Run one algorithm on an (R, T, N) trace; the ``problem``
    (:class:`~fltheory.sim.contract.SimProblem`) sets the run's device and dtype. ``start``
    continues a saved state (from its round ``t``); ``checkpoint`` sees the state after every
    round."""
    clock = time.perf_counter()
    reps, rounds, n = trace.shape
    device = problem.device
    alg, alpha = spec.algorithm, problem.alpha
    st = initial_state(problem, trace, spec, knowledge, w0) if start is None else start
    evals = settings.eval_rounds()
    is_eval = np.zeros(rounds, dtype=bool)
    is_eval[evals] = True
    stateful = alg if isinstance(alg, MemoryAlgorithm) else None
    method = local_method(settings, alg.corrects_gradients)
    if method.needs_buffer and st.local_buf is None:
        st.local_buf = st.w.new_zeros((reps, n, st.w.shape[1]))
    for t in range(st.t, rounds):
        w = st.w
        mask = trace[:, t]
        idx_t: EngineBatches = None if plan is None else plan.round(t)
        lr_t = spec.schedule.at(t)
        job = EngineRound(problem, idx_t, lr_t, settings.local_steps, st.local_buf)
        local = method.engine_round(job)
        losses = None
        if alg.needs_losses:
            losses = np.full((reps, n), np.nan)
            rr, kk = np.nonzero(mask)
            if alg.signal is not None:  # a full-set signal (CA-Fed's loss_signal), spec C.5
                losses = np.where(mask, signal_losses(problem, w, alg.signal), np.nan)
            elif rr.size:
                first = None if idx_t is None else torch.as_tensor(idx_t[rr, 0, kk], device=device)
                kk_t = torch.as_tensor(kk, device=device)
                theta = w[torch.as_tensor(rr, device=device)]
                losses[rr, kk] = problem.losses(theta, kk_t, first).double().cpu().numpy()
        lambda2 = knowledge.lambda2(t, reps) if alg.needs_lambda2 else None
        inp = RoundInput(t, mask, alpha, knowledge.pi(t, reps), lambda2, losses)
        if stateful is not None and st.memory is not None:
            delta, moved_rows, q, st.memory = stateful.step(inp, w, st.memory, local)
        else:
            q, st.state = alg.weights(inp, st.state)
            delta, moved_rows = weighted_updates(w, q, local, _row_chunk(problem))
        st.weights[:, t], st.included[:, t] = q, q > 0
        if moved_rows.any():
            w_next, v_next = server_step(w, st.v, delta, spec.server)
            moved = torch.as_tensor(moved_rows, device=device)[:, None]
            w = torch.where(moved, w_next, w)
            st.v = torch.where(moved, v_next, st.v)
        st.w = w
        if stateful is not None and st.memory is not None:
            st.memory = stateful.after_server(inp, w, st.memory)
        if is_eval[t]:
            _record(problem, w, st.recorded, "", settings.record_objective)
            st.models["server"].append(w.detach().clone())
            if stateful is not None and st.memory is not None:
                for tag, model in stateful.eval_models(st.memory).items():
                    _record(problem, model, st.extra, f"_{tag}", settings.record_objective)
                    st.models.setdefault(tag, []).append(model.detach().clone())
        st.t = t + 1
        if observe is not None:
            observe(t, w)
        if checkpoint is not None:
            now = time.perf_counter()
            st.seconds += now - clock
            checkpoint(st)
            clock = time.perf_counter()
        if progress is not None:
            progress(t)
    st.seconds += time.perf_counter() - clock
    return finish(problem, trace, spec, knowledge, evals, st)


def _stack(values: list[torch.Tensor]) -> np.ndarray:
    return torch.stack(values, dim=1).cpu().numpy()


def finish(
    problem: SimProblem,
    trace: np.ndarray,
    spec: AlgorithmSpec,
    knowledge: Knowledge,
    evals: np.ndarray,
    st: EngineState,
) -> RunResult:
    """The :class:`RunResult` of a state after the last round."""
    metrics = {k: _stack(v_).astype(np.float64) if v_ else None for k, v_ in st.recorded.items()}
    return RunResult(
        label=spec.label,
        eval_rounds=evals,
        objective=metrics["objective"],
        accuracy=metrics["accuracy"],
        distance=metrics["distance"],
        weights=st.weights,
        included=st.included,
        n_active=trace.sum(axis=2),
        final_w=st.w.double().cpu().numpy(),
        extra={k: _stack(v_).astype(np.float64) for k, v_ in st.extra.items()},
        client_accuracy=_client_accuracy(problem, st.w),
        pi_hat=knowledge.pi_ if knowledge.estimated else None,
        lambda2_hat=knowledge.lambda2_ if knowledge.estimated else None,
        seconds=st.seconds,
        info=run_info(spec),
        models={k: _stack(v_) for k, v_ in st.models.items()},
    )
