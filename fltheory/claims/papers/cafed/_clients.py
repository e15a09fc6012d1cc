"""CA-Fed (ToN) estimator arithmetic shared by §IV-B and App. B2 (registers nothing): the
quadratic federation of an estimator instance and the exact gap of the proxy ⟨F̂ − F̂*, π̂ ⊙̃ q⟩ of
F_B − F_B* (eqs. 18–20), used by the estimator claims (``s4b_estimators``) and Lemma 18's step
(171) (``app_b2_lemmas_17_18``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from fltheory.claims.space import Instance
from fltheory.errors import InputError, NumericalError


def quad_inputs(
    inst: Instance,
) -> tuple[
    list[list[Fraction]], list[list[Fraction]], list[Fraction], list[Fraction], list[Fraction]
]:
    """(u (N×2), h (N×2), w (2), p (N), c (N)) as rationals; p = π ⊙̃ q (eq. 20)."""
    n = int(inst["N"])
    u = [[Fraction(float(inst[f"u{i}"][k])) for i in (1, 2)] for k in range(n)]
    h = [[Fraction(float(inst[f"h{i}"][k])) for i in (1, 2)] for k in range(n)]
    w = [Fraction(float(inst["w1"])), Fraction(float(inst["w2"]))]
    pi = [Fraction(float(x)) for x in inst["pi"]]
    q = [Fraction(float(x)) for x in inst["q"]]
    total = sum((a * b for a, b in zip(pi, q, strict=True)), Fraction(0))
    if total <= 0:
        raise InputError("πᵀq must be positive")
    if float(np.asarray(inst["pi"], dtype=float) @ np.asarray(inst["q"], dtype=float)) < 1e-290:
        raise NumericalError("πᵀq underflows in floating point")
    p = [a * b / total for a, b in zip(pi, q, strict=True)]
    c = [Fraction(float(x)) for x in inst["c"]]
    return u, h, w, p, c


def proxy_gap(inst: Instance) -> tuple[Fraction, Fraction]:
    """(⟨F(w) − F*, p⟩, F_B(w) − F_B*) exactly, for F_k(w) = ½Σᵢ h_ki(wᵢ − u_ki)² + c_k."""
    u, h, w, p, _ = quad_inputs(inst)
    proxy = sum(
        (
            pk * sum(hk[i] * (w[i] - uk[i]) ** 2 for i in (0, 1)) / 2
            for pk, uk, hk in zip(p, u, h, strict=True)
        ),
        Fraction(0),
    )
    gap = Fraction(0)
    for i in (0, 1):
        mass = sum((pk * hk[i] for pk, hk in zip(p, h, strict=True)), Fraction(0))
        if mass == 0:
            continue
        star = (
            sum((pk * hk[i] * uk[i] for pk, uk, hk in zip(p, u, h, strict=True)), Fraction(0))
            / mass
        )
        gap += mass * (w[i] - star) ** 2 / 2
    return proxy, gap
