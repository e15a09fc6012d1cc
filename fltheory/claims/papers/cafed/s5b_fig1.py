"""CA-Fed (ToN) §V-B(a) — the analytic sub-claims of Fig. 1 (l.315): Unbiased equalizes the
importance p = α, AdaFed prioritizes the more available clients (all 2^N availability sets
enumerated), More available keeps a non-vanishing bias; the accuracy gains of Fig. 1a–c are
registered as not executable (experiments).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:fig1-experiments").executable
False
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed._weights import (
    TINY,
    DefectError,
    as_floats,
    dec_list,
    frel,
    normal_products,
    pi_param,
    pis,
    rel,
    require_finite,
    unit_sum,
)
from fltheory.claims.space import Instance, Integer, Simplex, Space
from fltheory.divergence import biased_importance, total_variation
from fltheory.errors import NumericalError

FIG1_QUOTE = (
    "By setting the aggregation weights inversely proportional to the clients' "
    "availabilities, "
    "Unbiased equalizes the importance for all clients […] by excluding all the 'less "
    "available' clients, More available […] introduces a non-vanishing bias error […] "
    "AdaFed indeed prioritizes the 'more available' clients (as shown in Figure 1d)"
)


def _fig1_unbiased(inst: Instance) -> float:
    from fltheory.optimize.guidelines import unbiased_weights

    pi, alpha = pis(inst), unit_sum(inst["alpha"])
    q = unbiased_weights(alpha, pi)
    if np.any((q > 0.0) & (q < TINY)):
        raise NumericalError("the weights underflow to subnormal numbers")
    normal_products(pi, q)
    share = pi * q / float(pi @ q)  # long-run cumulative weight E[1{k∈A}q_k], normalised
    return -float(np.max(np.abs(share - alpha) / alpha))


register_claim(
    "cafed:fig1-unbiased-equalizes",
    "§V-B(a)",
    "Fig. 1d: 'Unbiased equalizes the importance for all clients'",
    (315, 315),
    "With q_k = α_k/π_k on active clients, the cumulative aggregation weight "
    "(1/T)Σ_t 1{k∈A_t}q_k → π_kq_k is proportional to α_k (equal for equal α).",
    space=Space([Integer("n", 1, 50), pi_param(), Simplex("alpha", "n")]),
    margin=_fig1_unbiased,
    tolerance=1e-12,
    notes="Code path: guidelines.unbiased_weights; margin −max_k |π_kq_k/πᵀq − α_k|/α_k "
    "(relative, tolerance 1e-12). TRUE (eq. 4 with p = α; the same fact as "
    "cafed:unbiased-zero-bias). No exact margin: a holding identity.",
    expected="holds",
    reading=Reading(
        quote=FIG1_QUOTE,
        hypotheses=(
            Hypothesis(
                "q_k = α_k/π_k on the active clients, stationary availability π_k ∈ (0, 1]",
                "N ∈ [1, 50]",
            ),
        ),
        interpretation="The long-run cumulative weight π_kq_k is proportional to α_k.",
    ),
)


def _adafed_enumerated(pi: np.ndarray, w: np.ndarray) -> np.ndarray:
    """E[1{k∈A} w_k/Σ_{j∈A} w_j] for independent A_k ~ Bernoulli(π_k), all 2^N sets."""
    n = pi.size
    sets = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)
    prob = np.prod(np.where(sets, pi, 1.0 - pi), axis=1)
    tot = (sets * w).sum(axis=1)
    share = np.divide(sets * w, tot[:, None], out=np.zeros(sets.shape), where=tot[:, None] > 0)
    return prob @ share


#: Largest ratio of AdaFed weights α_k/π_k evaluated (see the claim's notes).
ADAFED_SPAN = 1e60


def _fig1_adafed(inst: Instance) -> float:
    from fltheory.limits.normalised import weighted_harmonic_inclusion

    pi, alpha = pis(inst), as_floats(inst["alpha"]).copy()
    alpha[1] = alpha[0]  # the statement compares clients of equal importance
    alpha = alpha / alpha.sum()
    w = alpha / pi
    require_finite(*w)
    if w.max() > ADAFED_SPAN * w.min():
        # the library's integral cannot resolve such spans (NumericalError) and may take
        # seconds to say so
        raise NumericalError("AdaFed weights spanning over 60 decades are not evaluated")
    code, _ = weighted_harmonic_inclusion(pi, w)
    oracle = _adafed_enumerated(pi, w)
    if not np.allclose(code, oracle, rtol=1e-9, atol=1e-300):
        raise DefectError(f"weighted_harmonic_inclusion {code} ≠ enumeration {oracle}")
    hi, lo = (0, 1) if pi[0] >= pi[1] else (1, 0)
    if pi[hi] == pi[lo]:
        return 1.0
    return rel(float(code[hi]), float(code[lo]))


def _fig1_adafed_exact(inst: Instance) -> tuple[Any, str]:
    P, raw = dec_list(inst["pi"]), dec_list(inst["alpha"])
    raw[1] = raw[0]
    A = [x / sum(raw) for x in raw]
    w = [a / p for a, p in zip(A, P, strict=True)]
    n = len(P)
    c = [Fraction(0)] * n
    for mask in range(1 << n):
        members = [k for k in range(n) if mask >> k & 1]
        if not members:
            continue
        prob = Fraction(1)
        for k in range(n):
            prob *= P[k] if mask >> k & 1 else 1 - P[k]
        tot = sum(w[k] for k in members)
        for k in members:
            c[k] += prob * w[k] / tot
    hi, lo = (0, 1) if P[0] >= P[1] else (1, 0)
    return (frel(c[hi], c[lo]) if P[hi] != P[lo] else Fraction(1)), "exact rationals (all 2^N sets)"


register_claim(
    "cafed:fig1-adafed-priority",
    "§V-B(a)",
    "Fig. 1d: 'AdaFed indeed prioritizes the more available clients'",
    (315, 315),
    "AdaFed (q_k = (α_k/π_k)/Σ_{j∈A_t}α_j/π_j on the active set, independent clients at "
    "stationarity) gives a client of equal α but larger π a larger cumulative weight "
    "E[1{k∈A}q_k].",
    space=Space([Integer("n", 2, 6), pi_param(), Simplex("alpha", "n")]),
    margin=_fig1_adafed,
    exact=_fig1_adafed_exact,
    notes="Clients 0 and 1 get the same α (α₁ := α₀, renormalised); margin: relative excess of "
    "the more available one's E[1{k∈A}q_k]. Code path "
    "limits.normalised.weighted_harmonic_inclusion(π, α/π) (p first), checked against "
    "an enumeration of all 2^N availability sets (DefectError on disagreement). TRUE: "
    "c_i − c_j = α[(π_i − π_j)(E 1/(w_j + R) − E 1/(w_i + w_j + R)) + (1 − π_j)(E "
    "1/(w_i + R) − E 1/(w_j + R))] ≥ 0 for w_i = α/π_i < w_j. For the paper's "
    "population (g = 0.4, α uniform) the more available half gets 0.5234 in total "
    "(inventory: Monte Carlo 0.5235). With unequal α the ranking can flip; the paper's "
    "α are not given. Budget 200: the adaptive integral costs ~10–50 ms (more when the "
    "weights span hundreds of decades); instances it cannot resolve (NumericalError) "
    "are skipped.",
    budget=200,
    expected="holds",
    reading=Reading(
        quote=FIG1_QUOTE,
        hypotheses=(
            Hypothesis(
                "independent clients at stationarity, π_k ∈ (0, 1]",
                "N ∈ [2, 6] (all 2^N sets enumerated)",
            ),
            Hypothesis(
                "clients compared at equal α (the paper's populations "
                "differ in availability, not importance)",
                "α₂ := α₁",
            ),
        ),
        interpretation="Of two clients of equal importance, the more available one gets the "
        "larger cumulative AdaFed weight.",
    ),
)


def _fig1_more_available(inst: Instance) -> float:
    from fltheory.optimize.guidelines import unbiased_weights

    pi, alpha = pis(inst), unit_sum(inst["alpha"])
    n = pi.size
    keep = np.arange(n) < max(1, n - int(inst["n_excl"]))
    q = unbiased_weights(alpha, pi, keep, 1.0)
    tv = float(total_variation(alpha, biased_importance(q, pi)))
    lost = float(alpha[~keep].sum())
    # d_TV = α(excluded) (absolute error: d_TV ∈ [0, 1]) and > 0
    return min(-abs(tv - lost), lost)


register_claim(
    "cafed:fig1-more-available-bias",
    "§V-B(a)",
    "'More available … introduces a non-vanishing bias error'",
    (315, 315),
    "Excluding the less available clients (More available) leaves p ≠ α for ever: "
    "d_TV(α, p) = α(excluded) > 0, so the bias term of eq. (15) does not vanish.",
    space=Space([Integer("n", 2, 50), Integer("n_excl", 1, 49), pi_param(), Simplex("alpha", "n")]),
    margin=_fig1_more_available,
    tolerance=1e-12,
    notes="Excluded = the last n_excl ≥ 1 clients (α, π free per client; at least one kept); "
    "weights α/π on the rest (guidelines.unbiased_weights). Margin: min of "
    "−|d_TV − α(excl)| (absolute: d_TV ∈ [0, 1]; tolerance 1e-12) and α(excl) (> 0 "
    "needs α > 0 on the excluded set, as α from the simplex has). TRUE. "
    "Whether ε_bias = F(w_B*) − F* > 0 also depends on the data (it is 0 when the "
    "excluded clients' minimisers happen to balance), so only the d_TV form is claimed.",
    expected="holds",
    reading=Reading(
        quote=FIG1_QUOTE,
        hypotheses=(
            Hypothesis("some clients excluded for ever, α_k > 0", "n_excl ≥ 1 of N ∈ [2, 50]"),
        ),
        interpretation="The bias term's factor d_TV(α, p) = α(excluded) > 0 does not vanish "
        "(ε_bias itself depends on the data).",
    ),
)

register_claim(
    "cafed:fig1-experiments",
    "§V-B(a)",
    "Fig. 1a–c: +1.56 pp (Synthetic), +0.94 pp (MNIST), +1.32 pp (CIFAR-10) over AdaFed",
    (315, 315),
    "CA-Fed (κ̄² = 1) outperforms every baseline in test accuracy, by +1.56 / +0.94 / "
    "+1.32 pp over the second best, AdaFed.",
    reason="Empirical: the accuracy gains need the authors' data splits (LEAF Synthetic, MNIST "
    "and CIFAR-10 under Dirichlet(0.5)), the tuned rates of Table II and 10 seeds; the "
    "README records that the ranking is not reproduced with Table II's Synthetic rates. "
    "Its analytic sub-claims are cafed:fig1-unbiased-equalizes, "
    "cafed:fig1-adafed-priority and cafed:fig1-more-available-bias.",
)
