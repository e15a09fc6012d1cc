"""CA-Fed (ToN) availability chains shared by the chain-level claim modules (registers nothing).

The instance spaces of the chain families — dense chains, chains built from a chosen real Jordan
form (blocks of size ≥ 2, complex eigenvalues, λ̄₂ near 0 and 1), de Bruijn (shift-register)
chains, reversible chains and products of two-state clients (eq. 236) — built exactly over Q and
cached (:func:`build_chain`, :class:`Chain`); the canonical simplifier; Assumption 1 as a
hypothesis; and the formulas several sections use: T_P of eq. (157) (:func:`tp_formula`), J_t of
eq. (132) (:func:`jt_code`), the two-state chain of eq. (236) (:func:`two_state_exact`). The exact
oracles are in :mod:`fltheory.claims.papers.cafed._chain_oracles`.

Budgets: the chain and client claims (37 claims, the section modules ``s3a_chains``,
``app_b2_*``, ``app_f*``, ``s3d_guideline_b``, ``s4b_estimators``, ``s5a_population``,
``s5b_clients``) run at their default budgets in about 40 s of CPU (80 s wall on a loaded
two-core machine), their share of the paper's five minutes; the chain claims (library's exact
Jordan path, 0.05–1 s per chain) have budgets of 80–250, lowered from 150–600.

>>> from fractions import Fraction
>>> two_state_exact(Fraction(1, 2), Fraction(1, 2))
[[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.finding import Hypothesis
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.space import Instance, Integer, Parameter, Real, Simplex, Space
from fltheory.errors import FLTheoryError, InputError

#: Largest dense / Jordan chain (the library's exact path costs 0.2–2 s beyond 7 states).
MAX_DENSE = 6
MAX_JORDAN_STATES = 7


FAMILIES = ("dense", "jordan", "debruijn", "product", "reversible")


def _chain_params(families: tuple[str, ...], k_max: int = 3) -> list[Parameter]:
    """The parameters of the chain families ``families`` (selected by ``family``); de Bruijn
    chains have k ≤ ``k_max`` coin flips (2^k states)."""
    params: list[Parameter] = [Integer("family", 0, len(families) - 1)]
    if "dense" in families or "reversible" in families:
        params += [Integer("M", 2, MAX_DENSE)]
        params += [Simplex(f"r{i}", "M") for i in range(MAX_DENSE)]
        params += [
            Real("lazy", 0.0, 1.0, closed=(True, False), special=(0.0, 0.5)),
            Real("cyc", 0.0, 1.0, closed=(True, False), special=(0.0, 0.5)),
        ]
    if "jordan" in families:
        params += [Integer("nb", 1, 3)]
        params += [Integer(f"n{b}", 1, 5) for b in range(3)]
        params += [
            Real(f"a{b}", -1.0, 1.0, closed=(True, True), special=(0.0, 1.0, -1.0))
            for b in range(3)
        ]
        params += [
            Real(f"th{b}", 0.0, math.pi, closed=(True, True), special=(0.0,)) for b in range(3)
        ]
        params += [
            Real("coup", 0.05, 20.0, special=(1.0,)),
            Simplex("rhow", MAX_JORDAN_STATES),
            Real("shrink", 0.0, 1.0, closed=(False, True), special=(1.0,)),
            Real("lazyj", 0.0, 1.0, closed=(True, False), special=(0.0,)),
        ]
    if "debruijn" in families:
        params += [
            Integer("k", 1, k_max),
            Real("p", 0.0, 1.0, special=(0.5,)),
            Real("lazyd", 0.0, 1.0, closed=(True, False), special=(0.0,)),
        ]
    if "product" in families:
        params += [
            Integer("N", 1, 3),
            Real("pi", 0.0, 1.0, size="N", special=(0.5,)),
            Real("l2", lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.5, 0.9)),
        ]
    return params


def lambda2_low(inst: Instance) -> np.ndarray:
    """The lower end 1 − 1/max(π, 1 − π) of the admissible λ₂ (eq. 236 stochastic)."""
    pi = np.asarray(inst["pi"], dtype=float)
    return 1.0 - 1.0 / np.maximum(pi, 1.0 - pi)


@dataclass
class Chain:
    """One chain instance: exact matrix, floats, the library object, and its exact spectrum.

    ``eigen`` lists the distinct non-unit eigenvalues (mpmath numbers, ≥ 30 digits) with their
    algebraic multiplicities, and ``sq`` is Σ nᵢ² over the non-unit Jordan blocks; both come
    from the construction or from exact computations on the rational matrix, never from the
    library.
    """

    family: str
    P: orc.Matrix
    Pf: np.ndarray
    rho: list[Fraction]
    rho_f: np.ndarray
    code: Any  # MarkovChain or ProductChain
    eigen: list[tuple[Any, int]]
    known_sq: int | None
    jordan: orc.JordanChain | None = None
    product: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def M(self) -> int:
        return len(self.P)

    @property
    def sq(self) -> int:
        """Σ nᵢ² over the non-unit Jordan blocks (exact ranks over Q unless known)."""
        if self.known_sq is None:
            self.known_sq = orc.jordan_square_sum(self.P)
        return self.known_sq

    @property
    def slem(self) -> Any:
        """λ̄₂ (mpmath)."""
        import mpmath

        return max((abs(z) for z, _ in self.eigen), default=mpmath.mpf(0))


def _jordan_blocks(inst: Instance) -> list[tuple[Fraction, Fraction, int]]:
    """The real Jordan blocks (a, b, n) of a ``jordan`` instance, truncated to M ≤ 7."""
    blocks = []
    room = MAX_JORDAN_STATES - 1
    for b in range(int(inst["nb"])):
        r, th = float(inst[f"a{b}"]), float(inst[f"th{b}"])
        re, im = orc.rat(r * math.cos(th), 20), orc.rat(r * math.sin(th), 20)
        width = 2 if im != 0 else 1
        n = min(int(inst[f"n{b}"]), room // width)
        if n == 0:
            break
        blocks.append((re, im, n))
        room -= n * width
    return blocks


def two_state_exact(pi: Fraction, lam: Fraction) -> orc.Matrix:
    """Eq. 236 in exact rationals."""
    a = 1 - lam
    return [[1 - a * pi, a * pi], [a * (1 - pi), 1 - a * (1 - pi)]]


def mp(x: Fraction) -> Any:
    """A Fraction as an mpmath number (at the working precision)."""
    import mpmath

    return mpmath.mpf(x.numerator) / x.denominator


def mp_any(x: Any) -> Any:
    """A Fraction, int or mpmath number as an mpmath number (Fractions exactly rounded)."""
    return mp(x) if isinstance(x, Fraction) else x


def _relevant(inst: Instance, family: str) -> tuple[Any, ...]:
    """The parameters that determine the chain of ``family`` (a hashable key)."""

    def vec(name: str, n: int | None = None) -> tuple[float, ...]:
        return tuple(float(x) for x in np.ravel(inst[name])[:n])

    if family in ("dense", "reversible"):
        M = int(inst["M"])
        rows = tuple(vec(f"r{i}", M) for i in range(M))
        return (family, M, rows, float(inst["lazy"]), float(inst.get("cyc", 0.0)))
    if family == "jordan":
        nb = int(inst["nb"])
        blocks = tuple(
            (int(inst[f"n{b}"]), float(inst[f"a{b}"]), float(inst[f"th{b}"])) for b in range(nb)
        )
        return (
            family,
            blocks,
            float(inst["coup"]),
            vec("rhow"),
            float(inst["shrink"]),
            float(inst["lazyj"]),
        )
    if family == "debruijn":
        return (family, int(inst["k"]), float(inst["p"]), float(inst["lazyd"]))
    return (family, vec("pi"), vec("l2"))


_CHAIN_CACHE: dict[tuple[Any, ...], Chain | FLTheoryError] = {}
_CACHE_SIZE = 128


def build_chain(inst: Instance, families: tuple[str, ...]) -> Chain:
    """The chain of ``inst`` (AssumptionViolation / InputError, both FLTheoryErrors, decline
    reducible or periodic draws). Chains are cached by the parameters that define them, so
    the library's constants (exact path: 0.2–1 s) are computed once per chain even when the
    falsifier re-evaluates it (exact re-evaluation, shrinking moves of unused parameters)."""
    family = families[int(inst["family"])]
    key = _relevant(inst, family)
    hit = _CHAIN_CACHE.get(key)
    if hit is None:
        try:
            hit = _build_chain_uncached(inst, family)
        except FLTheoryError as exc:
            hit = exc
        if len(_CHAIN_CACHE) >= _CACHE_SIZE:
            _CHAIN_CACHE.pop(next(iter(_CHAIN_CACHE)))
        _CHAIN_CACHE[key] = hit
    if isinstance(hit, FLTheoryError):
        raise hit
    return hit


def _build_chain_uncached(inst: Instance, family: str) -> Chain:
    import mpmath

    from fltheory.markov import MarkovChain, ProductChain

    jordan = None
    code: Any
    with mpmath.workdps(40):
        if family == "dense":
            M = int(inst["M"])
            rows = [np.asarray(inst[f"r{i}"], dtype=float) for i in range(M)]
            lazy = orc.rat(inst["lazy"])
            P, core = orc.dense_chain(rows, lazy, orc.rat(inst["cyc"]))
            code = MarkovChain.from_rational(P)  # Assumption 1 first
            eigen = [
                (mp(lazy) + (1 - mp(lazy)) * z, m) for z, m, _ in orc.nonunit_eigenvalues(core)
            ]
            sq = None
        elif family == "reversible":
            M = int(inst["M"])
            rows = [np.asarray(inst[f"r{i}"], dtype=float) for i in range(M)]
            lazy = orc.rat(inst["lazy"])
            P, core = orc.reversible_chain(rows, lazy)
            code = MarkovChain.from_rational(P)
            eigen = [
                (mp(lazy) + (1 - mp(lazy)) * z, m) for z, m, _ in orc.nonunit_eigenvalues(core)
            ]
            sq = len(P) - 1  # reversible: diagonalisable
        elif family == "jordan":
            blocks = _jordan_blocks(inst)
            M = 1 + sum(n * (2 if b != 0 else 1) for _, b, n in blocks)
            w = [orc.rat(x, 16) for x in np.asarray(inst["rhow"])[:M]]
            w = [x if x > 0 else Fraction(1, 1 << 16) for x in w]
            rho = [x / sum(w) for x in w]
            shrink = max(orc.rat(inst["shrink"], 30), Fraction(1, 1 << 30))
            jordan = orc.JordanChain(
                rho, blocks, orc.rat(inst["coup"], 20), shrink, orc.rat(inst["lazyj"])
            )
            P = jordan.P
            code = MarkovChain.from_rational(P)
            mult: dict[tuple[Fraction, Fraction], int] = {}
            for key, n in jordan.blocks:
                mult[key] = mult.get(key, 0) + n
            eigen = [(mpmath.mpc(mp(re), mp(im)), m) for (re, im), m in mult.items()]
            sq = sum(n * n for _, n in jordan.blocks)
        elif family == "debruijn":
            p = orc.rat(inst["p"])
            if not 0 < p < 1:
                raise InputError("coin probability must lie in (0, 1)")
            lazy = orc.rat(inst["lazyd"])
            P = orc.debruijn_chain(int(inst["k"]), p, lazy)
            # beyond 12 states the library has no exact path: the float chain (dense path)
            code = MarkovChain.from_rational(P) if len(P) <= 12 else MarkovChain(orc.to_float(P))
            eigen = [(mpmath.mpc(mp(lazy)), len(P) - 1)] if len(P) > 1 else []
            sq = None
        else:
            pi = np.asarray(inst["pi"], dtype=float)
            l2 = np.asarray(inst["l2"], dtype=float)
            code = ProductChain(pi, l2)  # validates (π, λ₂): InputError / AssumptionViolation
            P = [[Fraction(1)]]
            for x, y in zip(pi, l2, strict=True):
                P = orc.kron(P, two_state_exact(Fraction(float(x)), Fraction(float(y))))
            products: dict[Fraction, int] = {}
            lams = [Fraction(float(y)) for y in l2]
            for S in range(1, 1 << len(lams)):
                v = Fraction(1)
                for k, lam in enumerate(lams):
                    if S >> (len(lams) - 1 - k) & 1:
                        v *= lam
                products[v] = products.get(v, 0) + 1
            eigen = [(mpmath.mpc(mp(v)), m) for v, m in products.items()]
            sq = len(P) - 1
            jordan = None
    rho = orc.exact_stationary(P)
    return Chain(
        family,
        P,
        orc.to_float(P),
        rho,
        np.array([float(x) for x in rho]),
        code,
        eigen,
        sq,
        jordan,
        (np.asarray(inst["pi"]), np.asarray(inst["l2"])) if family == "product" else None,
    )


def chain_space(
    families: tuple[str, ...], extra: list[Parameter] | None = None, k_max: int = 3
) -> Space:
    return Space([*_chain_params(families, k_max), *(extra or [])])


#: Simple values for the parameters a chain does not use (so shrinking reports clean instances).
_CANONICAL: dict[str, Any] = {
    "M": 2,
    "lazy": 0.5,
    "cyc": 0.5,
    "nb": 1,
    "coup": 1.0,
    "shrink": 1.0,
    "lazyj": 0.0,
    "rhow": np.array([0.25, 0.25, 0.125, 0.125, 0.125, 0.0625, 0.0625]),
    "k": 1,
    "p": 0.5,
    "lazyd": 0.0,
    "N": 1,
    "pi": np.array([0.5]),
    "l2": np.array([0.5]),
    **{f"r{i}": np.array([0.5, 0.5]) for i in range(MAX_DENSE)},
    **{f"n{b}": 1 for b in range(3)},
    **{f"a{b}": 0.5 for b in range(3)},
    **{f"th{b}": 0.0 for b in range(3)},
}
_USES = {
    "dense": ("M", "lazy", "cyc", *(f"r{i}" for i in range(MAX_DENSE))),
    "reversible": ("M", "lazy", *(f"r{i}" for i in range(MAX_DENSE))),
    "jordan": (
        "nb",
        "coup",
        "shrink",
        "lazyj",
        "rhow",
        *(f"{x}{b}" for x in "nath" for b in range(3)),
    ),
    "debruijn": ("k", "p", "lazyd"),
    "product": ("N", "pi", "l2"),
}


def simplifier(families: tuple[str, ...]) -> Any:
    """A ``simplify`` hook: the instance with every parameter its chain does not use (other
    families', rows beyond M, blocks beyond nb) set to a simple canonical value."""

    def simplify(inst: Instance) -> list[Instance]:
        family = families[int(inst["family"])]
        used = set(_USES[family])
        if family in ("dense", "reversible"):
            used -= {f"r{i}" for i in range(int(inst["M"]), MAX_DENSE)}
        if family == "jordan":
            used -= {f"{x}{b}" for x in ("n", "a", "th") for b in range(int(inst["nb"]), 3)}
        out = dict(inst)
        for name, value in _CANONICAL.items():
            if name in inst and name not in used:
                if name.startswith("r") and name[1:].isdigit() and "M" in used:
                    value = np.full(int(inst["M"]), 1.0 / int(inst["M"]))
                out[name] = value
        same = all(np.array_equal(np.asarray(out[k]), np.asarray(inst[k])) for k in inst)
        return [] if same else [out]

    return simplify


ASSUMPTION1 = Hypothesis(
    "Assumption 1: the chain is time-homogeneous, irreducible and aperiodic (finite M)",
    "every chain is built exactly (rationals) and passed to MarkovChain.from_rational / "
    "ProductChain, which reject reducible or periodic chains (AssumptionViolation: declined)",
)


CHAIN_FAMILIES_NOTE = (
    "Narrower than the paper in the number of states only: dense and reversible chains with "
    "M ≤ 6, chains with a chosen real Jordan form with M ≤ 7 (blocks up to size 5, complex "
    "pairs, λ̄₂ from 0 to 1 − 1e-12), de Bruijn chains of up to 3 (5 for the mixing times) "
    "coin flips and products of up to 3 two-state clients; the paper allows any finite M. "
    "Every chain is decided exactly (characteristic polynomial over Q, exact ranks, the "
    "library's exact path at 0.05–1 s a chain), which larger M would price out of the "
    "module's time allowance; the families cover the structures that matter (Jordan blocks, "
    "complex and negative eigenvalues, nilpotent parts, λ̄₂ near 0 and 1)."
)


# ------------------------------------------------ used by several sections (eqs. 5, 132, 157, 236)

L16_FAMILIES = ("dense", "jordan", "debruijn", "product", "reversible")


def tp_formula(n: int, slem: Fraction, lam: Fraction, safe: bool) -> int:
    """Eq. (157) for one block of size n, written out afresh: variant A reads the garbled
    argument as 2n/r, variant B as 2n/(r·λ̄₂), r = ln(λ/λ̄₂) (λ = λ(P), or footnote 3's λ′); at
    λ̄₂ = 0 their limits, 0 and ⌈2n(n − 1)/(n + 1)⌉."""
    if n == 1:
        return 0
    if slem == 0:
        return math.ceil(Fraction(2 * n * (n - 1), n + 1)) if safe else 0
    r = flog(lam / slem)
    log_arg = math.log(2 * n) - math.log(r) - (flog(slem) if safe else 0.0)
    return max(math.ceil(2 * n * (n - 1) * (log_arg - 1) / ((n + 1) * r)), 0)


def flog(x: Fraction) -> float:
    """ln x for a positive rational, accurate near 1 and far from it (no float underflow)."""
    if abs(x - 1) < Fraction(1, 2):
        return math.log1p(float(x - 1))
    return math.log(x.numerator) - math.log(x.denominator)


def jt_code(t: int, log_K: float, lam: float, T_P: int) -> int:
    """The library's J_t of eq. (132) (bounds.series.delays) at round t, ln(2C_PH) = log_K."""
    from fltheory.bounds.series import delays

    return int(delays(np.array([t]), log_K, -math.log(lam), T_P)[0])


#: Below this a float computed by the library may have lost its relative precision.
UNDERFLOW = 1e-280


def clients_params(max_clients: int) -> list[Parameter]:
    """Up to ``max_clients`` two-state clients (π_k, λ₂(P_k)) of eq. (236)."""
    return [
        Integer("N", 1, max_clients),
        Real("pi", 0.0, 1.0, size="N", special=(0.5,)),
        Real("l2", lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.5, -0.5, 0.9)),
    ]
