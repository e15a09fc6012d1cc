"""Local minima F_k* of data problems, for CA-Fed's F̂* (spec C.4).

* :func:`exact_local_minima` — F_k* = min_θ F_k(θ), F_k = mean local training loss +
  (ridge/2)‖θ‖² (the objective the simulator trains), by full-batch L-BFGS in float64 on each
  client. Strictly convex for the linear models with ridge > 0, so the minimum is unique; the
  solver stops when the gradient's sup-norm is below ``gtol`` (default 1e-7), which by strong
  convexity bounds the excess objective by ‖∇F_k‖²/(2·ridge).
* :func:`sklearn_local_minima` — the authors' value (arodio/CA-Fed ``get_local_optimums``):
  scikit-learn ``LogisticRegression(C=1, lbfgs, max_iter=1000)`` fitted on the client's training
  data, F_k* = its **unpenalised** training log-loss; 0 when the fit raises ``ValueError`` (a
  single-class client). Not the minimum of the function CA-Fed trains (spec A.3).

:func:`local_minima` picks one by name and caches it per problem.

>>> import numpy as np
>>> from fltheory.sim.data import synthetic_leaf
>>> from fltheory.sim.models import SoftmaxRegression
>>> from fltheory.sim.problems import DataProblem
>>> data = synthetic_leaf(0.5, 0.5, 3, seed=1, n_features=4, n_classes=3, max_samples=60)
>>> problem = DataProblem(SoftmaxRegression(4, 3, ridge=0.1), data, data.train_counts)
>>> exact, authors = local_minima(problem, "oracle"), local_minima(problem, "sklearn")
>>> exact.shape, bool((exact > 0).all()), bool((authors >= 0).all())
((3,), True, True)
"""

import weakref
from typing import Any, Literal

import numpy as np
import torch

from fltheory.errors import InputError

Kind = Literal["oracle", "sklearn"]
#: Gradient sup-norm at which L-BFGS stops (float64).
GTOL = 1e-7

_CACHE: "weakref.WeakKeyDictionary[Any, dict[str, np.ndarray]]" = weakref.WeakKeyDictionary()


def _client_rows(counts: np.ndarray, k: int) -> slice:
    start = int(counts[:k].sum())
    return slice(start, start + int(counts[k]))


def exact_local_minima(problem: Any, gtol: float = GTOL, max_iter: int = 5000) -> np.ndarray:
    """(N,) min_θ [mean_i ℓ(θ; ξ_i) + (ridge/2)‖θ‖²] per client, by L-BFGS (scipy) in float64,
    started at θ = 0 (the model's ``sample_losses`` and ``penalty`` define the objective)."""
    from scipy.optimize import minimize

    model, data = problem.model, problem.data
    x_all = torch.as_tensor(data.x_train, dtype=torch.float64)
    y_all = torch.as_tensor(data.y_train)
    out = np.empty(data.n_clients)
    for k in range(data.n_clients):
        rows = _client_rows(data.train_counts, k)
        x, y = x_all[rows], y_all[rows]

        def fun(theta: np.ndarray, x=x, y=y) -> tuple[float, np.ndarray]:
            th = torch.as_tensor(theta, dtype=torch.float64).requires_grad_(True)
            value = model.sample_losses(th, x, y).mean() + model.penalty(th)
            (grad,) = torch.autograd.grad(value, th)
            return float(value.detach()), grad.numpy()

        res = minimize(
            fun,
            np.zeros(model.n_params),
            jac=True,
            method="L-BFGS-B",
            options={"gtol": gtol, "ftol": 0.0, "maxiter": max_iter, "maxcor": 20},
        )
        out[k] = float(res.fun)
    return out


def sklearn_local_minima(data: Any) -> np.ndarray:
    """(N,) the authors' F_k*: unpenalised train log-loss of sklearn's LogisticRegression
    (C = 1, lbfgs, max_iter = 1000) fitted on client k's training data; 0 on ``ValueError``."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    out = np.zeros(data.n_clients)
    for k in range(data.n_clients):
        rows = _client_rows(data.train_counts, k)
        x, y = data.x_train[rows], data.y_train[rows]
        fit = LogisticRegression(C=1.0, solver="lbfgs", max_iter=1000)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                fit.fit(x, y)
        except ValueError:
            continue  # a single class: the authors' code sets F* = 0 (its infimum anyway)
        out[k] = log_loss(y, fit.predict_proba(x), labels=fit.classes_)
    return out


def local_minima(problem: Any, kind: Kind) -> np.ndarray:
    """F_k* of ``problem`` by ``kind`` ("oracle": exact; "sklearn": the authors' fit), cached
    per problem. Problems with exact minima of their own (quadratics) answer "oracle" directly."""
    if kind not in ("oracle", "sklearn"):
        raise InputError(f"unknown local-minima kind {kind!r}; expected 'oracle' or 'sklearn'")
    data = getattr(problem, "data", None)
    if data is None:
        known = getattr(problem, "local_minima", None)
        if kind == "oracle" and known is not None:
            return np.asarray(known, dtype=float)
        raise InputError(f"local minima '{kind}' need a data problem")
    cache = _CACHE.setdefault(problem, {})
    if kind not in cache:
        cache[kind] = (
            exact_local_minima(problem) if kind == "oracle" else sklearn_local_minima(data)
        )
    return cache[kind]
