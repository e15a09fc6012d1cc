"""The authors' F_k* (arodio/CA-Fed ``get_local_optimums``: scikit-learn's
``LogisticRegression(multi_class='multinomial', C=1)``, unpenalised train log-loss) against a
direct minimisation of the same multinomial objective with scipy: softmax over the client's
classes, one weight row per class, all rows penalised by ½‖W‖²_F, intercepts free.

Two-class clients are where a binomial fit (current scikit-learn's only binary model) and the
authors' multinomial one differ; the test data are chosen so that the difference is far above
the tolerance (a binomial F* fails the test)."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import log_softmax

from fltheory.sim.data import FederatedData
from fltheory.sim.local_minima import sklearn_inverse_penalty, sklearn_local_minima

#: Agreement asked of the two minimisations (scikit-learn stops at its tol = 1e-4).
TOL = 2e-4


def multinomial_fstar(x: np.ndarray, y: np.ndarray, c: float = 1.0) -> float:
    """Mean cross-entropy at argmin over (W, b) of C·Σ_i CE(softmax(W x_i + b), y_i) + ½‖W‖²_F
    (classes: those present in y), by L-BFGS on the explicit objective and gradient."""
    classes = np.unique(y)
    k, d = classes.size, x.shape[1]
    onehot = (y[:, None] == classes[None, :]).astype(float)

    def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[: k * d].reshape(k, d), theta[k * d :]
        logp = log_softmax(x @ w.T + b, axis=1)
        resid = np.exp(logp) - onehot
        value = -c * float((onehot * logp).sum()) + 0.5 * float((w**2).sum())
        grad_w = c * resid.T @ x + w
        grad_b = c * resid.sum(axis=0)
        return value, np.concatenate([grad_w.ravel(), grad_b])

    res = minimize(
        fun, np.zeros(k * (d + 1)), jac=True, method="L-BFGS-B",
        options={"gtol": 1e-10, "ftol": 0.0, "maxiter": 20000, "maxcor": 30},
    )  # fmt: skip
    w, b = res.x[: k * d].reshape(k, d), res.x[k * d :]
    logp = log_softmax(x @ w.T + b, axis=1)
    return float(-(onehot * logp).sum(axis=1).mean())


def binomial_fstar(x: np.ndarray, y: np.ndarray, c: float = 1.0) -> float:
    """Mean log-loss of the binomial fit C·Σ_i log-loss(σ(v·x_i + a)) + ½‖v‖² (the model that
    a binary fit with C = 1 gives in current scikit-learn)."""
    t = (y == np.unique(y)[1]).astype(float)

    def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ theta[:-1] + theta[-1]
        p = 1.0 / (1.0 + np.exp(-z))
        value = (
            c * float(np.logaddexp(0.0, z).sum() - (t * z).sum()) + 0.5 * theta[:-1] @ theta[:-1]
        )
        g = c * (p - t)
        return value, np.concatenate([x.T @ g + theta[:-1], [g.sum()]])

    res = minimize(fun, np.zeros(x.shape[1] + 1), jac=True, method="L-BFGS-B",
                   options={"gtol": 1e-10, "ftol": 0.0, "maxiter": 20000})  # fmt: skip
    z = x @ res.x[:-1] + res.x[-1]
    return float((np.logaddexp(0.0, z) - t * z).mean())


def _clients() -> FederatedData:
    """Four clients: two classes (separable enough that the penalty matters), two classes with
    labels 3 and 7 of 10, three classes, and a single class."""
    rng = np.random.default_rng(20240523)
    xs, ys = [], []
    for labels, n in (((0, 1), 40), ((3, 7), 60), ((0, 4, 9), 90), ((5,), 20)):
        y = rng.choice(np.asarray(labels), size=n)
        centre = rng.normal(size=(10, 6)) * 1.5
        xs.append(centre[y] + rng.normal(size=(n, 6)))
        ys.append(y)
    counts = np.array([y.size for y in ys])
    return FederatedData(
        np.concatenate(xs), np.concatenate(ys), counts,
        np.zeros((0, 6)), np.zeros(0, dtype=np.int64), np.zeros(4, dtype=np.int64), 10,
    )  # fmt: skip


def _client(data: FederatedData, k: int) -> tuple[np.ndarray, np.ndarray]:
    start = int(data.train_counts[:k].sum())
    rows = slice(start, start + int(data.train_counts[k]))
    return data.x_train[rows], data.y_train[rows]


@pytest.fixture(scope="module")
def fitted() -> tuple[FederatedData, np.ndarray]:
    data = _clients()
    return data, sklearn_local_minima(data)


@pytest.mark.parametrize("k", [0, 1])
def test_two_class_clients_get_the_multinomial_minimum(fitted, k):
    data, fstar = fitted
    x, y = _client(data, k)
    direct = multinomial_fstar(x, y)
    assert fstar[k] == pytest.approx(direct, abs=TOL)
    # The binomial fit with the same C is a different number (the test can tell them apart).
    assert abs(binomial_fstar(x, y) - direct) > 20 * TOL


def test_the_two_row_softmax_is_the_binomial_fit_with_twice_c():
    # The argument of sklearn_inverse_penalty, checked on its own: two independent minimisations.
    x, y = _client(_clients(), 0)
    assert binomial_fstar(x, y, c=2.0) == pytest.approx(multinomial_fstar(x, y), abs=1e-6)
    assert sklearn_inverse_penalty(2) == 2.0 and sklearn_inverse_penalty(3) == 1.0


def test_three_class_client_is_multinomial_and_one_class_is_zero(fitted):
    data, fstar = fitted
    x, y = _client(data, 2)
    assert fstar[2] == pytest.approx(multinomial_fstar(x, y), abs=TOL)
    assert fstar[3] == 0.0
