"""App. D — convexity of the ε_opt problem and of its perspective form (l.169–172), legible in the
INFOCOM 2023 version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:appd-convex").expected
'holds'
"""

from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _appd_gaps(inst: Instance, conv: Any) -> tuple[Any, Any, Any]:
    a = [conv(v) for v in np.asarray(inst["a"])]
    pi = [conv(v) for v in np.asarray(inst["pi"])]
    q1 = [conv(v) for v in np.asarray(inst["q1"])]
    q2 = [conv(v) for v in np.asarray(inst["q2"])]
    B, z = conv(inst["B"]), conv(inst["zeta"])

    def f(q: list[Any]) -> Any:
        quad = sum((ak * qk * qk for ak, qk in zip(a, q, strict=True)), conv(0)) / 2
        return (quad + B) / sum((pk * qk for pk, qk in zip(pi, q, strict=True)), conv(0))

    def g(y: list[Any], s: Any) -> Any:  # the perspective form f(y, s) = yᵀAy/(2s) + Bs
        return sum((ak * yk * yk for ak, yk in zip(a, y, strict=True)), conv(0)) / (2 * s) + B * s

    mid = [z * x + (1 - z) * y for x, y in zip(q1, q2, strict=True)]
    gap_q = z * f(q1) + (1 - z) * f(q2) - f(mid)
    scale = abs(z * f(q1)) + abs((1 - z) * f(q2)) + abs(f(mid))
    # (y, s) = (q/πᵀq, 1/πᵀq) maps the q-problem onto the perspective form
    s1 = 1 / sum((pk * qk for pk, qk in zip(pi, q1, strict=True)), conv(0))
    s2 = 1 / sum((pk * qk for pk, qk in zip(pi, q2, strict=True)), conv(0))
    y1, y2 = [v * s1 for v in q1], [v * s2 for v in q2]
    ym = [z * x + (1 - z) * y for x, y in zip(y1, y2, strict=True)]
    sm = z * s1 + (1 - z) * s2
    gap_ys = z * g(y1, s1) + (1 - z) * g(y2, s2) - g(ym, sm)
    scale_ys = abs(z * g(y1, s1)) + abs((1 - z) * g(y2, s2)) + abs(g(ym, sm))
    return gap_q / (scale or 1), gap_ys / (scale_ys or 1), scale


def _appd_where(inst: Instance) -> bool:
    pi = np.asarray(inst["pi"])
    return bool(pi @ np.asarray(inst["q1"]) > 0 and pi @ np.asarray(inst["q2"]) > 0)


def _appd_margin(inst: Instance) -> float:
    with np.errstate(all="ignore"):
        g1, g2, _ = _appd_gaps(inst, float)
    if not (np.isfinite(g1) and np.isfinite(g2)):
        raise NumericalError("πᵀq underflows: f overflows")
    return min(g1, g2)


def _appd_exact(inst: Instance) -> ExactMargin:
    g1, g2, _ = _appd_gaps(inst, fr)
    return min(g1, g2), "exact rationals"


register_claim(
    "cafed-infocom:appd-convex",
    "App. D",
    "the ε_opt problem and its perspective form are convex",
    (169, 172),
    "f(q) = (½qᵀAq + B)/(πᵀq) + C is convex on {q ≥ 0, πᵀq > 0}; with y = q/πᵀq, s = 1/πᵀq "
    "the objective f(y, s) = yᵀAy/(2s) + Bs + C is the perspective of a convex function, hence "
    "convex.",
    space=Space(
        [
            Integer("n", 1, 6),
            Real("a", 0.0, 10.0, size="n", closed=(True, True), special=(0.0, 1.0)),
            Real("pi", 0.0, 1.0, size="n", closed=(False, True), special=(1.0, 0.5)),
            Real("q1", 0.0, 5.0, size="n", closed=(True, True), special=(0.0, 1.0)),
            Real("q2", 0.0, 5.0, size="n", closed=(True, True), special=(0.0, 1.0)),
            Real("B", 0.0, 10.0, closed=(True, True), special=(0.0, 1.0)),
            Real("zeta", 0.0, 1.0, special=(0.5,)),
        ],
        where=_appd_where,
    ),
    margin=_appd_margin,
    exact=_appd_exact,
    tolerance=1e-12,
    expected="holds",
    notes="A = diag(a) ⪰ 0 and B ≥ 0 (as the journal's (209)–(211) define them; lost here). "
    "Margin: the smaller relative midpoint gap ζf(q) + (1 − ζ)f(q′) − f(ζq + (1 − ζ)q′), in q "
    "and in (y, s); exact in rationals. Quadratic-over-linear plus B/(linear) is convex on "
    "πᵀq > 0, so this holds off the slice ‖q‖₁ = Q as well. Same mathematics as "
    "cafed:appE1-convex (journal App. E1).",
)
