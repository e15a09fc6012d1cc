"""Models for the simulator: flat parameter vectors, losses batched over clients.

A model defines ``sample_losses(theta, x, y)`` for ONE parameter vector (the definition, used
by the reference loop through autograd) and ``loss_grad`` for a batch of M parameter vectors,
each with its own minibatch (the fast path). :class:`Model` supplies ``loss_grad`` through
``torch.func`` (vmap of grad), so a new model (a CNN, say) only writes ``sample_losses``; the
linear models below override it with closed-form gradients, which the tests check against the
``torch.func`` version. ``local_sgd`` runs E plain SGD steps (eq. 2) on pre-gathered minibatches;
the base class loops over ``loss_grad``, the linear models fuse each step into two batched
matmuls on features carrying a trailing column of ones (``bias_column``), without the losses
(summation order differs from ``loss_grad``'s, by rounding only). Every loss adds the ridge
penalty (ridge/2)·‖θ‖² (weight decay ridge on all parameters, bias included),
so F_k(θ) = mean_i ℓ(θ; ξ_i) + (ridge/2)‖θ‖².
"""

from typing import Protocol, runtime_checkable

import numpy as np
import torch
from torch.func import grad_and_value, vmap

from fltheory.errors import InputError


@runtime_checkable
class RandomStart(Protocol):
    """A model with a random start of its own (CNNs: torch's default per layer)."""

    def initial_params(self, seed: int) -> np.ndarray: ...


@runtime_checkable
class LinearShape(Protocol):
    """A linear model on ``n_features`` inputs (softmax and logistic regression)."""

    n_features: int


