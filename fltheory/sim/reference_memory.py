"""Reference loops for the algorithms with per-client memory (FedPBC, FedAR, MIFA, FedVARP).

Written from the papers with Python lists of per-client tensors and scalar counters, one
repetition, round and client at a time (not calling :mod:`fltheory.sim.algorithms`); local steps
and the server step are those of :mod:`fltheory.sim.reference`. The tests require the vectorised
engine to agree with these loops in float64.
"""

import math
import time

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim.batches import BatchPlan
from fltheory.sim.knowledge import Knowledge
from fltheory.sim.reference import _evaluate, _local_model, client_accuracies, server_update
from fltheory.sim.results import RunResult
from fltheory.sim.settings import AlgorithmSpec, SimSettings


def _fedpbc(alg, st, active, w, local, n, t):
    """Algorithm 2 lines 4–14 (Remark 1: only the active clients compute)."""
    for k in range(n):
        if alg.compute == "all" or k in active:
            st["x"][k] = local(k, st["x"][k])
    if not active:
        return None, {}
    mean = sum(st["x"][k] for k in active) / len(active)
    return mean - w, {k: 1.0 / len(active) for k in active}


def _fedar(alg, st, active, w, local, n, t):
    """Eqs. (4)–(7) of the FedAR paper, client by client."""
    for k in range(n):
        if k in active:
            st["G"][k] = local(k, w) - w
            st["seen"][k] = True
            st["tau"][k] = 0
        else:
            st["tau"][k] += 1
    g = math.inf
    if alg.cutoff_scale is not None:
        g = alg.cutoff_scale * math.sqrt(max(t + 1, alg.cutoff_t0))
    psi = {}
    for k in range(n):
        if st["seen"][k] and st["tau"][k] <= g:
            psi[k] = min((st["tau"][k] + 1.0) ** alg.p, 2.0)
    if not psi:
        return None, {}
    n_t = len(psi)
    return sum(psi[k] * st["G"][k] for k in psi) / n_t, {k: psi[k] / n_t for k in psi}


def _mifa(alg, st, active, w, local, n, t):
    for k in active:
        st["G"][k] = local(k, w) - w
        st["seen"][k] = True
    if not any(st["seen"]) or (alg.wait_all and not all(st["seen"])):
        return None, {}
    return sum(st["G"]) / n, {k: 1.0 / n for k in range(n) if st["seen"][k]}


def _fedvarp(alg, st, active, w, local, n, t):
    if not active:
        return None, {}
    fresh = {k: local(k, w) - w for k in active}
    delta = sum(fresh[k] - st["G"][k] for k in active) / len(active) + sum(st["G"]) / n
    coef = {k: 1.0 / n for k in range(n) if st["seen"][k] and k not in active}
    for k in active:
        st["G"][k] = fresh[k]
        st["seen"][k] = True
        coef[k] = 1.0 / len(active)
    return delta, coef


RULES = {"fedpbc": _fedpbc, "fedar": _fedar, "mifa": _mifa, "fedvarp": _fedvarp}


def run_reference_memory(
    problem,
    trace: np.ndarray,
    spec: AlgorithmSpec,
    settings: SimSettings,
    knowledge: Knowledge,
    plan: BatchPlan | None,
    w0: np.ndarray,
) -> RunResult:
    """The loop twin of :func:`fltheory.sim.engine.run_vectorised` for memory algorithms."""
    start = time.perf_counter()
    alg = spec.algorithm
    if alg.name not in RULES:
        raise InputError(f"the reference loop has no rule for algorithm '{alg.name}'")
    reps, rounds, n = trace.shape
    alpha = [float(a) for a in problem.alpha]
    evals = settings.eval_rounds()
    names = ("obj", "acc", "dist", "obj_mean", "acc_mean", "dist_mean")
    out = {name: np.full((reps, evals.size), np.nan) for name in names}
    weights = np.zeros((reps, rounds, n), dtype=np.float32)
    final, client_acc = [], []
    to = {"device": problem.device, "dtype": problem.dtype}
    for r in range(reps):
        w = torch.as_tensor(w0, **to).clone()
        v = torch.zeros_like(w)
        st = {
            "x": [w.clone() for _ in range(n)],
            "G": [torch.zeros_like(w) for _ in range(n)],
            "seen": [False] * n,
            "tau": [0] * n,
        }
        col = 0
        for t in range(rounds):
            active = [k for k in range(n) if trace[r, t, k]]
            batches = None if plan is None else plan.rep_round(r, t)
            lr = spec.schedule.at(t)

            def local(k, x, batches=batches, lr=lr):
                return _local_model(problem, k, x, batches, lr, settings.local_steps)

            delta, coef = RULES[alg.name](alg, st, active, w, local, n, t)
            for k, c in coef.items():
                weights[r, t, k] = c
            if delta is not None:
                w, v = server_update(w, v, delta, spec.server)
            if alg.name == "fedpbc":
                for k in active:
                    st["x"][k] = w.clone()
            if col < evals.size and evals[col] == t:
                results = [_evaluate(problem, w, alpha)]
                if alg.name == "fedpbc":
                    results.append(_evaluate(problem, sum(st["x"]) / n, alpha))
                for j, values in enumerate(results):
                    for name, value in zip(names[3 * j : 3 * j + 3], values, strict=True):
                        out[name][r, col] = math.nan if value is None else value
                col += 1
        final.append(w.double().cpu().numpy())
        client_acc.append(client_accuracies(problem, w))
    has = {k: not np.isnan(a).all() for k, a in out.items()}
    extra = {}
    for name, key in (
        ("obj_mean", "objective"),
        ("acc_mean", "accuracy"),
        ("dist_mean", "distance"),
    ):
        if has[name]:
            extra[f"{key}_client_mean"] = out[name]
    return RunResult(
        label=spec.label,
        eval_rounds=evals,
        objective=out["obj"],
        accuracy=out["acc"] if has["acc"] else None,
        distance=out["dist"] if has["dist"] else None,
        weights=weights,
        included=weights > 0,
        n_active=trace.sum(axis=2),
        final_w=np.stack(final),
        seconds=time.perf_counter() - start,
        info={"name": alg.name, "implementation": "reference loop"},
        extra=extra,
        client_accuracy=None if client_acc[0] is None else np.array(client_acc),
    )
