"""Two statements about the γ-rule's bias, as claims that ``fltheory check`` searches.

With p(γ) ∝ α π^(1−γ) the rule's effective weights (:mod:`gamma_rule.weights`) and s = 1 − γ:

* ``gammarule:lemma1`` — d_TV(p(γ), α) ≤ 1 − (π_min/π_max)^s. Proof: p_k/α_k = π_k^s / E_α[π^s]
  ≥ (π_min/π_max)^s, and d_TV = Σ_k α_k (1 − p_k/α_k)⁺. Expected to hold.
* ``gammarule:lemma2-linear`` — d_TV(p(γ), α) ≤ s · d_TV(p(0), α): "the bias shrinks at least
  linearly in γ". Plausible, and false: the tilted weights move fastest near γ = 1, so the
  falsifier finds a counterexample, confirmed in 50-digit arithmetic.
"""

import mpmath
import numpy as np

from fltheory.claims import Claim, Integer, Real, Simplex, Source, Space, register, register_paper
from gamma_rule.weights import effective_weights, total_variation

PAPER = register_paper("gammarule", "The γ-weighted aggregation note (fltheory example plug-in)")

SPACE = Space(
    [
        Integer("n", 2, 6),
        Simplex("alpha", "n"),
        Real("pi", 0.0, 1.0, size="n", closed=(False, True)),
        Real("gamma", 0.0, 1.0, closed=(True, True)),
    ]
)


def _bias(inst: dict, gamma: float) -> float:
    return total_variation(effective_weights(inst["alpha"], inst["pi"], gamma), inst["alpha"])


def lemma1_margin(inst: dict) -> float:
    """1 − (π_min/π_max)^(1−γ) − d_TV(p(γ), α)."""
    pi, s = inst["pi"], 1.0 - inst["gamma"]
    return float(1.0 - (pi.min() / pi.max()) ** s - _bias(inst, inst["gamma"]))


def lemma2_margin(inst: dict) -> float:
    """(1 − γ)·d_TV(p(0), α) − d_TV(p(γ), α)."""
    return (1.0 - inst["gamma"]) * _bias(inst, 0.0) - _bias(inst, inst["gamma"])


def _bias_mp(alpha: list, pi: list, gamma: mpmath.mpf) -> mpmath.mpf:
    tilted = [a * p ** (1 - gamma) for a, p in zip(alpha, pi, strict=True)]
    total = mpmath.fsum(tilted)
    return mpmath.fsum(abs(t / total - a) for t, a in zip(tilted, alpha, strict=True)) / 2


def _exact(margin: str):
    """The margin again in 50-digit arithmetic, from the float instance's exact values."""

    def exact(inst: dict) -> tuple[float, str]:
        with mpmath.workdps(50):
            alpha = [mpmath.mpf(float(a)) for a in inst["alpha"]]
            alpha = [a / mpmath.fsum(alpha) for a in alpha]
            pi = [mpmath.mpf(float(p)) for p in inst["pi"]]
            gamma = mpmath.mpf(float(inst["gamma"]))
            bias = _bias_mp(alpha, pi, gamma)
            if margin == "lemma1":
                value = 1 - (min(pi) / max(pi)) ** (1 - gamma) - bias
            else:
                value = (1 - gamma) * _bias_mp(alpha, pi, mpmath.mpf(0)) - bias
            return float(value), "mpmath, 50 digits"

    return exact


register(
    Claim(
        "gammarule:lemma1",
        Source(PAPER, "§2", "Lemma 1"),
        "d_TV(p(γ), α) ≤ 1 − (π_min/π_max)^(1−γ) for the γ-rule's weights p(γ) ∝ α π^(1−γ)",
        SPACE,
        margin=lemma1_margin,
        exact=_exact("lemma1"),
        budget=400,
        expected="holds",
    )
)

register(
    Claim(
        "gammarule:lemma2-linear",
        Source(PAPER, "§2", "Lemma 2 (linear form)"),
        "d_TV(p(γ), α) ≤ (1 − γ)·d_TV(p(0), α): the bias shrinks at least linearly in γ",
        SPACE,
        margin=lemma2_margin,
        exact=_exact("lemma2"),
        budget=400,
        expected="refuted",
    )
)


def instance(n: int = 2) -> dict:
    """A two-client instance where lemma 2 fails (for the docs).

    >>> lemma2_margin(instance()) < 0 <= lemma1_margin(instance())
    True
    """
    return {
        "n": n,
        "alpha": np.array([0.67, 0.33]),
        "pi": np.array([0.001, 0.7]),
        "gamma": 0.58,
    }
