"""Empirical side of eq. (5): E(t) = max_ij |[Pᵗ]_ij − ρ_j| and sup_t E(t)/λ(P)ᵗ.

E(t) is computed by iterating D_t = Pᵗ − 1ρᵀ directly, D_{t+1} = D_t P, rather than forming Pᵗ
and subtracting ρ: the small differences are then carried with relative (not absolute)
rounding errors. Each step re-imposes D_t 1 = 0 (true exactly, since ρ sums to 1), which
removes the one direction in which rounding errors would not decay.
"""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.stationary import gth_stationary
from fltheory.markov.validate import as_transition_matrix

#: Below this E(t) is at the level of floating-point noise and the iteration stops.
NOISE_FLOOR = 1e-13


@dataclass(frozen=True)
class Envelope:
    """E(t) for t = 0..t_stop.

    Attributes:
        values: E(0), …, E(t_stop).
        t_stop: last time computed (t_max, or the last t with E(t) ≥ floor).
        reached_floor: True when the iteration stopped because E fell below the floor.
    """

    values: np.ndarray
    t_stop: int
    reached_floor: bool


def envelope(
    P: Any, t_max: int, *, rho: np.ndarray | None = None, floor: float = NOISE_FLOOR
) -> Envelope:
    """E(t) = max_ij |[Pᵗ]_ij − ρ_j| for t = 0..t_max, stopping early below ``floor``."""
    if t_max < 0:
        raise InputError(f"t_max must be non-negative, got {t_max}")
    P = as_transition_matrix(P)
    rho = gth_stationary(P) if rho is None else np.asarray(rho, dtype=np.float64)
    D = np.eye(P.shape[0]) - rho[None, :]
    values = [float(np.max(np.abs(D)))]
    reached = values[0] < floor
    while not reached and len(values) <= t_max:
        D = D @ P
        D -= np.outer(D.sum(axis=1), rho)
        e = float(np.max(np.abs(D)))
        if e < floor:
            reached = True
        else:
            values.append(e)
    return Envelope(np.asarray(values), len(values) - 1, reached)


@dataclass(frozen=True)
class EmpiricalConstant:
    """sup_{t_start ≤ t ≤ t_stop} E(t)/λᵗ, computed as exp of a max of logs.

    ``value`` is None when it overflows a double; ``log_value`` is −inf when E ≡ 0 (M = 1).
    """

    value: float | None
    log_value: float
    t_argmax: int
    t_start: int
    t_stop: int


def empirical_constant(env: Envelope, lam: float, t_start: int = 0) -> EmpiricalConstant | None:
    """The smallest C with E(t) ≤ C λᵗ on [t_start, t_stop]; None when that range is empty."""
    if t_start > env.t_stop:
        return None
    t = np.arange(t_start, env.t_stop + 1)
    with np.errstate(divide="ignore"):
        logs = np.log(env.values[t_start:]) - t * math.log(lam)
    k = int(np.argmax(logs))
    log_value = float(logs[k])
    value = math.exp(log_value) if log_value < math.log(np.finfo(float).max) else None
    return EmpiricalConstant(value, log_value, int(t[k]), t_start, env.t_stop)
