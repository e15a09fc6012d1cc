"""CA-Fed (ToN) App. F3, eqs. (236)–(238): the two-state client chain, its stationary law (237)
and second eigenvalue λ₂ = p₀ + p₁ − 1 (238), decided in exact rationals.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:eq236-238")
>>> claim.expected, claim.margin({"pi": 0.5, "lam2": 0.9}) >= 0
('holds', True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed._chains import two_state_exact
from fltheory.claims.space import Instance, Real, Space
from fltheory.errors import InputError, NumericalError

EPS = float(np.finfo(float).eps)
TINY = float(np.finfo(float).tiny)


def _two_state_inputs(inst: Instance) -> tuple[float, float]:
    pi, lam = float(inst["pi"]), float(inst["lam2"])
    if not (0.0 < pi < 1.0):
        raise InputError("π outside (0, 1)")
    piq = Fraction(pi)
    low = 1 - 1 / max(piq, 1 - piq)  # exact: a float at the rounded lower end may lie below
    if not (low <= Fraction(lam) < 1 and lam > -1.0):
        raise InputError("(π, λ₂) outside the admissible range")
    if (1.0 - lam) * min(pi, 1.0 - pi) < TINY:
        # an off-diagonal entry of eq. 236 is subnormal: no float code keeps a relative error
        raise NumericalError("a transition probability is subnormal in floating point")
    return pi, lam


def _eq236(inst: Instance, exact: bool = False) -> Any:
    from fltheory.markov.two_state import two_state_matrix, two_state_params

    pi, lam = _two_state_inputs(inst)
    P = two_state_matrix(pi, lam)
    pi_back, lam_back = (float(x) for x in two_state_params(P))
    piq, lamq = Fraction(pi), Fraction(lam)
    X = two_state_exact(piq, lamq)  # eq. 236 as printed
    p0, p1 = X[0][0], X[1][1]
    identities = (
        all(0 <= v <= 1 for row in X for v in row)
        and all(sum(r) == 1 for r in X)
        and [(1 - p1) / (2 - p0 - p1), (1 - p0) / (2 - p0 - p1)] == [1 - piq, piq]  # (237)
        and all((1 - piq) * X[0][j] + piq * X[1][j] == [1 - piq, piq][j] for j in (0, 1))
        and p0 + p1 - 1 == lamq  # (238)
        and (p0 - lamq) * (p1 - lamq) - X[0][1] * X[1][0] == 0  # λ₂ is an eigenvalue
    )
    if not identities:
        return -1
    # the library's float matrix and round trip, within a few ulps
    err_P = max(abs(Fraction(float(P[i, j])) - X[i][j]) for i in (0, 1) for j in (0, 1))
    err_pi = abs(Fraction(pi_back) - piq) / piq
    err_lam = abs(Fraction(lam_back) - lamq)
    worst = max(err_P / Fraction(2 * EPS), err_pi / Fraction(8 * EPS), err_lam / Fraction(4 * EPS))
    return 1 - worst if exact else float(1 - worst)


register_claim(
    "cafed:eq236-238",
    "App. F3 eqs. (236)–(238)",
    "two-state client chain",
    (1544, 1549),
    "for π ∈ (0, 1) and λ₂ ∈ [1 − 1/max(π, 1 − π), 1): eq. 236 is a stochastic matrix, "
    "eq. 237 gives [1 − π, π] and it is stationary, eq. 238 gives back λ₂, an eigenvalue; the "
    "library's two_state_matrix / two_state_params reproduce them to a few ulps",
    space=Space(
        [
            Real("pi", 0.0, 1.0, special=(0.5, 0.1, 0.9)),
            Real(
                "lam2",
                lambda i: 1.0 - 1.0 / max(i["pi"], 1.0 - i["pi"]),
                1.0,
                closed=(True, False),
                special=(0.0, 0.9, -0.5),
            ),
        ]
    ),
    margin=_eq236,
    exact=lambda i: (Fraction(_eq236(i, True)), "exact rationals (Fractions of the inputs)"),
    tolerance=0.0,
    budget=800,
    expected="holds",
    reading=Reading(
        quote="P_k = [[1 − (1 − λ₂)π_k, (1 − λ₂)π_k], [(1 − λ₂)(1 − π_k), λ₂ + (1 − λ₂)π_k]] "
        "(236); π^(k) = [1 − π_k, π_k] (237); λ₂(P_k) = p₀ + p₁ − 1 (238)",
        hypotheses=(
            Hypothesis(
                "a two-state client with availability π ∈ (0, 1)",
                "λ₂ from the least value keeping (236) stochastic to 1",
            ),
        ),
        interpretation="The identities exactly, for every admissible (π, λ₂) (the full "
        "range of the paper's parametrisation).",
    ),
    notes="Identities checked exactly in Fractions (−1 if any fails); the library's floats "
    "within 2ε (matrix entries, absolute), 8ε (π round trip, relative), 4ε (λ₂, absolute): "
    "margin 1 − the worst error in those units. Boundary: λ₂ at the lower end (a zero entry), "
    "π → 0, 1, λ₂ → 1.",
)