class Model:
    """Base: subclasses set ``n_params``, ``ridge`` and implement ``sample_losses``."""

    n_params: int
    ridge: float
    #: Whether :meth:`local_sgd` takes features with a trailing column of ones.
    bias_column = False

    def sample_losses(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """Per-sample losses (B,) of one parameter vector theta (P,), without the ridge term."""
        raise NotImplementedError

    def logits(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """Scores for samples x (S, ...) under R global models w (R, P): shape (R, S, ...)."""
        raise NotImplementedError

    def predict(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """Predicted labels (R, S)."""
        raise NotImplementedError

    def correct(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """(R, S) bool: whether each global model predicts each label."""
        return self.predict(w, x) == y

    def global_losses(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """Per-sample losses (R, S) of R global models on one shared set of samples."""
        return vmap(self.sample_losses, in_dims=(0, None, None))(w, x, y)

    def batch_losses(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """Weighted minibatch losses (M,) of M parameter vectors, ridge term included."""
        per = vmap(self.sample_losses)(theta, x, y)
        mean = per.mean(-1) if weight is None else (per * weight).sum(-1)
        return mean + self.penalty(theta)

    def penalty(self, theta: torch.Tensor) -> torch.Tensor:
        """(ridge/2)·‖θ‖² over the last axis."""
        return 0.5 * self.ridge * (theta * theta).sum(-1)

    def loss_grad(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Weighted minibatch losses (M,) and gradients (M, P) of M parameter vectors.

        ``weight`` (M, B) holds per-sample weights summing to 1 per row (None: 1/B each).
        """
        if weight is None:
            weight = torch.full(y.shape, 1.0 / y.shape[-1], dtype=theta.dtype, device=theta.device)

        def one(
            th: torch.Tensor, xb: torch.Tensor, yb: torch.Tensor, wb: torch.Tensor
        ) -> torch.Tensor:
            return (self.sample_losses(th, xb, yb) * wb).sum() + self.penalty(th)

        grads, losses = vmap(grad_and_value(one))(theta, x, y, weight)
        return losses, grads

    def local_sgd(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None,
        lr: float,
        steps: int,
    ) -> torch.Tensor:
        """M parameter vectors (M, P) after ``steps`` steps θ ← θ − lr·∇F_k(θ; B_j) (eq. 2).

        Step j uses samples x[j] (M, B, ...) and labels y[j] (M, B); when x holds one entry
        (full local batches, per-sample ``weight`` (M, B)) every step uses it.
        """
        for j in range(steps):
            s = j if x.shape[0] > 1 else 0
            _, g = self.loss_grad(theta, x[s], y[s], weight)
            theta = theta - lr * g
        return theta


def _check_ridge(ridge: float) -> float:
    ridge = float(ridge)
    if not (ridge >= 0 and ridge < float("inf")):
        raise InputError(f"ridge penalty must be finite and >= 0, got {ridge}")
    return ridge


class SoftmaxRegression(Model):
    """Multinomial logistic regression: θ = [W | b] as a (C, d + 1) matrix, flattened.

    ℓ(θ; x, y) = logsumexp(Wx + b) − (Wx + b)_y; ∇ = (softmax − e_y)·[x, 1]ᵀ.
    """

    bias_column = True

    def __init__(self, n_features: int, n_classes: int, ridge: float = 1e-2) -> None:
        if n_features < 1 or n_classes < 2:
            raise InputError("softmax regression needs >= 1 feature and >= 2 classes")
        self.n_features, self.n_classes, self.ridge = n_features, n_classes, _check_ridge(ridge)
        self.n_params = n_classes * (n_features + 1)

    def _split(self, theta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mat = theta.reshape(*theta.shape[:-1], self.n_classes, self.n_features + 1)
        return mat[..., :-1], mat[..., -1]

    def sample_losses(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        W, b = self._split(theta)
        z = x @ W.T + b
        return torch.logsumexp(z, -1) - z.gather(-1, y[:, None])[:, 0]

    def logits(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """(R, C, S): class scores laid out so the S samples are contiguous."""
        W, b = self._split(w)
        z = (W.reshape(-1, self.n_features) @ x.T).view(w.shape[0], self.n_classes, -1)
        return z + b[..., None]

    def predict(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return self.logits(w, x).argmax(1)

    def correct(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """argmax(z) == y without the (slow, strided) argmax: z_y beats every earlier class
        strictly and every later class weakly, so ties go to the first maximum as in argmax."""
        z = self.logits(w, x)
        picked = z.gather(1, y.expand(z.shape[0], 1, -1))
        classes = torch.arange(self.n_classes, device=z.device)[None, :, None]
        later = classes >= y[None, None, :]
        return ((picked > z) | ((picked == z) & later)).all(1)

    def global_losses(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = self.logits(w, x)
        picked = z.gather(1, y.expand(z.shape[0], 1, -1))[:, 0]
        return torch.logsumexp(z, 1) - picked

    def _scores(self, theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """(M, C, B) scores: classes before samples, the fast layout for small batched GEMMs."""
        W, b = self._split(theta)
        return torch.bmm(W, x.transpose(1, 2)) + b[..., None]

    def batch_losses(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> torch.Tensor:
        z = self._scores(theta, x)
        nll = torch.logsumexp(z, 1) - z.gather(1, y[:, None, :])[:, 0]
        mean = nll.mean(-1) if weight is None else (nll * weight).sum(-1)
        return mean + self.penalty(theta)

    def loss_grad(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        z = self._scores(theta, x)
        lse = torch.logsumexp(z, 1)
        nll = lse - z.gather(1, y[:, None, :])[:, 0]
        resid = torch.exp(z - lse[:, None, :])
        resid.scatter_add_(1, y[:, None, :], torch.full_like(resid[:, :1], -1.0))
        if weight is None:
            loss = nll.mean(-1)
            resid = resid / y.shape[-1]
        else:
            loss = (nll * weight).sum(-1)
            resid = resid * weight[:, None, :]
        g = torch.cat([torch.bmm(resid, x), resid.sum(-1, keepdim=True)], dim=-1)
        return loss + self.penalty(theta), g.reshape(theta.shape) + self.ridge * theta

    def local_sgd(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None,
        lr: float,
        steps: int,
    ) -> torch.Tensor:
        """Fused steps on x = [features, 1]: with Z = ΘXᵀ (M, C, B), R = softmax(Z) − e_y,
        Θ ← (1 − lr·ridge)·Θ − lr·RX/B (weighted: R diag(weight) X), four kernels a step.

        >>> import torch
        >>> m = SoftmaxRegression(2, 3, ridge=0.1)
        >>> th = torch.randn(4, m.n_params, dtype=torch.float64)
        >>> x = torch.cat([torch.randn(2, 4, 5, 2, dtype=torch.float64),
        ...                torch.ones(2, 4, 5, 1, dtype=torch.float64)], -1)
        >>> y = torch.randint(0, 3, (2, 4, 5))
        >>> slow = Model.local_sgd(m, th, x[..., :-1], y, None, 0.5, 2)
        >>> torch.allclose(m.local_sgd(th, x, y, None, 0.5, 2), slow)
        True
        """
        m, batch = theta.shape[0], y.shape[-1]
        y = y if not y.is_floating_point() else y.long()  # labels gathered with the features
        mat = theta.reshape(m, self.n_classes, -1).clone()
        minus = torch.full((m, 1, batch), -1.0, dtype=theta.dtype, device=theta.device)
        scale = -lr if weight is not None else -lr / batch
        for j in range(steps):
            s = j if x.shape[0] > 1 else 0
            # (M, C, B): classes before samples, where softmax over classes is fast.
            resid = torch.softmax(torch.bmm(mat, x[s].transpose(1, 2)), 1)
            resid.scatter_add_(1, y[s][:, None, :], minus)
            if weight is not None:
                resid.mul_(weight[:, None, :])
            mat.baddbmm_(resid, x[s], beta=1.0 - lr * self.ridge, alpha=scale)
        return mat.view(theta.shape)


class LogisticRegression(Model):
    """Binary logistic regression, labels in {0, 1}: θ = [w, b], ℓ = softplus(z) − y·z."""

    bias_column = True

    def __init__(self, n_features: int, ridge: float = 1e-2) -> None:
        if n_features < 1:
            raise InputError("logistic regression needs >= 1 feature")
        self.n_features, self.ridge = n_features, _check_ridge(ridge)
        self.n_params = n_features + 1

    def sample_losses(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = x @ theta[:-1] + theta[-1]
        return torch.nn.functional.softplus(z) - y.to(z.dtype) * z

    def logits(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return w[:, :-1] @ x.T + w[:, -1:]

    def predict(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return (self.logits(w, x) > 0).long()

    def global_losses(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = self.logits(w, x)
        return torch.nn.functional.softplus(z) - y.to(z.dtype) * z

    def batch_losses(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> torch.Tensor:
        z = torch.bmm(x, theta[:, :-1, None])[..., 0] + theta[:, -1:]
        nll = torch.nn.functional.softplus(z) - y.to(z.dtype) * z
        mean = nll.mean(-1) if weight is None else (nll * weight).sum(-1)
        return mean + self.penalty(theta)

    def loss_grad(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        z = torch.bmm(x, theta[:, :-1, None])[..., 0] + theta[:, -1:]
        yf = y.to(z.dtype)
        nll = torch.nn.functional.softplus(z) - yf * z
        resid = torch.sigmoid(z) - yf
        if weight is None:
            weight = torch.full_like(z, 1.0 / z.shape[-1])
        resid = resid * weight
        g = torch.cat([torch.bmm(resid[:, None, :], x)[:, 0], resid.sum(-1, keepdim=True)], -1)
        return (nll * weight).sum(-1) + self.penalty(theta), g + self.ridge * theta

    def local_sgd(
        self,
        theta: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        weight: torch.Tensor | None,
        lr: float,
        steps: int,
    ) -> torch.Tensor:
        """Fused steps on x = [features, 1]: r = σ(Xθ) − y, θ ← (1 − lr·ridge)·θ − lr·Xᵀr/B.

        >>> import torch
        >>> m = LogisticRegression(3, ridge=0.1)
        >>> th = torch.randn(4, m.n_params, dtype=torch.float64)
        >>> x = torch.cat([torch.randn(2, 4, 5, 3, dtype=torch.float64),
        ...                torch.ones(2, 4, 5, 1, dtype=torch.float64)], -1)
        >>> y = torch.randint(0, 2, (2, 4, 5))
        >>> slow = Model.local_sgd(m, th, x[..., :-1], y, None, 0.5, 2)
        >>> torch.allclose(m.local_sgd(th, x, y, None, 0.5, 2), slow)
        True
        """
        batch = y.shape[-1]
        vec = theta.clone()[:, None, :]
        labels = y.to(theta.dtype).contiguous()[..., None]  # y may be a column of [x, 1, y]
        scale = -lr if weight is not None else -lr / batch
        for j in range(steps):
            s = j if x.shape[0] > 1 else 0
            resid = torch.sigmoid(torch.bmm(x[s], vec.transpose(1, 2))).sub_(labels[s])
            if weight is not None:
                resid.mul_(weight[..., None])
            vec.baddbmm_(resid.transpose(1, 2), x[s], beta=1.0 - lr * self.ridge, alpha=scale)
        return vec[:, 0]
