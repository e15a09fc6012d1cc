"""Local minima F_k* of data problems, for CA-Fed's F̂* (spec C.4).

* :func:`exact_local_minima` — F_k* = min_θ F_k(θ), F_k = mean local training loss +
  (ridge/2)‖θ‖² (the objective the simulator trains), by full-batch L-BFGS in float64 on each
  client. Strictly convex for the linear models with ridge > 0, so the minimum is unique; the
  solver stops when the gradient's sup-norm is below ``gtol`` (default 1e-7), which by strong
  convexity bounds the excess objective by ‖∇F_k‖²/(2·ridge).
* :func:`sklearn_local_minima` — the authors' value (arodio/CA-Fed ``get_local_optimums``):
  scikit-learn's ``LogisticRegression(multi_class='multinomial', C=1, lbfgs, max_iter=1000)``
  fitted on the client's training data, F_k* = its **unpenalised** training log-loss; 0 when the
  fit raises ``ValueError`` (a single-class client). Not the minimum of the function CA-Fed
  trains (spec A.3). Multinomial also for a **two-class** client (softmax over its two classes,
  both weight rows penalised), which current scikit-learn (no ``multi_class`` option) no longer
  fits: :func:`sklearn_inverse_penalty` says how it is obtained.

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
from fltheory.sim.contract import DataBacked, KnownMinima, SimProblem

Kind = Literal["oracle", "sklearn"]
#: Gradient sup-norm at which L-BFGS stops (float64).
GTOL = 1e-7

_CACHE: "weakref.WeakKeyDictionary[Any, dict[str, np.ndarray]]" = weakref.WeakKeyDictionary()


def _client_rows(counts: np.ndarray, k: int) -> slice:
    start = int(counts[:k].sum())
    return slice(start, start + int(counts[k]))


def exact_local_minima(problem: DataBacked, gtol: float = GTOL, max_iter: int = 5000) -> np.ndarray:
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

        def fun(
            theta: np.ndarray, x: torch.Tensor = x, y: torch.Tensor = y
        ) -> tuple[float, np.ndarray]:
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


#: The authors' inverse penalty (sklearn's default C, P2's code ``get_local_optimums``).
AUTHORS_C = 1.0


def sklearn_inverse_penalty(n_classes: int, c: float = AUTHORS_C) -> float:
    """The C of a scikit-learn fit (lbfgs, multinomial for ≥ 3 classes) whose training log-loss
    is that of the authors' *multinomial* fit with inverse penalty ``c`` on ``n_classes``
    classes: ``c`` itself for ≥ 3 classes, ``2c`` for two.

    Two classes, multinomial: min over (W ∈ R^{2×d}, b ∈ R²) of C·Σ_i CE(softmax(W x_i + b),
    y_i) + ½‖W‖²_F (intercepts unpenalised). The loss depends on v = w₁ − w₀ only, and for a
    given v the penalty ½(‖w₀‖² + ‖w₁‖²) is smallest at w₁ = −w₀ = v/2, where it is ¼‖v‖².
    So the fit is the binomial one, C·Σ_i log-loss(σ(v·x_i + c)) + ½‖v‖²/2 — a binomial fit
    with inverse penalty 2C — with the same probabilities σ(v·x + c) = softmax(Wx + b)₁.
    (The authors' scikit-learn fitted exactly this for ``multi_class='multinomial'`` on a binary
    y; current scikit-learn, without that option, fits a binary y binomially with ½‖v‖² — a
    different F*.) ``tests/sim/test_local_minima_authors.py`` checks it against a direct
    minimisation of the two-row softmax objective.

    >>> sklearn_inverse_penalty(2), sklearn_inverse_penalty(10)
    (2.0, 1.0)
    """
    return 2.0 * c if n_classes == 2 else c


def sklearn_local_minima(data: Any) -> np.ndarray:
    """(N,) the authors' F_k*: unpenalised train log-loss of scikit-learn's multinomial
    LogisticRegression (C = 1, lbfgs, max_iter = 1000) fitted on client k's training data
    (two-class clients through :func:`sklearn_inverse_penalty`); 0 on ``ValueError``."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    out = np.zeros(data.n_clients)
    for k in range(data.n_clients):
        rows = _client_rows(data.train_counts, k)
        x, y = data.x_train[rows], data.y_train[rows]
        c = sklearn_inverse_penalty(np.unique(y).size)
        fit = LogisticRegression(C=c, solver="lbfgs", max_iter=1000)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                fit.fit(x, y)
        except ValueError:
            continue  # a single class: the authors' code sets F* = 0 (its infimum anyway)
        out[k] = log_loss(y, fit.predict_proba(x), labels=fit.classes_)
    return out


def local_minima(problem: SimProblem, kind: Kind) -> np.ndarray:
    """F_k* of ``problem`` by ``kind`` ("oracle": exact; "sklearn": the authors' fit), cached
    per problem. Problems with exact minima of their own (quadratics) answer "oracle" directly."""
    if kind not in ("oracle", "sklearn"):
        raise InputError(f"unknown local-minima kind {kind!r}; expected 'oracle' or 'sklearn'")
    if not isinstance(problem, DataBacked):  # (before KnownMinima: a data problem computes)
        if kind == "oracle" and isinstance(problem, KnownMinima):
            return np.asarray(problem.local_minima, dtype=float)
        raise InputError(f"local minima '{kind}' need a data problem")
    data = problem.data
    cache = _CACHE.setdefault(problem, {})
    if kind not in cache:
        cache[kind] = (
            exact_local_minima(problem) if kind == "oracle" else sklearn_local_minima(data)
        )
    return cache[kind]
