"""The constants of Lemma 16 / eq. (5): max_ij |[Pᵗ]_ij − ρ_j| ≤ C_P λ(P)ᵗ for t ≥ T_P.

CA-Fed ToN Appendix B2 (from Sun, Sun & Yin 2018, Lemma 1), with P = UJU⁻¹ in Jordan form
and blocks i = 2..d (every block except the eigenvalue-1 block) of sizes nᵢ:

* C_P (eq. 156) = (Σ_{i≥2} nᵢ²)^{1/2} · ‖U‖_F‖U⁻¹‖_F. U is not unique: U·D with
  D = diag(d_B I_{n_B}) (one scalar per block) is an equally valid Jordan basis. We take the D
  minimising ‖UD‖_F‖D⁻¹U⁻¹‖_F; since ‖UD‖_F² = Σ_B d_B²‖U_B‖_F² and
  ‖D⁻¹U⁻¹‖_F² = Σ_B ‖(U⁻¹)_B‖_F²/d_B², Cauchy–Schwarz gives the minimum
  Σ_B ‖U_B‖_F‖(U⁻¹)_B‖_F over *all* blocks (the eigenvalue-1 block included, as in eq. 156),
  reached at d_B² = ‖(U⁻¹)_B‖_F/‖U_B‖_F. For distinct eigenvalues this is the sum of the
  eigenvalue condition numbers. Where a semisimple eigenvalue μ repeats, its eigenbasis is
  free too: Σ_{i∈μ}‖uᵢ‖‖wᵢ‖ ≥ ‖Π_μ‖_* (nuclear norm of the spectral projector
  Π_μ = Σ uᵢwᵢ, triangle inequality), with equality for the basis read off the SVD of Π_μ,
  which both paths use. So for diagonalisable P, C_P = √(M−1)·Σ_μ ‖Π_μ‖_*, a function of P
  alone. For Jordan blocks of size ≥ 2 the chain basis is one valid choice, not optimised.
  (Dropping the eigenvalue-1 block would give a smaller valid constant, since Pᵗ − 1ρᵀ has no
  component there; we keep the paper's C_P.)
* T_P (eq. 157) = max{ max_i ⌈2nᵢ(nᵢ−1)(ln(2nᵢ/r) − 1)/((nᵢ+1) r)⌉, 0 }, r = ln(λ(P)/λ̄₂).
  The extraction prints ln λ(P)/|λ̄₂| in places; we read it as ln(λ(P)/λ̄₂), the only reading
  that is positive and matches the 0.85 example. Undefined at λ̄₂ = 0, where we return 0 (its
  limit as λ̄₂ → 0).
* T_P_safe: eq. 157 with ln(2nᵢ/(r·λ̄₂)) in place of ln(2nᵢ/r); at λ̄₂ = 0 its limit
  max_i ⌈2nᵢ(nᵢ−1)/(nᵢ+1)⌉.
* T_entrywise: the smallest t₀ such that every entry of every non-unit block power obeys
  C(t, j)|μ|^{t−j} ≤ λ(P)ᵗ for all t ≥ t₀ — the step of the proof that T_P is meant to
  guarantee (it gives ‖J_iᵗ‖_F ≤ nᵢλ(P)ᵗ). For one block of size 2 at 0.85: T_P = 46 while
  T_entrywise = 48 = T_P_safe, so the paper's T_P can be too small for that step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fltheory.errors import NumericalError
from fltheory.markov.constants import ChainConstants

if TYPE_CHECKING:
    from fltheory.markov.jordan import JordanData


def log_C_P(jd: JordanData) -> float:
    """ln C_P (eq. 156) with the optimal block scaling; −inf for a one-state chain."""
    squares = sum(n * n for _, n in jd.nonunit_blocks)
    if squares == 0:
        return -math.inf
    logs = np.asarray(jd.log_block_products)
    top = float(logs.max())
    return 0.5 * math.log(squares) + top + math.log(float(np.exp(logs - top).sum()))


def _r(slem: float) -> float:
    """r = ln(λ(P)/λ̄₂) = ln(1 + (1 − λ̄₂)/(2λ̄₂)), accurate as λ̄₂ → 1 (and finite for a
    subnormal λ̄₂, where (1 − λ̄₂)/(2λ̄₂) overflows)."""
    if slem < 1e-300:
        return math.log1p(slem) - math.log(2.0) - math.log(slem)
    return math.log1p((1.0 - slem) / (2.0 * slem))


def _T_formula(sizes: list[int], slem: float, *, safe: bool) -> int:
    if slem == 0.0:
        if not safe:
            return 0
        return max((math.ceil(2 * n * (n - 1) / (n + 1)) for n in sizes), default=0)
    r = _r(slem)
    best = 0
    for n in sizes:
        if n == 1:
            continue
        arg = 2 * n / (r * slem) if safe else 2 * n / r
        if 0.0 < arg < math.inf:
            log_arg = math.log(arg)
        else:  # r·λ̄₂ under- or overflows (subnormal λ̄₂): the same logarithm, term by term
            log_arg = math.log(2 * n) - math.log(r) - (math.log(slem) if safe else 0.0)
        best = max(best, math.ceil(2 * n * (n - 1) * (log_arg - 1) / ((n + 1) * r)))
    return best


def T_P(blocks: tuple[tuple[complex, int], ...] | list[tuple[complex, int]], slem: float) -> int:
    """T_P of eq. (157) over the given non-unit blocks (0 when λ̄₂ = 0)."""
    return _T_formula([n for _, n in blocks], slem, safe=False)


def T_P_safe(
    blocks: tuple[tuple[complex, int], ...] | list[tuple[complex, int]], slem: float
) -> int:
    """Eq. (157) with ln(2nᵢ/(r λ̄₂)) in place of ln(2nᵢ/r)."""
    return _T_formula([n for _, n in blocks], slem, safe=True)


def _log_term(t: int, j: int, m: float, lam: float) -> float:
    """ln(C(t, j) m^{t−j} / λᵗ) for t ≥ j, m > 0."""
    log_binom = math.lgamma(t + 1) - math.lgamma(j + 1) - math.lgamma(t - j + 1)
    return log_binom + (t - j) * math.log(m) - t * math.log(lam)


def _first_good_time(j: int, m: float, lam: float) -> int:
    """Smallest t₀ with C(t, j) m^{t−j} ≤ λᵗ for all t ≥ t₀ (j ≥ 1, 0 < m < λ).

    f(t) = C(t, j) m^{t−j}/λᵗ is unimodal in t ≥ j (f(t+1)/f(t) = (t+1)m/((t+1−j)λ) decreases),
    so past its peak the first t with f(t) ≤ 1 is found by doubling and bisection.
    """
    peak = max(j, math.ceil(j * lam / (lam - m)) - 1)
    window = range(max(j, peak - 2), peak + 3)
    peak = max(window, key=lambda t: _log_term(t, j, m, lam))
    if _log_term(peak, j, m, lam) <= 0.0:
        return 0
    lo, step = peak, 1
    while _log_term(lo + step, j, m, lam) > 0.0:
        lo, step = lo + step, step * 2
    hi = lo + step  # f(lo) > 1 ≥ f(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _log_term(mid, j, m, lam) > 0.0:
            lo = mid
        else:
            hi = mid
    return hi


def T_entrywise(
    blocks: tuple[tuple[complex, int], ...] | list[tuple[complex, int]], lam: float
) -> int:
    """Smallest t₀: max_{0≤j<n} C(t, j)|μ|^{t−j} ≤ λᵗ for every block (μ, n) and all t ≥ t₀."""
    best = 0
    for mu, n in blocks:
        m = abs(mu)
        for j in range(1, n):
            # μ = 0: the only nonzero entry is C(j, j)·0⁰ = 1 at t = j, and 1 > λʲ.
            t0 = j + 1 if m == 0.0 else _first_good_time(j, m, lam)
            best = max(best, t0)
    return best


@dataclass(frozen=True)
class Lemma16Record:
    """ChainConstants plus the data behind them."""

    constants: ChainConstants
    T_entrywise: int
    blocks: tuple[tuple[complex, int], ...]
    log_block_products: tuple[float, ...]
    diagnostics: dict


def lemma16_record(jd: JordanData) -> Lemma16Record:
    """All Lemma 16 constants from the Jordan data (λ̄₂ is the largest non-unit modulus).

    ``C_P_minimal`` is True for a diagonalisable P (semisimple clusters get the basis of least
    Σ‖uᵢ‖‖wᵢ‖, so C_P = √(M − 1)·Σ_μ ‖Π_μ‖_*), False with Jordan blocks of size ≥ 2.

    >>> from fltheory.markov.jordan import numeric_jordan
    >>> rec = lemma16_record(numeric_jordan([[0.5, 0.5], [0.3, 0.7]]))
    >>> rec.constants.slem, rec.constants.T_P, rec.constants.C_P_minimal
    (0.2, 0, True)
    """
    slem = jd.slem
    if not slem < 1.0:
        raise NumericalError(
            f"second largest eigenvalue modulus {slem!r} is not below 1: the spectral gap is "
            "below floating-point resolution; use the exact path"
        )
    lam = (slem + 1.0) / 2.0
    blocks = jd.nonunit_blocks
    M = sum(n for _, n in jd.blocks)
    constants = ChainConstants(
        log_n_states=math.log(M),
        slem=slem,
        lam=lam,
        log_C_P=log_C_P(jd),
        T_P=T_P(blocks, slem),
        T_P_safe=T_P_safe(blocks, slem),
        method=jd.method,
        C_P_minimal=all(n == 1 for _, n in jd.blocks),
    )
    return Lemma16Record(
        constants=constants,
        T_entrywise=T_entrywise(blocks, lam),
        blocks=jd.blocks,
        log_block_products=jd.log_block_products,
        diagnostics=jd.diagnostics,
    )


def lemma16_constants(jd: JordanData) -> ChainConstants:
    """The :class:`ChainConstants` of Lemma 16 (eqs. 156, 157, 229) from the Jordan data."""
    return lemma16_record(jd).constants
