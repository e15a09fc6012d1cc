"""Local step-size schedules η_t (t = 1, 2, ...) for Theorem 2 of CA-Fed (ToN).

A schedule is an explicit head η_1..η_{n₀} (possibly empty) followed by a power-law tail
η_t = c·t^(−a) for t > n₀, or by zeros (c = 0). ``power_law(η₁, a)`` is the paper's family
η_t = η₁/t^a (head empty, c = η₁). ``explicit(values, tail_power=a)`` continues a finite list
continuously as η_t = η_{n₀}(n₀/t)^a; without ``tail_power`` the list is taken as ZERO after
its end, so every infinite sum of Theorem 2 is finite and Σ η_t = ∞ (eq. 12) fails; the bound
(13) for a horizon T ≤ n₀ stays valid because its proof only uses η_1..η_T (it bounds sums up
to T by the full series).
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory import checks
from fltheory.errors import InputError


@dataclass(frozen=True, eq=False)
class StepSizes:
    """η_t = head[t−1] for t ≤ n₀, coef·t^(−power) after (zero when ``power`` is None).

    >>> StepSizes.power_law(0.1, 1.0).eta([1, 2, 4]).tolist()
    [0.1, 0.05, 0.025]
    """

    head: np.ndarray
    coef: float
    power: float | None

    @classmethod
    def power_law(cls, eta1: float, power: float) -> "StepSizes":
        """η_t = η₁/t^a (Theorem 2 asks a ∈ (½, 1] through eq. 12).

        >>> StepSizes.power_law(0.02, 0.5).describe()
        'η_t = 0.02/t^0.5'
        """
        eta1, power = checks.positive(eta1, "eta1"), checks.nonnegative(power, "power")
        head = np.empty(0)
        head.setflags(write=False)
        return cls(head=head, coef=eta1, power=power)

    @classmethod
    def explicit(cls, values: Any, tail_power: float | None = None) -> "StepSizes":
        """η_1..η_n from ``values``; continued as η_n(n/t)^a when ``tail_power`` = a, else 0.

        >>> StepSizes.explicit([0.2, 0.1]).eta([1, 2, 3]).tolist()
        [0.2, 0.1, 0.0]
        """
        head = checks.finite_vector(values, "values")
        if np.any(head <= 0.0):
            raise InputError("values (explicit step sizes) must be positive")
        head.setflags(write=False)
        if tail_power is None:
            return cls(head=head, coef=0.0, power=None)
        a = checks.nonnegative(tail_power, "tail_power")
        n0 = head.size
        return cls(head=head, coef=float(head[-1]) * n0**a, power=a)

    @property
    def n_head(self) -> int:
        return int(self.head.size)

    @property
    def eta1(self) -> float:
        return float(self.head[0]) if self.n_head else self.coef

    @property
    def zero_tail(self) -> bool:
        return self.power is None

    def eta(self, t: Any) -> np.ndarray:
        """η_t for integer t ≥ 1 (array in, array out).

        >>> StepSizes.explicit([0.2, 0.1], tail_power=1.0).eta([2, 4]).tolist()  # 0.1·(2/t)
        [0.1, 0.05]
        """
        t_arr = np.asarray(t, dtype=np.int64)
        if np.any(t_arr < 1):
            raise InputError("step sizes are indexed from t = 1")
        out = np.zeros(t_arr.shape)
        in_head = t_arr <= self.n_head
        out[in_head] = self.head[t_arr[in_head] - 1]
        if self.power is not None:
            rest = ~in_head
            out[rest] = self.coef * t_arr[rest].astype(float) ** (-self.power)
        return out

    def nonincreasing(self) -> bool:
        """True when η_t never increases (the proof's "diminishing" step size, eqs. 141, 154).

        >>> StepSizes.explicit([0.1, 0.2]).nonincreasing()
        False
        >>> StepSizes.power_law(0.1, 1.0).nonincreasing()
        True
        """
        if self.n_head > 1 and np.any(np.diff(self.head) > 0.0):
            return False
        return True  # the continuation starts at η_{n₀}(n₀/(n₀+1))^a ≤ η_{n₀} and decreases

    def describe(self) -> str:
        if self.n_head == 0:
            return f"η_t = {self.coef:g}/t^{self.power:g}"
        tail = "0" if self.power is None else f"η_{self.n_head}·({self.n_head}/t)^{self.power:g}"
        return f"{self.n_head} explicit values, then η_t = {tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.describe(),
            "eta1": self.eta1,
            "n_explicit": self.n_head,
            "tail_coef": self.coef,
            "tail_power": self.power,
        }
