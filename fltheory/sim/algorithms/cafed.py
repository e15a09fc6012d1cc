"""CA-Fed, Correlation-Aware FL (CA-Fed ToN Algorithm 1, eqs. 16–20).

Per round t, with losses F_k^(t) reported by the active clients:
1. loss filter, eq. (17): F̂_k ← (1 − β)F̂_k + β F_k^(t) for k ∈ A_t. Before any client was
   seen, the first active set initialises F̂ (clients not in it get the mean of its losses, as
   in the authors' code). Note: the paper's experiments say "β = 0" in the authors' code
   convention, where β weighs the OLD value; that is β = 1 here (F̂ = latest loss).
2. F̂_k* = min_{s≤t} F̂_k^(s) (Section IV-B; ``fstar="running_min"``), the exact local minima
   (``fstar="oracle"``: min of mean loss + ridge by L-BFGS for data problems), or the authors'
   sklearn fit (``fstar="sklearn"``, :mod:`fltheory.sim.local_minima`);
   Γ̂' = max_k (F̂_k − F̂_k*), eq. (19).
3. q = α/π̂ over all clients (line 5), then get() twice (lines 6–7): clients by decreasing λ̂
   (Guideline B), then by increasing π̂ (Guideline A). get() tries setting q_k = 0 one client
   at a time and keeps the change when ε̂ drops by at least τ, with eq. (20)
   ε̂(q) = ⟨F̂ − F̂*, π̂ ⊙̃ q⟩ + 4κ̄²·d_TV²(α, π̂ ⊙̃ q)·Γ̂', (π ⊙̃ q)_k = π_k q_k / Σ_h π_h q_h.
   A change that would leave no client with q > 0 is never made (the authors' code stops
   there). Correlation is ranked by |λ̂₂|, i.e. by λ(P_k) = (|λ₂| + 1)/2 of eq. (229).
4. the participants are the active clients with q_k > 0, aggregated with these q_k (line 12).

With ``fstar="running_min"``, F̂ = F̂* (so ε̂ ≡ 0) at the first round, and the ties 0 − 0 ≥ τ = 0
exclude everyone but one client then; this is the paper's text taken literally.

Audit against the paper and the authors' code (arodio/CA-Fed, ``clients_sampler.py``, class
``MarkovianClientsSampler``; ``activity_estimator.py``; ``utils/divergence.py``):
- get() itself agrees with both: pass 1 sorts all clients by |λ₂| decreasing (the code's
  "stability" is the signed λ₂ of the two-state chain), pass 2 by π̂ increasing, both stable
  sorts over client ids; one client is tried at a time with the others' current weights;
  p = π ⊙̃ q renormalised over the remaining clients, d_TV = ½‖α − p‖₁, and Γ̂' = max over ALL
  clients, held fixed during get(); a removal is kept iff ε̂ − ε̂⁺ ≥ τ (line 19 and the code;
  Section IV-A's prose "decreasing by more than τ" would be strict, the box and code are not);
  the code stops when a removal would zero every q, which is equivalent to our skip.
- Bias factor: eqs. (16), (20) and lines 15/18 say 4κ̄²; the code multiplies d_TV²Γ̂' by its
  ``bias_const`` with no 4, so its κ̄² = 1 is κ̄² = ¼ here. ``kappa2`` follows the paper (4κ̄²);
  ``bias_const`` (exclusive with it) is the code's b.
- F̂*: Section IV-B gives the running minimum; the code uses sklearn log-loss fits
  (``utils/utils.py:get_local_optimums``): ``fstar="sklearn"``. ``running_min`` stays the
  default as the paper's stated estimator.
- Losses: the code evaluates every client's full "validation" loader (its test set, no ridge)
  and uses the active ones' (``loss_signal="test"``, ``loss_ridge=false``); the paper (and our
  default) use an active client's first-minibatch loss (Section IV-A); ``"train"`` and
  ``"validation"`` (a seeded 20 % of the train data) are noise-free alternatives
  (:mod:`fltheory.sim.loss_signal`).
"""

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from fltheory.config import Strict
from fltheory.defaults import KAPPA2
from fltheory.divergence import biased_importance
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.loss_signal import LossSignal
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


