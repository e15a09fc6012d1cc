"""The plain reference simulator: Python loops over repetitions, rounds and clients.

Every algorithm runs through its reference twin (:mod:`fltheory.sim.twins`), found in its
registry entry (:data:`fltheory.sim.registries.ALGORITHMS`): a re-implementation written from the
paper with scalar loops, not a call into :mod:`fltheory.sim.algorithms`' vectorised rules. The
loop takes gradients of the per-client loss *definitions* with autograd (not the batched closed
forms) and does E explicit local steps. It consumes the same trace, minibatch indices and
availability knowledge as the vectorised engine, so in float64 both must agree to rounding (the
tests check 1e-10).
"""

import math
import time

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim.batches import BatchPlan
from fltheory.sim.contract import SimProblem
from fltheory.sim.knowledge import Knowledge
from fltheory.sim.local.base import ReferenceRound
from fltheory.sim.local.select import local_method
from fltheory.sim.local_opt import EpochPlan
from fltheory.sim.registries import ALGORITHMS
from fltheory.sim.results import RunResult
from fltheory.sim.settings import AlgorithmSpec, ServerOptions, SimSettings
from fltheory.sim.twins import RoundView, Twin

METRICS = ("objective", "accuracy", "distance")


def server_update(
    w: torch.Tensor, v: torch.Tensor, delta: torch.Tensor, opts: ServerOptions
) -> tuple[torch.Tensor, torch.Tensor]:
    """Eq. (3) with the server options, written out for one repetition: (w, v).

    >>> w, v = server_update(torch.ones(2), torch.zeros(2), torch.ones(2), ServerOptions(lr=0.5))
    >>> w.tolist()
    [1.5, 1.5]
    """
    step = delta - opts.weight_decay * w
    v = opts.momentum * v + step
    w = w + opts.lr * v
    if opts.diameter is not None:
        norm = float(torch.linalg.vector_norm(w))
        if norm > 0.5 * opts.diameter:
            w = w * (0.5 * opts.diameter / norm)
    return w, v


def client_accuracies(problem: SimProblem, w: torch.Tensor) -> list[float] | None:
    """Each client's test accuracy of one model (NaN without test data; None: no data)."""
    with torch.no_grad():
        accs = [problem.client_accuracy(k, w) for k in range(problem.n_clients)]
    if all(a is None for a in accs):
        return None
    return [math.nan if a is None else float(a) for a in accs]


def _evaluate(
    problem: SimProblem, w: torch.Tensor, alpha: list[float], objective: bool
) -> tuple[float | None, float | None, float | None]:
    """(F(w) = Σ α_k F_k(w), α-weighted test accuracy, distance to w*), None where undefined
    (F(w): also where ``objective`` is False, ``[run] record_objective``)."""
    with torch.no_grad():
        obj = None
        if objective:
            obj = sum(alpha[k] * float(problem.client_objective(k, w)) for k in range(len(alpha)))
        scored = [(alpha[k], problem.client_accuracy(k, w)) for k in range(len(alpha))]
        accs = [(a, float(v)) for a, v in scored if v is not None]
        acc = sum(a * v for a, v in accs) / sum(a for a, _ in accs) if accs else None
        dist = problem.distance(w[None])
    return obj, acc, None if dist is None else float(dist[0])


def run_reference(
    problem: SimProblem,
    trace: np.ndarray,
    spec: AlgorithmSpec,
    settings: SimSettings,
    knowledge: Knowledge,
    plan: BatchPlan | EpochPlan | None,
    w0: np.ndarray,
) -> RunResult:
    """The same run as :func:`fltheory.sim.engine.run_vectorised`, one client at a time."""
    start = time.perf_counter()
    alg = spec.algorithm
    twin: Twin | None = ALGORITHMS.get(alg.name).extras.get("reference")
    if twin is None:
        raise InputError(f"algorithm '{alg.name}' has no reference twin")
    reps, rounds, n = trace.shape
    alpha = [float(a) for a in problem.alpha]
    evals = settings.eval_rounds()
    metrics: dict[str, np.ndarray] = {}
    weights = np.zeros((reps, rounds, n), dtype=np.float32)
    final, client_acc = [], []
    method = local_method(settings, alg.corrects_gradients)
    for r in range(reps):
        w = torch.as_tensor(w0, device=problem.device, dtype=problem.dtype).clone()
        v = torch.zeros_like(w)
        buffers = [torch.zeros_like(w) for _ in range(n)]  # the method's, never reset
        st = twin.start(alg, alpha, [float(p) for p in knowledge.pi(0, reps)[r]], w)
        col = 0
        for t in range(rounds):
            active = [k for k in range(n) if trace[r, t, k]]
            batches = None if plan is None else plan.rep_round(r, t)
            lr = spec.schedule.at(t)
            job = ReferenceRound(problem, batches, lr, settings.local_steps, buffers)
            local = method.reference_round(job)
            losses = {}
            if alg.needs_losses:
                with torch.no_grad():
                    for k in active:
                        idx = None if batches is None else batches[0, k]
                        losses[k] = float(problem.client_loss(k, w, idx))
            lam = knowledge.lambda2(t, reps)
            view = RoundView(
                t=t,
                r=r,
                reps=reps,
                active=active,
                alpha=alpha,
                pi=[float(p) for p in knowledge.pi(t, reps)[r]],
                lambda2=None if lam is None else [float(x) for x in lam[r]],
                losses=losses,
            )
            delta, coef = twin.step(alg, st, view, w, local)
            for k, c in coef.items():
                weights[r, t, k] = c
            if delta is not None:
                w, v = server_update(w, v, delta, spec.server)
            twin.after_server(alg, st, view, w)
            if col < evals.size and evals[col] == t:
                models = {"": w} | {f"_{tag}": x for tag, x in twin.extra_models(alg, st).items()}
                for suffix, model in models.items():
                    values = _evaluate(problem, model, alpha, settings.record_objective)
                    for name, value in zip(METRICS, values, strict=True):
                        if value is not None:
                            table = metrics.setdefault(
                                name + suffix, np.full((reps, evals.size), np.nan)
                            )
                            table[r, col] = value
                col += 1
        final.append(w.double().cpu().numpy())
        client_acc.append(client_accuracies(problem, w))
    return RunResult(
        label=spec.label,
        eval_rounds=evals,
        objective=metrics.pop("objective", None),
        accuracy=metrics.pop("accuracy", None),
        distance=metrics.pop("distance", None),
        weights=weights,
        included=weights > 0,
        n_active=trace.sum(axis=2),
        final_w=np.stack(final),
        client_accuracy=None if client_acc[0] is None else np.array(client_acc),
        seconds=time.perf_counter() - start,
        info={"name": alg.name, "implementation": "reference loop"},
        extra=metrics,
    )
