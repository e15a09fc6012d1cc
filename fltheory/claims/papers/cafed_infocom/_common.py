"""Shared by the section modules of the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines) (they register through it; it registers nothing
itself): the quadratic instances of the INFOCOM reading of Assumption 2 (§II and §III-B) and the
alias registration of statements whose formulas are lost in this extraction.

Most formulas of this extraction are lost (empty ``| (n) |`` placeholders), and its numbering
differs from the journal version (ids ``cafed:*``, seed 002). Statements shared with the journal
version are registered as aliases that point to the ``cafed:`` claim which checks them (the INFOCOM
text alone is too garbled to check them independently).

>>> shown_decimal(Fraction(1, 10))
Fraction(1, 10)
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, register_claim
from fltheory.claims.space import Instance, Integer, Parameter, Real, Simplex


def quadratic_instance(inst: Instance, conv: Any) -> dict[str, Any]:
    """F_k = (h_k/2)(w − u_k)² (d = 1), F = Σα_kF_k, F_B = Σp_kF_k, W = [lo, hi] with
    lo = min(w*, w_B*) − 10^log_r_lo and hi = max(w*, w_B*) + 10^log_r_hi (both minimisers
    interior)."""
    alpha = [conv(v) for v in np.asarray(inst["alpha"])]
    p = [conv(v) for v in np.asarray(inst["p"])]
    u = [conv(v) for v in np.asarray(inst["u"])]
    h = [conv(v) for v in np.asarray(inst["h"])]

    def argmin(weights: list[Any]) -> Any:
        num = sum((a * b * c for a, b, c in zip(weights, h, u, strict=True)), conv(0))
        return num / sum((a * b for a, b in zip(weights, h, strict=True)), conv(0))

    w_star, w_b = argmin(alpha), argmin(p)
    # radii 10^log_r: W hugging the minimisers (where the bound fails) is drawn often
    lo = min(w_star, w_b) - conv(10.0 ** inst["log_r_lo"])
    hi = max(w_star, w_b) + conv(10.0 ** inst["log_r_hi"])

    def F_k(k: int, w: Any) -> Any:
        return h[k] * (w - u[k]) ** 2 / 2

    def F(weights: list[Any], w: Any) -> Any:
        return sum((a * F_k(k, w) for k, a in enumerate(weights)), conv(0))

    fstar_w = [F_k(k, min(max(u[k], lo), hi)) for k in range(len(u))]  # min of F_k on W
    gamma_w = max(F_k(k, w_star) - fstar_w[k] for k in range(len(u)))
    # Σ(α − p)²/p, not Σα²/p − 1: equal only when Σα = Σp = 1 exactly, which float simplices
    # miss by an ulp — enough to flip the sign when α ≈ p (a spurious "exact" refutation)
    chi2 = sum(((a - b) ** 2 / b for a, b in zip(alpha, p, strict=True)), conv(0))
    kappa = max(h) / min(h)
    # size of the quantities before cancellation (all u equal: both sides are exactly 0)
    size = max(h) * max(max(abs(v) for v in u), abs(lo), abs(hi)) ** 2

    def gap(weights: list[Any], w: Any, w_min: Any) -> Any:
        """F_weights(w) − F_weights(w_min) = ½(Σ weights·h)(w − w_min)² at the minimiser."""
        curv = sum((a * b for a, b in zip(weights, h, strict=True)), conv(0))
        return curv * (w - w_min) ** 2 / 2

    return {
        "gap": gap,
        "alpha": alpha,
        "p": p,
        "w_star": w_star,
        "w_b": w_b,
        "lo": lo,
        "hi": hi,
        "F": F,
        "gamma_w": gamma_w,
        "chi2": chi2,
        "kappa": kappa,
        "size": size,
    }


def shown_decimal(x: Fraction) -> Fraction:
    """The decimal a reader sees for a bound of W computed from binary floats."""
    from fltheory.claims.explain import dec

    return dec(float(x))


QUAD_SPACE: list[Parameter] = [
    Integer("n", 2, 5),
    Simplex("alpha", "n"),
    Simplex("p", "n"),
    Real("u", -10.0, 10.0, size="n", special=(0.0, 1.0, -1.0)),
    Real("h", 0.1, 10.0, size="n", closed=(True, True), special=(1.0,)),
    Real("log_r_lo", -8.0, 1.0, closed=(True, True), special=(0.0, -1.0)),
    Real("log_r_hi", -8.0, 1.0, closed=(True, True), special=(0.0, -1.0)),
]


def register_alias(
    label: str,
    section: str,
    name: str,
    lines: tuple[int, int],
    needed: str,
    target: str,
) -> Claim:
    """Register ``cafed-infocom:<label>`` as a non-executable alias of the journal version's
    ``target`` claim(s): the INFOCOM statement would need ``needed``, lost in this extraction.
    Called by the section modules at import (the claim's origin is the calling module)."""
    return register_claim(
        f"cafed-infocom:{label}",
        section,
        name,
        lines,
        f"Same statement as {target} (journal version).",
        reason=f"needs {needed}, lost in this extraction; the journal version's statement is "
        f"registered as {target}",
    )