def filter_losses(
    fhat: np.ndarray, seen: np.ndarray, mask: np.ndarray, losses: np.ndarray, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (17) with the first-observation rule; returns (F̂, seen) for (R, N) / (R,) inputs."""
    active_losses = np.where(mask, losses, 0.0)
    count = mask.sum(axis=-1)
    mean = active_losses.sum(axis=-1) / np.maximum(count, 1)
    first = ~seen & (count > 0)
    init = np.where(mask, active_losses, mean[:, None])
    update = np.where(mask, (1.0 - beta) * fhat + beta * active_losses, fhat)
    return np.where(first[:, None], init, update), seen | (count > 0)


def error_proxy(
    q: np.ndarray,
    alpha: np.ndarray,
    gap: np.ndarray,
    gamma: np.ndarray,
    pi: np.ndarray,
    kappa2: float,
) -> np.ndarray:
    """ε̂ of eq. (20) per row: ⟨F̂ − F̂*, p⟩ + 4κ̄² d_TV(α, p)² Γ̂', with p = π ⊙̃ q."""
    p = biased_importance(q, pi)
    tv = 0.5 * np.abs(alpha - p).sum(axis=-1)
    error: np.ndarray = (gap * p).sum(axis=-1) + 4.0 * kappa2 * tv * tv * gamma
    return error


def get_weights(
    q: np.ndarray,
    alpha: np.ndarray,
    gap: np.ndarray,
    gamma: np.ndarray,
    pi: np.ndarray,
    order: np.ndarray,
    kappa2: float,
    tau: float,
) -> np.ndarray:
    """The get() function of Algorithm 1 (lines 13–21), batched over rows.

    ``order`` (R, N) lists the clients in the order they are tried. Each trial is evaluated
    incrementally: with w = π ⊙ q, S = Σw, U = Σ(F̂ − F̂*)w and S' = S − w_k, dropping k gives
    ⟨F̂ − F̂*, p⟩ = (U − e_k w_k)/S' and 2·d_TV = Σ_j |α_j − w_j/S'| − |α_k − w_k/S'| + α_k.
    Trying a client whose weight is already 0 changes nothing and is skipped.
    """
    rows = np.arange(q.shape[0])
    w = pi * q
    total = w.sum(axis=-1)
    inner = (gap * w).sum(axis=-1)
    eps = error_proxy(q, alpha, gap, gamma, pi, kappa2)
    dropped = np.zeros(q.shape, dtype=bool)
    alive = (w > 0).sum(axis=-1)
    for k in order.T:
        wk = w[rows, k]
        rest = total - wk
        live = (wk > 0) & (alive > 1)
        safe = np.where(live, rest, 1.0)
        inner_k = inner - gap[rows, k] * wk
        tv = 0.5 * (
            np.abs(alpha - w / safe[:, None]).sum(axis=-1) - np.abs(alpha[k] - wk / safe) + alpha[k]
        )
        eps_k = inner_k / safe + 4.0 * kappa2 * tv * tv * gamma
        keep = live & (eps - eps_k >= tau)
        w[rows[keep], k[keep]] = 0.0
        dropped[rows[keep], k[keep]] = True
        alive = alive - keep
        total = np.where(keep, rest, total)
        inner = np.where(keep, inner_k, inner)
        eps = np.where(keep, eps_k, eps)
    return np.where(dropped, 0.0, q)


def cafed_weights(
    mask: np.ndarray,
    alpha: np.ndarray,
    pi: np.ndarray,
    lambda2: np.ndarray,
    gap: np.ndarray,
    kappa2: float,
    tau: float,
) -> np.ndarray:
    """Lines 5–7 and 8 of Algorithm 1: q = α/π̂, two get() passes, restricted to A_t."""
    gamma = gap.max(axis=-1)
    q = np.broadcast_to(alpha / pi, mask.shape).copy()
    by_corr = np.argsort(-np.abs(lambda2), axis=-1, kind="stable")
    q = get_weights(q, alpha, gap, gamma, pi, by_corr, kappa2, tau)
    by_avail = np.argsort(pi, axis=-1, kind="stable")
    q = get_weights(q, alpha, gap, gamma, pi, by_avail, kappa2, tau)
    return np.where(mask, q, 0.0)


@dataclass(frozen=True, eq=False)
class CAFed(Algorithm):
    """CA-Fed with bias weight ``kappa2`` (κ̄²), threshold ``tau``, filter ``beta``; ``fstar``
    is None (running minimum of F̂) or the (N,) true local minima (Algorithm 1).

    With a heavy bias weight CA-Fed keeps the unbiased α/π; without it, get() removes the
    correlated client of high loss gap, then every removal that does not raise ε̂ (eq. 20):

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(0, np.ones((1, 3), dtype=bool), alpha, pi,
    ...                  lambda2=np.array([[0.9, 0.0, 0.0]]), losses=np.array([[3.0, 1.0, 1.0]]))
    >>> for kappa2 in (1.0, 0.0):
    ...     alg = CAFed(kappa2=kappa2, fstar=np.zeros(3))
    ...     print(alg.weights(inp, alg.init_state(1, alpha, pi))[0].round(3).tolist())
    [[0.667, 1.333, 0.333]]
    [[0.0, 0.0, 0.333]]
    """

    kappa2: float = KAPPA2
    tau: float = 0.0
    beta: float = 1.0
    fstar: np.ndarray | None = None
    #: the losses F_k^(t): None = the engine's first-minibatch loss, else a full-set signal.
    signal: LossSignal | None = None
    #: the code's bias factor b of b·d_TV²·Γ̂' (no 4); when set it replaces 4κ̄² (κ̄² = b/4).
    bias_const: float | None = None
    fstar_kind: str = ""
    name: ClassVar[str] = "ca_fed"
    needs_losses: ClassVar[bool] = True
    needs_lambda2: ClassVar[bool] = True

    def init_state(self, reps: int, alpha: np.ndarray, pi0: np.ndarray) -> State:
        zeros = np.zeros((reps, alpha.size))
        return {"fhat": zeros, "fstar": zeros.copy(), "seen": np.zeros(reps, dtype=bool)}

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        assert inp.losses is not None and inp.lambda2 is not None  # needs_losses, needs_lambda2
        fhat, seen = filter_losses(state["fhat"], state["seen"], inp.mask, inp.losses, self.beta)
        if self.fstar is None:
            fresh = seen & ~state["seen"]
            fstar = np.where(fresh[:, None], fhat, np.minimum(state["fstar"], fhat))
        else:
            fstar = np.broadcast_to(self.fstar, fhat.shape)
        q = cafed_weights(
            inp.mask, inp.alpha, inp.pi, inp.lambda2, fhat - fstar, self.effective_kappa2, self.tau
        )
        return q, {"fhat": fhat, "fstar": fstar, "seen": seen}

    @property
    def effective_kappa2(self) -> float:
        """κ̄² of eq. (20): ``kappa2``, or ``bias_const``/4 (exact: a power-of-two scaling).

        >>> CAFed(bias_const=1.0).effective_kappa2, CAFed(kappa2=2.0).effective_kappa2
        (0.25, 2.0)
        """
        return self.kappa2 if self.bias_const is None else self.bias_const / 4.0

    def describe(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "kappa2": self.kappa2,
            "tau": self.tau,
            "beta": self.beta,
            "fstar": self.fstar_kind or ("running_min" if self.fstar is None else "oracle"),
            "loss_signal": "minibatch" if self.signal is None else self.signal.which,
        }
        if self.bias_const is not None:
            out["bias_const"] = self.bias_const
        return out


class CAFedParams(Strict):
    """Parameters of :class:`CAFed`; ``kappa2`` and ``bias_const`` exclude each other.

    >>> CAFedParams(bias_const=1.0).kappa2 is None
    True
    >>> CAFedParams(kappa2=1.0, bias_const=1.0)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for CAFedParams
    ...
    """

    kappa2: float | None = Field(
        None, ge=0.0, description=f"bias weight κ̄² of ε̂, eq. (20): 4κ̄²·d_TV²·Γ̂' (default {KAPPA2})"
    )
    bias_const: float | None = Field(
        None,
        ge=0.0,
        description="the authors' code's bias factor b: b·d_TV²·Γ̂' (no 4); excludes kappa2",
    )
    tau: float = Field(0.0, ge=0.0, description="get() keeps a removal when ε̂ drops by ≥ τ")
    beta: float = Field(1.0, gt=0.0, le=1.0, description="loss filter β of eq. (17) (1: latest)")
    fstar: Literal["running_min", "oracle", "sklearn", "zero"] = Field(
        "running_min",
        description="F̂*: running minimum of F̂, the exact local minima (L-BFGS on mean loss + "
        "ridge), the authors' sklearn fit (unpenalised train log-loss, 0 for one class), or 0 "
        "(what the authors' fit gives on image data, where it always fails)",
    )
    loss_signal: Literal["minibatch", "train", "validation", "test"] = Field(
        "minibatch",
        description="F_k^(t): first-minibatch loss (paper), full local train loss, a seeded 20 % "
        "validation subset of the train data, or the full local test set (authors' code)",
    )
    loss_ridge: bool = Field(
        True, description="add (ridge/2)‖w‖² to a full-set loss signal (authors' code: false)"
    )

    @model_validator(mode="after")
    def _one_bias(self) -> "CAFedParams":
        if self.kappa2 is not None and self.bias_const is not None:
            raise ValueError("give kappa2 (4κ̄² convention) or bias_const (no 4), not both")
        return self


# --- the twin: Algorithm 1 with scalar loops -------------------------------------------------


def _reference_error(
    q: list[float],
    alpha: list[float],
    gap: list[float],
    gamma: float,
    pi: list[float],
    bias: float,
) -> float:
    """ε̂(q) of eq. (20) = Σ_k gap_k p_k + b·d_TV(α, p)² Γ̂', p = π ⊙̃ q, b = 4κ̄² or bias_const."""
    total = sum(pi[k] * q[k] for k in range(len(q)))
    p = [pi[k] * q[k] / total if total > 0 else 0.0 for k in range(len(q))]
    tv = 0.5 * sum(abs(alpha[k] - p[k]) for k in range(len(q)))
    return sum(gap[k] * p[k] for k in range(len(q))) + bias * tv * tv * gamma


def _reference_get(
    q: list[float],
    order: list[int],
    alpha: list[float],
    gap: list[float],
    gamma: float,
    pi: list[float],
    alg: CAFed,
) -> list[float]:
    """get() (lines 13–21): try q_k = 0 in ``order``; keep it when ε̂ drops by ≥ τ."""
    bias = 4.0 * alg.kappa2 if alg.bias_const is None else alg.bias_const
    eps = _reference_error(q, alpha, gap, gamma, pi, bias)
    for k in order:
        trial = list(q)
        trial[k] = 0.0
        if sum(trial) == 0.0:
            continue
        eps_trial = _reference_error(trial, alpha, gap, gamma, pi, bias)
        if eps - eps_trial >= alg.tau:
            q, eps = trial, eps_trial
    return q


def reference_cafed_start(alg: CAFed, alpha: list[float], pi0: list[float]) -> dict[str, Any]:
    """No client seen yet."""
    return {"seen": False}


def reference_cafed(alg: CAFed, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin of Algorithm 1: filter the losses (eq. 17), F̂*, q = α/π̂, get() by |λ̂|
    decreasing then by π̂ increasing, participants = active clients with q_k > 0."""
    if alg.signal is not None:
        raise InputError("the reference loop feeds minibatch losses: loss_signal needs the engine")
    n, active, losses = view.n, view.active, view.losses or {}
    if not active:
        return {}
    if not st["seen"]:
        mean = sum(losses[k] for k in active) / len(active)
        st["fhat"] = [losses[k] if k in losses else mean for k in range(n)]
        st["fstar"] = list(st["fhat"]) if alg.fstar is None else [float(v) for v in alg.fstar]
        st["seen"] = True
    else:
        for k in active:
            st["fhat"][k] = (1.0 - alg.beta) * st["fhat"][k] + alg.beta * losses[k]
        if alg.fstar is None:
            st["fstar"] = [min(a, b) for a, b in zip(st["fstar"], st["fhat"], strict=True)]
    gap = [st["fhat"][k] - st["fstar"][k] for k in range(n)]
    gamma = max(gap)
    alpha, pi, lam = view.alpha, view.pi, view.lambda2 or []
    q = [alpha[k] / pi[k] for k in range(n)]
    q = _reference_get(q, sorted(range(n), key=lambda k: -abs(lam[k])), alpha, gap, gamma, pi, alg)
    q = _reference_get(q, sorted(range(n), key=lambda k: pi[k]), alpha, gap, gamma, pi, alg)
    return {k: q[k] for k in active if q[k] > 0}


@ALGORITHMS.register(
    "ca_fed", params=CAFedParams, reference=WeightTwin(reference_cafed, reference_cafed_start)
)
def build_cafed(params: CAFedParams, ctx: AlgorithmContext) -> CAFed:
    """CA-Fed: correlation-aware client exclusion (CA-Fed ToN Algorithm 1).

    >>> build_cafed(CAFedParams(kappa2=0.5), AlgorithmContext(2, 1, 0, None)).describe()["kappa2"]
    0.5
    """
    fstar = None
    if params.fstar == "zero":
        fstar = np.zeros(ctx.n_clients)
    elif params.fstar != "running_min":
        fstar = ctx.local_minima if params.fstar == "oracle" else None
        if fstar is None and ctx.minima is not None:
            fstar = ctx.minima(params.fstar)
        if fstar is None:
            raise InputError(f"fstar = '{params.fstar}' needs a problem with known local minima")
    signal = None
    if params.loss_signal != "minibatch":
        signal = LossSignal(params.loss_signal, params.loss_ridge, ctx.seed)
    return CAFed(
        kappa2=KAPPA2 if params.kappa2 is None else params.kappa2,
        tau=params.tau,
        beta=params.beta,
        fstar=fstar,
        signal=signal,
        bias_const=params.bias_const,
        fstar_kind=params.fstar,
    )
