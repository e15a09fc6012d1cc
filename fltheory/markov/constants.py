"""The chain constants that the bounds consume: a plain record shared by every chain type."""

import math
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class ChainConstants:
    """What Theorem 2 needs from an availability chain (CA-Fed ToN, eqs. 5, 156, 157, 229).

    Attributes:
        log_n_states: ln M, the natural log of the number of chain states.
        slem: second largest eigenvalue modulus λ̄₂(P) (eq. 229).
        lam: λ(P) = (λ̄₂ + 1)/2 (eq. 229).
        log_C_P: ln C_P (eq. 156), or None when the Jordan structure could not be determined.
        T_P: eq. 157 (0 when λ̄₂ = 0).
        T_P_safe: eq. 157 with ln(2nᵢ/r) replaced by ln(2nᵢ/(r·λ̄₂)).
        method: "exact", "dense" or "structured".
    """

    log_n_states: float
    slem: float
    lam: float
    log_C_P: float | None
    T_P: int
    T_P_safe: int
    method: str

    @property
    def C_P(self) -> float | None:
        """C_P as a float, or None when it is unknown or overflows a double."""
        if self.log_C_P is None or self.log_C_P > math.log(sys.float_info.max):
            return None
        return math.exp(self.log_C_P)
