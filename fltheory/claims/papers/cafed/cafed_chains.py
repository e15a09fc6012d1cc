"""CA-Fed (ToN, HAL copy with appendices): the availability-chain and spectral statements.

Lemma 16 (eqs. 5, 156–158), footnote 3, Definition 1 (eq. 132) and Appendix F (eqs. 228–238,
Props. 3–6, the mixing-time bounds); the client-level statements built on them (population,
hitting time, clusters, Guideline B, estimators, Fig. 4a, Lemmas 17–18) are in
:mod:`fltheory.claims.papers.cafed.cafed_clients`. The instances are exact rational chains wherever
the statement allows it:
dense chains, chains built from a chosen real Jordan form (blocks of size ≥ 2, complex
eigenvalues, λ̄₂ near 0 and 1), de Bruijn (shift-register) chains and products of two-state
clients; the oracles are in :mod:`fltheory.claims.papers.cafed._chain_oracles`.

Budgets: this module and :mod:`~fltheory.claims.papers.cafed.cafed_clients` (37 claims) run at their
default budgets in about 40 s of CPU (80 s wall on a loaded two-core machine), their share of
the paper's five minutes; the chain claims (library's exact Jordan path, 0.05–1 s per chain)
have budgets of 80–250, lowered from 150–600.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:eq236-238")
>>> claim.expected, claim.margin({"pi": 0.5, "lam2": 0.9}) >= 0
('holds', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, ExactMargin, Source, register
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.space import Instance, Integer, Parameter, Real, Simplex, Space
from fltheory.errors import FLTheoryError, InputError, NumericalError

PAPER = "cafed"
#: Largest dense / Jordan chain (the library's exact path costs 0.2–2 s beyond 7 states).
MAX_DENSE = 6
MAX_JORDAN_STATES = 7


def _src(section: str, label: str, lines: tuple[int, int] | None = None) -> Source:
    return Source(PAPER, section, label, lines)


# ================================================================== chain instance spaces

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
            Real("l2", _lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.5, 0.9)),
        ]
    return params


def _lambda2_low(inst: Instance) -> np.ndarray:
    """The lower end 1 − 1/max(π, 1 − π) of the admissible λ₂ (eq. 236 stochastic)."""
    pi = np.asarray(inst["pi"], dtype=float)
    return 1.0 - 1.0 / np.maximum(pi, 1.0 - pi)


@dataclass
class _Chain:
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


def _two_state_exact(pi: Fraction, lam: Fraction) -> orc.Matrix:
    """Eq. 236 in exact rationals."""
    a = 1 - lam
    return [[1 - a * pi, a * pi], [a * (1 - pi), 1 - a * (1 - pi)]]


def _mp(x: Fraction) -> Any:
    import mpmath

    return mpmath.mpf(x.numerator) / x.denominator


def _mp_any(x: Any) -> Any:
    """A Fraction, int or mpmath number as an mpmath number (Fractions exactly rounded)."""
    return _mp(x) if isinstance(x, Fraction) else x


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


_CHAIN_CACHE: dict[tuple[Any, ...], _Chain | FLTheoryError] = {}
_CACHE_SIZE = 128


def _build_chain(inst: Instance, families: tuple[str, ...]) -> _Chain:
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


def _build_chain_uncached(inst: Instance, family: str) -> _Chain:
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
                (_mp(lazy) + (1 - _mp(lazy)) * z, m) for z, m, _ in orc.nonunit_eigenvalues(core)
            ]
            sq = None
        elif family == "reversible":
            M = int(inst["M"])
            rows = [np.asarray(inst[f"r{i}"], dtype=float) for i in range(M)]
            lazy = orc.rat(inst["lazy"])
            P, core = orc.reversible_chain(rows, lazy)
            code = MarkovChain.from_rational(P)
            eigen = [
                (_mp(lazy) + (1 - _mp(lazy)) * z, m) for z, m, _ in orc.nonunit_eigenvalues(core)
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
            eigen = [(mpmath.mpc(_mp(re), _mp(im)), m) for (re, im), m in mult.items()]
            sq = sum(n * n for _, n in jordan.blocks)
        elif family == "debruijn":
            p = orc.rat(inst["p"])
            if not 0 < p < 1:
                raise InputError("coin probability must lie in (0, 1)")
            lazy = orc.rat(inst["lazyd"])
            P = orc.debruijn_chain(int(inst["k"]), p, lazy)
            # beyond 12 states the library has no exact path: the float chain (dense path)
            code = MarkovChain.from_rational(P) if len(P) <= 12 else MarkovChain(orc.to_float(P))
            eigen = [(mpmath.mpc(_mp(lazy)), len(P) - 1)] if len(P) > 1 else []
            sq = None
        else:
            pi = np.asarray(inst["pi"], dtype=float)
            l2 = np.asarray(inst["l2"], dtype=float)
            code = ProductChain(pi, l2)  # validates (π, λ₂): InputError / AssumptionViolation
            P = [[Fraction(1)]]
            for x, y in zip(pi, l2, strict=True):
                P = orc.kron(P, _two_state_exact(Fraction(float(x)), Fraction(float(y))))
            products: dict[Fraction, int] = {}
            lams = [Fraction(float(y)) for y in l2]
            for S in range(1, 1 << len(lams)):
                v = Fraction(1)
                for k, lam in enumerate(lams):
                    if S >> (len(lams) - 1 - k) & 1:
                        v *= lam
                products[v] = products.get(v, 0) + 1
            eigen = [(mpmath.mpc(_mp(v)), m) for v, m in products.items()]
            sq = len(P) - 1
            jordan = None
    rho = orc.exact_stationary(P)
    return _Chain(
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


def _chain_space(
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


def _simplifier(families: tuple[str, ...]) -> Any:
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


_ASSUMPTION1 = Hypothesis(
    "Assumption 1: the chain is time-homogeneous, irreducible and aperiodic (finite M)",
    "every chain is built exactly (rationals) and passed to MarkovChain.from_rational / "
    "ProductChain, which reject reducible or periodic chains (AssumptionViolation: declined)",
)


_CHAIN_FAMILIES_NOTE = (
    "Narrower than the paper in the number of states only: dense and reversible chains with "
    "M ≤ 6, chains with a chosen real Jordan form with M ≤ 7 (blocks up to size 5, complex "
    "pairs, λ̄₂ from 0 to 1 − 1e-12), de Bruijn chains of up to 3 (5 for the mixing times) "
    "coin flips and products of up to 3 two-state clients; the paper allows any finite M. "
    "Every chain is decided exactly (characteristic polynomial over Q, exact ranks, the "
    "library's exact path at 0.05–1 s a chain), which larger M would price out of the "
    "module's time allowance; the families cover the structures that matter (Jordan blocks, "
    "complex and negative eigenvalues, nilpotent parts, λ̄₂ near 0 and 1)."
)


# ================================================================== eq. 229: λ̄₂ and λ(P)

EQ229_FAMILIES = ("dense", "jordan", "debruijn")
SLEM_TOL = 1e-10


def _eq229_slem(inst: Instance, exact: bool = False) -> float:
    ch = _build_chain(inst, EQ229_FAMILIES)
    c = ch.code.constants()
    s = float(ch.slem)
    return SLEM_TOL - max(abs(c.slem - s), abs(c.lam - (s + 1.0) / 2.0))


def _printed_gap(roots: list[Any]) -> Any:
    """max{|λ₂|, |λ_M|} − the largest modulus strictly between them, with the distinct
    non-unit eigenvalues in decreasing order of their real part (a conjugate pair, or any
    eigenvalues sharing a real part, count as one position: either may be called λ₂ or λ_M).
    ≥ 0 iff the printed max{|λ₂|, |λ_M|} is the largest modulus; = printed − λ̄₂ when not."""
    groups: list[tuple[Any, Any]] = []  # (real part, largest modulus), decreasing real part
    for z in sorted(roots, key=lambda w: -float(w.real)):
        if groups and abs(z.real - groups[-1][0]) <= 1e-25:
            groups[-1] = (groups[-1][0], max(groups[-1][1], abs(z)))
        else:
            groups.append((z.real, abs(z)))
    if len(groups) <= 2:
        return 1
    return max(groups[0][1], groups[-1][1]) - max(g[1] for g in groups[1:-1])


PRINTED_FAMILIES = ("jordan",)


def _printed_as_jordan(inst: Instance) -> Instance:
    """A 5-state chain with non-unit eigenvalues r₁, r₂ (real) and the pair ρe^{±iθ}, scaled
    alike by the construction (:class:`~._chain_oracles.JordanChain`, uniform ρ, no laziness):
    the spectra where the order of (228) by real part can miss the largest modulus."""
    return {
        "family": 0,
        "nb": 3,
        "n0": 1,
        "n1": 1,
        "n2": 1,
        "a0": float(inst["r1"]),
        "th0": 0.0,
        "a1": float(inst["rad"]),
        "th1": float(inst["ang"]),
        "a2": float(inst["r2"]),
        "th2": 0.0,
        "coup": 1.0,
        "rhow": np.full(MAX_JORDAN_STATES, 1.0 / MAX_JORDAN_STATES),
        "shrink": float(inst["shrink"]),
        "lazyj": 0.0,
    }


def _eq229_printed_space() -> Space:
    return Space(
        [
            Real("r1", -1.0, 1.0, special=(0.0, 0.5)),
            Real("r2", -1.0, 1.0, special=(0.0, -0.5)),
            Real("rad", 0.0, 1.0, closed=(False, True), special=(0.5, 1.0)),
            Real("ang", 0.0, math.pi, special=(math.pi / 2,)),
            Real("shrink", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        ]
    )


def _eq229_printed(inst: Instance) -> float:
    ch = _build_chain(_printed_as_jordan(inst), PRINTED_FAMILIES)
    return float(_printed_gap([z for z, _ in ch.eigen]))


def _eq229_printed_exact(inst: Instance) -> ExactMargin:
    ch = _build_chain(_printed_as_jordan(inst), PRINTED_FAMILIES)
    return Fraction(float(_printed_gap([z for z, _ in ch.eigen]))), (
        "eigenvalues from the construction, 30+ digits"
    )


register(
    Claim(
        "cafed:eq229-slem",
        _src("App. F1 eqs. (228)–(229); §III-A", "λ̄₂ and λ(P)", (1477, 1484)),
        "λ̄₂(P) is the largest modulus of the eigenvalues of P other than 1 (§III-A: 'the second "
        "largest module') and λ(P) = (λ̄₂ + 1)/2; checked on ChainConstants (what the bounds use)",
        _chain_space(EQ229_FAMILIES),
        _eq229_slem,
        simplify=_simplifier(EQ229_FAMILIES),
        exact=lambda i: (Fraction(_eq229_slem(i)), "charpoly over Q, roots at 30 digits (mpmath)"),
        tolerance=0.0,
        budget=100,
        expected="holds",
        reading=Reading(
            quote="Let λ̄₂(P) denote the the second largest module of the eigenvalues of P. … "
            "λ(P) := (λ̄₂(P) + 1)/2 (§III-A); λ̄₂(P) := max{|λ₂(P)|, |λ_M(P)|} and λ(P) := "
            "(λ̄₂(P) + 1)/2 (229)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="λ̄₂ is the largest modulus of the eigenvalues other than (one copy "
            "of) 1, as §III-A and line 1486 define it; checked on the library's constants. "
            + _CHAIN_FAMILIES_NOTE,
        ),
        notes="Oracle: the exact characteristic polynomial of the rational chain divided by (x − "
        "1), "
        "its squarefree factors and their roots refined in mpmath; margin 1e-10 − |Δλ̄₂|, |Δλ|. "
        "Code path: MarkovChain.from_rational(P).constants() (dense path, exact fallback on "
        "near-defective spectra). Families: dense random (with a cyclic part and laziness), "
        "chains with a chosen real Jordan form (blocks of size ≤ 5, complex pairs), de Bruijn "
        "chains (nilpotent part, λ̄₂ = 0). Observation, not a defect of the statement: "
        "MarkovChain.slem (the plain dense eigenvalues, used by relaxation_time and "
        "mixing_time_bounds) is only accurate to about ε_mach^(1/n) on a Jordan block of size n: "
        "2.2e-6 instead of 0 on the de Bruijn chain k = 3, 0.310368 instead of 9/29 on a block of "
        "size 4. Budget 100 (the module's time allowance): Jordan chains take the library's exact "
        "path (0.05–1 s each).",
    )
)

register(
    Claim(
        "cafed:eq229-slem-printed",
        _src(
            "App. F1 eqs. (228)–(229)",
            "λ̄₂ := max{|λ₂|, |λ_M|} with 1 = λ₁ > λ₂ ≥ … ≥ λ_M",
            (1477, 1484),
        ),
        "with the eigenvalues labelled in decreasing order (read: by real part, the only order "
        "defined for complex spectra), max{|λ₂|, |λ_M|} is the second largest eigenvalue modulus",
        _eq229_printed_space(),
        _eq229_printed,
        exact=_eq229_printed_exact,
        tolerance=1e-12,
        budget=200,
        expected="refuted",
        reading=Reading(
            quote="For the transition matrix P, we label its eigenvalues in decreasing order: "
            "1 = λ₁(P) > λ₂(P) ≥ … ≥ λ_M(P). (228) We define: λ̄₂(P) := max{|λ₂(P)|, |λ_M(P)|} "
            "and λ(P) := (λ̄₂(P) + 1)/2. (229)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Literal reading for complex spectra: the claim orders complex "
            "eigenvalues by their real part — an order the paper does not define, chosen by "
            "the toolkit — and finds max{|λ₂|, |λ_M|} below the largest non-unit modulus. Not "
            "the authors' meaning: (228) orders real numbers (the spectra of reversible "
            "chains, such as the products of two-state chains of App. F2–F3 the paper uses), "
            "and the paper defines λ̄₂ by the modulus everywhere else: 'the second largest "
            "module of the eigenvalues of P' (§III-A, line 100), 'the second largest absolute "
            "eigenvalue' (line 1486, right after (229)), 'the second largest eigenvalue in "
            "absolute value' (Prop. 6). That definition holds (cafed:eq229-slem).",
            alternatives="The modulus reading: cafed:eq229-slem (holds). For real spectra the "
            "printed max{|λ₂|, |λ_M|} is the largest non-unit modulus.",
        ),
        finding=Finding(
            "literal",
            "(228)'s 'decreasing order' is an order of real eigenvalues; for complex spectra the "
            "paper means the second largest modulus (§III-A, line 1486, Prop. 6), which holds",
            intended="cafed:eq229-slem",
        ),
        notes="Eq. (228) orders the eigenvalues as reals; for a non-reversible chain with complex "
        "eigenvalues the pair of largest modulus can sit in the middle of the real-part order, "
        "so the printed max{|λ₂|, |λ_M|} underestimates λ̄₂ (the text of §III-A and the code use "
        "the modulus: cafed:eq229-slem). Margin: max{|λ₂|, |λ_M|} minus the largest modulus "
        "strictly "
        "between them in that order (continuous; equals printed − λ̄₂ when negative). "
        "Counterexamples need ≥ 4 non-unit eigenvalues (M ≥ 5). Space: 5-state chains built "
        "with the non-unit eigenvalues r₁, r₂ (real) and ρe^{±iθ} (JordanChain, uniform "
        "stationary law, all scaled by the same α > 0) — the spectra where the question "
        "arises; random dense chains reach them too rarely for a seed-stable search.",
    )
)


# ================================================================== Lemma 16, eq. (5)

L16_FAMILIES = ("dense", "jordan", "debruijn", "product", "reversible")
#: E(t) is only compared where C_P·λᵗ ≥ this (below it a float E(t) is rounding noise; the
#: exact re-evaluation goes to the same times in 60-digit arithmetic).
ENVELOPE_FLOOR = 1e-10


def _peaks(slem: float, lam: float, M: int, t0: int) -> list[float]:
    """Where tⁿ⁻¹(λ̄₂/λ)ᵗ peaks for n = 2..M (the worst t of a Jordan block of size n)."""
    if not 0.0 < slem < lam:
        return []
    r = math.log(lam / slem)
    return [(n - 1) / r for n in range(2, M + 1)]


def _eq5_times(log_C: float, lam: float, T: int, slem: float, M: int) -> list[int]:
    return orc.time_grid(T, log_C, math.log(lam), _peaks(slem, lam, M, T), ENVELOPE_FLOOR)


def _eq5_margin(ch: _Chain, log_C: float, lam: float, T: int, slem: float) -> float:
    """min over t ∈ [T, t_end] of ln(C λᵗ) − ln E(t) on the grid of :func:`_eq5_times`."""
    ts = _eq5_times(log_C, lam, T, slem, ch.M)
    E = orc.envelope_float(ch.Pf, ch.rho_f, ts)
    t = np.asarray(ts, dtype=float)
    with np.errstate(divide="ignore"):
        gap = log_C + t * math.log(lam) - np.log(E)
    return float(np.min(gap))


def _lemma16_eq5(inst: Instance) -> float:
    ch = _build_chain(inst, L16_FAMILIES)
    c = ch.code.constants()
    if c.log_C_P is None:
        raise NumericalError("C_P unknown")
    return _eq5_margin(ch, c.log_C_P, c.lam, c.T_P, c.slem)


def _eq5_exact(ch: _Chain, log_C: float, lam_mp: Any, T: int, slem: float) -> ExactMargin:
    import mpmath

    ts = _eq5_times(log_C, float(lam_mp), T, slem, ch.M)
    with mpmath.workdps(60):
        E = orc.envelope_mp(ch.P, ch.rho, ts, dps=60)
        gaps = [
            mpmath.mpf(log_C) + t * mpmath.log(lam_mp) - mpmath.log(e)
            for t, e in zip(ts, E, strict=True)
            if e > 0
        ]
        worst = min(gaps) if gaps else mpmath.mpf(1)
    return Fraction(float(worst)), "E(t) in 60-digit arithmetic (mpmath), exact λ(P)"


def _lemma16_eq5_exact(inst: Instance) -> ExactMargin:
    ch = _build_chain(inst, L16_FAMILIES)
    c = ch.code.constants()
    assert c.log_C_P is not None
    return _eq5_exact(ch, c.log_C_P, (ch.slem + 1) / 2, c.T_P, c.slem)


register(
    Claim(
        "cafed:lemma16-eq5",
        _src("§III-A eq. (5); App. B2 Lemma 16", "eq. (5)", (1051, 1071)),
        "max_ij |[Pᵗ]_ij − ρ_j| ≤ C_P·λ(P)ᵗ for every t ≥ T_P, with C_P (eq. 156), T_P (eq. 157, "
        "read r = ln(λ/λ̄₂)) and λ(P) (eq. 229) as the library computes them",
        _chain_space(L16_FAMILIES),
        _lemma16_eq5,
        simplify=_simplifier(L16_FAMILIES),
        exact=_lemma16_eq5_exact,
        tolerance=1e-9,
        budget=120,
        expected="holds",
        reading=Reading(
            quote="max_{i,j∈[M]} |[Pᵗ]_{i,j} − ρ_j| ≤ C_P·λ(P)ᵗ, for t ≥ T_P, (5) where the "
            "parameters λ(P) := (λ̄₂(P) + 1)/2, C_P, and T_P are positive constants whose values "
            "are defined in [15, Lemma 1] and reported for completeness in Appendix B2, Lemma 16",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Eq. (5) with C_P of (156) (the least value over Jordan bases where "
            "P is diagonalisable) and T_P of (157) read as A (ln(2n/r), r = ln(λ/λ̄₂): the "
            "library's T_P; the printed ln is of a negative number). " + _CHAIN_FAMILIES_NOTE,
        ),
        notes="Margin: min over t of ln(C_P λᵗ) − ln E(t), E(t) = max_ij |[Pᵗ]_ij − ρ_j| computed "
        "here by binary powering of P − 1ρᵀ (exact ρ), on every t in [T_P, T_P + 64], a geometric "
        "grid (ratio 1.08) and the peaks (n − 1)/ln(λ/λ̄₂) of Jordan blocks of size n, up to the "
        "last t with C_P λᵗ ≥ 1e-10. Families: dense, chosen Jordan form (sizes ≤ 5, complex "
        "pairs, laziness up to 1 − 1e-12, λ̄₂ → 0 with shrink → 0), de Bruijn (nilpotent blocks "
        "at λ̄₂ = 0, T_P = 0) and products of two-state clients (repeated λ₂, negative λ₂). "
        "The statement holds with a wide margin everywhere we looked (the slack comes from "
        "‖U‖_F‖U⁻¹‖_F ≥ M − 1 and (Σnᵢ²)^½), although the proof's step behind T_P does not "
        "(cafed:lemma16-eq157-tp-a, -a-frobenius). Budget 120 (the module's time allowance): "
        "chains with Jordan blocks take the "
        "library's exact path (0.2–0.6 s each).",
    )
)


# ================================================================== eq. (156): C_P

CP_TOL = 1e-6


def _cp_lower_bound(ch: _Chain) -> float:
    """ln of √(Σ nᵢ²)·Σ_μ ‖Π_μ‖_* (the eigenvalue-1 projector 1ρᵀ included): the least value
    of eq. 156 over all Jordan bases when P is diagonalisable, a lower bound otherwise
    (‖U‖_F‖U⁻¹‖_F ≥ Σ_B ‖U_B‖_F‖(U⁻¹)_B‖_F ≥ Σ_B ‖U_B(U⁻¹)_B‖_*, and Σ over the blocks of one
    eigenvalue ≥ ‖Π_μ‖_* by the triangle inequality)."""
    one = math.sqrt(ch.M) * float(np.linalg.norm(ch.rho_f))
    if ch.jordan is not None:
        total = one + sum(orc.nuclear(p) for p in ch.jordan.projectors().values())
    elif ch.product is not None:
        total = one + _product_projector_sum(*ch.product) - one
    else:
        total = one + sum(
            orc.nuclear(orc.spectral_projector(ch.Pf, complex(z), m)) for z, m in ch.eigen
        )
    return 0.5 * math.log(ch.sq) + math.log(total)


def _product_projector_sum(pi: np.ndarray, l2: np.ndarray) -> float:
    """Σ_μ ‖Π_μ‖_* of ⊗ₖ Pₖ from the explicit Kronecker eigenvectors (eqs. 236–238), grouping
    the subsets S by the exact product Π_{k∈S} λ₂,ₖ (rationals, so ties are exact)."""
    n = pi.size
    ones = [np.array([1.0, 1.0])] * n
    a = [np.array([p, p - 1.0]) for p in pi]
    rho = [np.array([1.0 - p, p]) for p in pi]
    b = [np.array([1.0, -1.0])] * n
    groups: dict[Fraction, np.ndarray] = {}
    lams = [Fraction(float(x)) for x in l2]
    for S in range(1 << n):
        value = Fraction(1)
        u = np.ones(1)
        w = np.ones(1)
        for k in range(n):
            bit = S >> (n - 1 - k) & 1
            if bit:
                value *= lams[k]
            u = np.kron(u, a[k] if bit else ones[k])
            w = np.kron(w, b[k] if bit else rho[k])
        proj = np.outer(u, w)
        key = value if S else Fraction(-2)  # the eigenvalue-1 projector on its own
        groups[key] = groups[key] + proj if key in groups else proj
    return sum(orc.nuclear(p) for p in groups.values())


def _eq156(inst: Instance) -> float:
    ch = _build_chain(inst, L16_FAMILIES)
    c = ch.code.constants()
    if c.log_C_P is None:
        raise NumericalError("C_P unknown")
    low = _cp_lower_bound(ch)
    if c.C_P_minimal:
        if ch.sq != ch.M - 1:  # the library calls C_P minimal on a defective P
            return -1.0
        return CP_TOL - abs(c.log_C_P - low)
    return CP_TOL + (c.log_C_P - low)


def _eq156_exact(inst: Instance) -> ExactMargin:
    ch = _build_chain(inst, L16_FAMILIES)
    c = ch.code.constants()
    if c.C_P_minimal and ch.sq != ch.M - 1:
        return Fraction(-1), "Jordan structure decided by exact ranks over Q (P is defective)"
    return Fraction(_eq156(inst)), "float oracle (singular values of exact-spectrum projectors)"


register(
    Claim(
        "cafed:lemma16-eq156-cp",
        _src("App. B2 Lemma 16, eq. (156)", "C_P", (1056, 1064)),
        "the reported C_P is a value of eq. (156), C_P = (Σ_{i≥2} nᵢ²)^½·‖U‖_F‖U⁻¹‖_F for a Jordan "
        "basis U: never below the least such value, and equal to it — √(M − 1)·Σ_μ ‖Π_μ‖_* over "
        "the "
        "spectral projectors — whenever the library marks it minimal (diagonalisable P)",
        _chain_space(L16_FAMILIES),
        _eq156,
        simplify=_simplifier(L16_FAMILIES),
        exact=_eq156_exact,
        tolerance=0.0,
        budget=80,
        expected="refuted",
        reading=Reading(
            quote="C_P := (Σ_{i=2}^d n_i²)^{1/2}·‖U‖_F‖U⁻¹‖_F, (156) … P = UJU⁻¹, where J "
            "denotes the Jordan M × M matrix with d blocks J_i",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Not a reading of the paper: (156) is a definition (a value for each "
            "Jordan basis U); what the claim checks is the library's C_P against it — that the "
            "reported constant is one of those values, and the least one where the library "
            "says so. The refutation is a defect of the code (a Jordan block whose coupling is "
            "below the library's rank tolerance, 1e-10·‖P‖_F, taken for a semisimple cluster), "
            "not of the paper; the paper's statement that uses C_P, eq. (5), holds with the "
            "library's value (cafed:lemma16-eq5). Its witnesses are extreme by nature (a "
            "chain within 1e-10 of a defective one: laziness 1 − 1e-12).",
            alternatives="Eq. (5) with (156)–(157): cafed:lemma16-eq5 (holds).",
        ),
        finding=Finding(
            "literal",
            "not about the paper: the library's C_P on a chain 1e-10·‖P‖_F from a defective one "
            "is not a value of (156) for that P; eq. (5) still holds with it",
            intended="cafed:lemma16-eq5",
        ),
        notes="Oracle: spectral projectors Π_μ from the exact eigenvalues and multiplicities (null "
        "spaces of (P − μI)^m and its adjoint; by construction for Jordan-form chains; explicit "
        "Kronecker eigenvectors grouped by exact eigenvalue products for product chains) and Σnᵢ² "
        "from exact ranks over Q. Margin: 1e-6 − |Δ ln C_P| where the library says minimal, "
        "ln C_P − ln(√(Σnᵢ²)·Σ‖Π_μ‖_*) + 1e-6 otherwise (a necessary condition: eq. 156 with a "
        "Jordan basis is never below it); −1 when the library marks C_P minimal but P is "
        "defective (exact ranks). The nuclear norms are singular-value sums (floats), so only the "
        "defectiveness part has an exact re-evaluation. FINDING (library): a Jordan block whose "
        "coupling is below RANK_TOL·‖P‖_F = 1e-10·‖P‖_F — e.g. a lazy chain 1e-12 from the "
        "identity with a block of size 5 — is accepted by the dense path as a semisimple cluster; "
        "the reported C_P (flagged minimal) is then the minimum of a nearby diagonalisable matrix, "
        "not a value of eq. 156 for P, whose Jordan bases all have ‖U‖‖U⁻¹‖ ≳ coupling^−(n−1). "
        "Eq. 5 still holds with it (cafed:lemma16-eq5). Budget 80 (exact path; found at evaluation "
        "32).",
    )
)


# ================================================================== eq. (157): T_P


def _tp_formula(n: int, slem: Fraction, lam: Fraction, safe: bool) -> int:
    """Eq. (157) for one block of size n, written out afresh: variant A reads the garbled
    argument as 2n/r, variant B as 2n/(r·λ̄₂), r = ln(λ/λ̄₂) (λ = λ(P), or footnote 3's λ′); at
    λ̄₂ = 0 their limits, 0 and ⌈2n(n − 1)/(n + 1)⌉."""
    if n == 1:
        return 0
    if slem == 0:
        return math.ceil(Fraction(2 * n * (n - 1), n + 1)) if safe else 0
    r = _flog(lam / slem)
    log_arg = math.log(2 * n) - math.log(r) - (_flog(slem) if safe else 0.0)
    return max(math.ceil(2 * n * (n - 1) * (log_arg - 1) / ((n + 1) * r)), 0)


def _flog(x: Fraction) -> float:
    """ln x for a positive rational, accurate near 1 and far from it (no float underflow)."""
    if abs(x - 1) < Fraction(1, 2):
        return math.log1p(float(x - 1))
    return math.log(x.numerator) - math.log(x.denominator)


def _log_binom(t: int, j: int) -> float:
    """ln C(t, j) for small j, summed term by term (no lgamma cancellation at huge t)."""
    return sum(math.log(t - i) for i in range(j)) - math.lgamma(j + 1)


def _entry_worst(T: int, j: int, m: Fraction, lam: Fraction) -> tuple[float, int]:
    """(max over t ≥ T of f_j(t) = ln(C(t, j) m^{t−j}/λᵗ), its argument); f_j is unimodal with
    f_j(t + 1) ≥ f_j(t) iff t + 1 ≤ jλ/(λ − m), so the max is at max(T, j, ⌊jλ/(λ − m)⌋)."""
    if m == 0:  # the only nonzero entry of the block power is 1 at t = j
        return (-j * _flog(lam), j) if T <= j else (-math.inf, T)
    t = max(T, j, math.floor(j * lam / (lam - m)))
    return _log_binom(t, j) + t * _flog(m / lam) - j * _flog(m), t


def _tp_inputs(inst: Instance) -> tuple[int, Fraction, Fraction, Fraction]:
    n = int(inst["n"])
    s = Fraction(float(inst["s"]))
    ratio = Fraction(float(inst["ratio"]))
    if not (0 <= s < 1 and 0 <= ratio <= 1 and n >= 1):
        raise InputError("a block needs n ≥ 1, λ̄₂ ∈ [0, 1) and |μ| ≤ λ̄₂")  # (shrinking rounds)
    m = ratio * s
    return n, s, (1 + s) / 2, m


def _tp_code(n: int, s: Fraction, m: Fraction, safe: bool) -> int:
    from fltheory.markov.lemma16 import T_P, T_P_safe

    fn = T_P_safe if safe else T_P
    return int(fn([(float(m), n)], float(s)))


def _tp_entrywise(inst: Instance, safe: bool) -> float:
    n, s, lam, m = _tp_inputs(inst)
    T = _tp_code(n, s, m, safe)
    if abs(T - _tp_formula(n, s, lam, safe)) > 1 + 1e-9 * T:  # (rounding of ⌈·⌉ at huge T)
        return -1.0  # the library does not compute eq. 157 as read
    worst = max((_entry_worst(T, j, m, lam)[0] for j in range(1, n)), default=-math.inf)
    return float(min(50.0, -worst))


def _tp_entrywise_exact(inst: Instance, safe: bool) -> ExactMargin:
    import mpmath

    n, s, lam, m = _tp_inputs(inst)
    T = _tp_code(n, s, m, safe)
    worst = mpmath.mpf(-50)
    with mpmath.workdps(50):
        for j in range(1, n):
            _, t = _entry_worst(T, j, m, lam)
            if m == 0:
                value = -j * mpmath.log(_mp(lam)) if T <= j else mpmath.mpf(-50)
            else:
                value = (
                    mpmath.log(mpmath.binomial(t, j))
                    + (t - j) * mpmath.log(_mp(m))
                    - t * mpmath.log(_mp(lam))
                )
            worst = max(worst, value)
    return Fraction(float(-worst)), "C(t, j)·m^{t−j} vs λᵗ at the worst t, 50 digits (mpmath)"


def _frob_log_ratio(t: int, n: int, m: Fraction, lam: Fraction) -> float:
    """ln ‖J_n(μ)ᵗ‖_F − ln(n λᵗ), |μ| = m: ‖Jᵗ‖_F² = Σ_j (n − j)·C(t, j)²·m^{2(t−j)}."""
    terms = []
    for j in range(n):
        if t < j:
            continue
        if m == 0:
            if t == j:
                terms.append(math.log(n - j))
            continue
        terms.append(math.log(n - j) + 2 * (_log_binom(t, j) + (t - j) * _flog(m)))
    if not terms:
        return -math.inf
    top = max(terms)
    log_norm = 0.5 * (top + math.log(sum(math.exp(x - top) for x in terms)))
    return log_norm - math.log(n) - t * _flog(lam)


def _frob_times(T: int, n: int, m: Fraction, lam: Fraction) -> list[int]:
    """t ∈ [T, T + 64], a geometric grid up to past the last entry's peak, and the peaks."""
    if m == 0:
        return list(range(T, max(T, n) + 1))
    peaks = [int(j * lam / (lam - m)) for j in range(1, n)]
    end = max([T, *peaks]) + 2
    ts = set(range(T, min(end, T + 64) + 1))
    x = float(T + 64)
    while x < end:
        ts.add(int(x))
        x *= 1.02
    ts.update(p + d for p in peaks for d in (-1, 0, 1) if p + d >= T)
    return sorted(ts)


def _tp_frobenius(inst: Instance) -> float:
    n, s, lam, m = _tp_inputs(inst)
    T = _tp_code(n, s, m, False)
    if n == 1:
        return 50.0
    worst = max(_frob_log_ratio(t, n, m, lam) for t in _frob_times(T, n, m, lam))
    return float(min(50.0, -worst))


def _tp_frobenius_exact(inst: Instance) -> ExactMargin:
    import mpmath

    n, s, lam, m = _tp_inputs(inst)
    T = _tp_code(n, s, m, False)
    ts = _frob_times(T, n, m, lam)
    t = max(ts, key=lambda x: _frob_log_ratio(x, n, m, lam))
    with mpmath.workdps(50):
        total = mpmath.mpf(0)
        for j in range(min(n, t + 1)):
            power = mpmath.mpf(1) if t == j else _mp(m) ** (t - j)
            total += (n - j) * (mpmath.binomial(t, j) * power) ** 2
        value = mpmath.log(n) + t * mpmath.log(_mp(lam)) - mpmath.log(total) / 2
    return Fraction(float(value)), "‖Jᵗ‖_F vs nλᵗ at the worst grid time, 50 digits (mpmath)"


def _tp_explain(inst: Instance) -> Explanation:
    """One Jordan block J_n(μ), λ̄₂, λ = (1 + λ̄₂)/2, T_P (reading A) and the worst entry
    C(t, j)|μ|^{t−j} against λᵗ over t ≥ T_P (50 digits)."""
    import mpmath

    n, s, lam, m = _tp_inputs(inst)
    T = _tp_code(n, s, m, False)
    worst: tuple[Any, int, int] = (mpmath.mpf(-1), 0, T)
    with mpmath.workdps(50):
        for j in range(1, n):
            _, t = _entry_worst(T, j, m, lam)
            entry = mpmath.binomial(t, j) * (_mp(m) ** (t - j) if t > j else 1)
            ratio = entry / _mp(lam) ** t
            if ratio > worst[0]:
                worst = (ratio, j, t)
        _, j, t = worst
        entry = mpmath.binomial(t, j) * (_mp(m) ** (t - j) if t > j else 1) if j else 0
        bound = _mp(lam) ** t
    return Explanation(
        quantities=(
            Quantity("n", "size of the Jordan block", n),
            Quantity("λ̄₂", "second largest eigenvalue modulus", dec(inst["s"])),
            Quantity(
                "|μ|", "modulus of the block's eigenvalue", dec(inst["ratio"]) * dec(inst["s"])
            ),
        ),
        steps=(
            Step("λ(P)", "(1 + λ̄₂)/2", lam),
            Step("T_P", "eq. 157, reading A: ⌈2n(n−1)(ln(2n/r) − 1)/((n+1)r)⌉, r = ln(λ/λ̄₂)", T),
            Step("worst entry", f"j = {j}, t = {t} ≥ T_P", entry),
        ),
        lhs=Step(f"C({t}, {j})·|μ|^{t - j}", "an entry of J_n(μ)ᵗ", entry),
        relation="≤",
        rhs=Step(f"λ^{t}", "", bound),
        holds=bool(entry <= bound) if j else True,
        note="A step of the cited proof ([15, Lemma 1]) with the toolkit's reading A of the "
        "garbled (157); CA-Fed states only eq. (5), which holds (cafed:lemma16-eq5).",
    )


def _tp_space() -> Space:
    return Space(
        [
            Integer("n", 1, 8),
            Real("s", 0.0, 1.0, closed=(True, False), special=(0.0, 0.5, 0.85)),
            Real("ratio", 0.0, 1.0, closed=(True, True), special=(1.0, 0.0)),
        ]
    )


_TP_STATEMENT = (
    "for a Jordan block J_n(μ) with |μ| = ratio·λ̄₂ ≤ λ̄₂ and λ = (1 + λ̄₂)/2, every entry of "
    "J_n(μ)ᵗ obeys C(t, j)|μ|^{t−j} ≤ λᵗ (0 ≤ j < n) for all t ≥ T_P of eq. (157) — the step of "
    "the proof ([15, Lemma 1]) that T_P is there to guarantee"
)

register(
    Claim(
        "cafed:lemma16-eq157-tp-a",
        _src(
            "App. B2 Lemma 16, eq. (157)", "T_P, reading A: ln(2nᵢ/r), r = ln(λ/λ̄₂)", (1060, 1062)
        ),
        _TP_STATEMENT + "; T_P read as ⌈2n(n−1)(ln(2n/r) − 1)/((n+1)r)⌉ (the library's T_P)",
        _tp_space(),
        lambda i: _tp_entrywise(i, False),
        exact=lambda i: _tp_entrywise_exact(i, False),
        explain=_tp_explain,
        tolerance=1e-9,
        expected="refuted",
        reading=Reading(
            quote="T_P := max{max_{1≤i≤d}{⌈2n_i(n_i − 1)(ln(2n_i/(ln λ(P)/|λ̄₂(P)|)) − 1)/((n_i + "
            "1) ln(λ(P)/|λ̄₂(P)|))⌉}, 0}. (157) … Proof of Lemma 16. The inequality in (5) is "
            "proven in [15, Lemma 1] and holds for any t ≥ T_P.",
            hypotheses=(
                _ASSUMPTION1,
                Hypothesis(
                    "one Jordan block J_n(μ) of a chain, |μ| ≤ λ̄₂ < 1, λ = (1 + λ̄₂)/2",
                    "n ≤ 8, λ̄₂ ∈ [0, 1), |μ| = ratio·λ̄₂",
                ),
            ),
            interpretation="The claim tests a step of the cited proof ([15, Lemma 1]) — "
            "every entry of a Jordan-block power, C(t, j)|μ|^{t−j}, below λᵗ for t ≥ T_P — with "
            "the garbled (157) repaired as reading A, "
            "ln(2n/r), r = ln(λ/λ̄₂). CA-Fed states no such step: it reports (156)–(157) from "
            "[15, Lemma 1] 'for completeness' (line 104) and uses only eq. (5), which holds "
            "with these constants (cafed:lemma16-eq5). Reading A is the toolkit's repair of a "
            "formula whose printed ln is of a negative number (ln λ(P)/|λ̄₂| < 0); reading B, "
            "ln(2n/(r·λ̄₂)), makes the step hold (cafed:lemma16-eq157-tp-b).",
            alternatives="Eq. (5) with T_P of reading A: cafed:lemma16-eq5 (holds); the step "
            "with reading B: cafed:lemma16-eq157-tp-b (holds).",
        ),
        finding=Finding(
            "literal",
            "tests a step of the cited proof ([15, Lemma 1]) with the toolkit's repair A of the "
            "garbled (157); CA-Fed uses only eq. (5), which holds with that T_P",
            intended="cafed:lemma16-eq5",
        ),
        notes="Eq. (157) is garbled (its ln of 'ln λ/|λ̄₂|' is of a negative number); reading A is "
        "the library's T_P. Margin: −max_j max_{t ≥ T_P} ln(C(t, j)|μ|^{t−j}/λᵗ), the max over t "
        "at max(T_P, j, ⌊jλ/(λ − |μ|)⌋) (each entry is unimodal in t); −1 if the library's T_P "
        "differs from the formula written out here. Known (an earlier README finding): one "
        "block of size 2 at 0.85 has T_P = 46 but the step fails at t = 46, 47. The falsifier "
        "finds the same failure near λ̄₂ → 0 (where T_P → 0 but the entry C(j, j)|μ|⁰ = 1 > λʲ "
        "at t = j) and for small blocks at moderate λ̄₂. Eq. 5 itself survives "
        "(cafed:lemma16-eq5).",
    )
)

register(
    Claim(
        "cafed:lemma16-eq157-tp-b",
        _src("App. B2 Lemma 16, eq. (157)", "T_P, reading B: ln(2nᵢ/(r·λ̄₂))", (1060, 1062)),
        _TP_STATEMENT + "; T_P read as ⌈2n(n−1)(ln(2n/(r·λ̄₂)) − 1)/((n+1)r)⌉ (the library's "
        "T_P_safe; limit ⌈2n(n−1)/(n+1)⌉ at λ̄₂ = 0)",
        _tp_space(),
        lambda i: _tp_entrywise(i, True),
        exact=lambda i: _tp_entrywise_exact(i, True),
        tolerance=1e-9,
        budget=1500,
        expected="holds",
        reading=Reading(
            quote="T_P := max{max_{1≤i≤d}{⌈2n_i(n_i − 1)(ln(2n_i/(ln λ(P)/|λ̄₂(P)|)) − 1)/((n_i + "
            "1) ln(λ(P)/|λ̄₂(P)|))⌉}, 0} (157)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Reading B of the garbled argument, 2n/(r·λ̄₂), against the step of "
            "the cited proof it secures (a sanity check of the repair, not a statement of "
            "CA-Fed). One Jordan block of size n ≤ 8 at |μ| ≤ λ̄₂: the block, not the chain, "
            "is what the step is about.",
        ),
        notes="Reading B (the other bracketing of the garbled fraction; the library's T_P_safe). "
        "Margin as for -a. Observed to cover the entrywise step everywhere searched (no proof).",
    )
)

register(
    Claim(
        "cafed:lemma16-eq157-tp-a-frobenius",
        _src("App. B2 Lemma 16, eq. (157)", "T_P (reading A) for the Frobenius step", (1060, 1062)),
        "for t ≥ T_P (reading A), ‖J_n(μ)ᵗ‖_F ≤ n·λᵗ for a block with |μ| ≤ λ̄₂ — the weaker "
        "consequence of the entrywise step that the proof of eq. (5) actually uses",
        _tp_space(),
        _tp_frobenius,
        exact=_tp_frobenius_exact,
        tolerance=1e-9,
        budget=600,
        expected="refuted",
        reading=Reading(
            quote="T_P := max{max_{1≤i≤d}{⌈2n_i(n_i − 1)(ln(2n_i/(ln λ(P)/|λ̄₂(P)|)) − 1)/((n_i + "
            "1) ln(λ(P)/|λ̄₂(P)|))⌉}, 0}. (157) … Proof of Lemma 16. The inequality in (5) is "
            "proven in [15, Lemma 1] and holds for any t ≥ T_P.",
            hypotheses=(
                _ASSUMPTION1,
                Hypothesis(
                    "one Jordan block J_n(μ) of a chain, |μ| ≤ λ̄₂ < 1, λ = (1 + λ̄₂)/2",
                    "n ≤ 8, λ̄₂ ∈ [0, 1), |μ| = ratio·λ̄₂",
                ),
            ),
            interpretation="The claim tests a step of the cited proof ([15, Lemma 1]) — "
            "‖J_n(μ)ᵗ‖_F ≤ n·λᵗ, the consequence of the entrywise bound that the proof of (5) "
            "uses, for t ≥ T_P — with the garbled (157) repaired as reading A, "
            "ln(2n/r), r = ln(λ/λ̄₂). CA-Fed states no such step: it reports (156)–(157) from "
            "[15, Lemma 1] 'for completeness' (line 104) and uses only eq. (5), which holds "
            "with these constants (cafed:lemma16-eq5). Reading A is the toolkit's repair of a "
            "formula whose printed ln is of a negative number (ln λ(P)/|λ̄₂| < 0); reading B, "
            "ln(2n/(r·λ̄₂)), makes the step hold (cafed:lemma16-eq157-tp-b).",
            alternatives="Eq. (5) with T_P of reading A: cafed:lemma16-eq5 (holds); the step "
            "with reading B: cafed:lemma16-eq157-tp-b (holds).",
        ),
        finding=Finding(
            "literal",
            "tests a step of the cited proof ([15, Lemma 1]) with the toolkit's repair A of the "
            "garbled (157); CA-Fed uses only eq. (5), which holds with that T_P",
            intended="cafed:lemma16-eq5",
        ),
        notes="Margin: min over t ≥ T_P of ln(nλᵗ) − ln‖Jᵗ‖_F with ‖Jᵗ‖_F² = Σ_j (n − j)C(t, "
        "j)²|μ|^{2(t−j)}, "
        "on t ∈ [T_P, T_P + 64], a geometric grid (ratio 1.02) and the entries' peaks. Fails too "
        "(so reading A leaves a gap in the proof, not only in its bookkeeping): near λ̄₂ = 0 the "
        "Frobenius norm of a nilpotent block of size n ≥ 3 at t = 1, 2, … exceeds nλᵗ = n2⁻ᵗ "
        "while T_P = 0.",
    )
)


# ================================================================== footnote 3: λ′ ∈ (λ̄₂, 1)

FN3_FAMILIES = ("debruijn", "jordan", "dense", "product")


def _fn3_setup(inst: Instance, safe: bool) -> tuple[_Chain, float, Any, int, float]:
    """(chain, ln C_P, λ′ (mpmath), T_P(λ′), λ̄₂) for λ′ = λ̄₂ + 10^(−lf)·(1 − λ̄₂)."""
    import mpmath

    ch = _build_chain(inst, FN3_FAMILIES)
    c = ch.code.constants()
    if c.log_C_P is None:
        raise NumericalError("C_P unknown")
    with mpmath.workdps(40):
        slem = ch.slem
        lam = slem + mpmath.mpf(10) ** (-mpmath.mpf(float(inst["lf"]))) * (1 - slem)
        if not slem < lam < 1:
            raise NumericalError("λ′ not strictly inside (λ̄₂, 1) at this precision")
        lam_q = Fraction(mpmath.nstr(lam, 35, strip_zeros=False))
        slem_q = Fraction(mpmath.nstr(slem, 35, strip_zeros=False))
    if ch.family == "product":
        sizes = [1]
    else:
        sizes = [n for _, n in ch.code.lemma16().blocks[1:]] or [1]
    T = max(_tp_formula(n, slem_q, lam_q, safe) for n in sizes)  # eq. 157 with λ′
    return ch, c.log_C_P, lam, T, float(slem)


def _fn3(inst: Instance, safe: bool) -> float:
    ch, log_C, lam, T, slem = _fn3_setup(inst, safe)
    return _eq5_margin(ch, log_C, float(lam), T, slem)


def _fn3_exact(inst: Instance, safe: bool) -> ExactMargin:
    ch, log_C, lam, T, slem = _fn3_setup(inst, safe)
    return _eq5_exact(ch, log_C, lam, T, slem)


def _fn3_space() -> Space:
    return _chain_space(FN3_FAMILIES, [Real("lf", 0.0, 12.0, closed=(False, True))])


_FN3_STATEMENT = (
    "eq. (5) holds for any λ′ ∈ (λ̄₂, 1) in place of λ(P) = (λ̄₂ + 1)/2, with T_P recomputed "
    "from eq. (157) with λ′ (C_P of eq. 156 does not involve λ)"
)

register(
    Claim(
        "cafed:footnote3-lambda-choice-a",
        _src(
            "§III-A footnote 3",
            "(5) holds for any λ(P) ∈ (λ̄₂, 1); T_P of eq. 157, reading A",
            (118, 118),
        ),
        _FN3_STATEMENT + "; reading A of eq. 157 (→ 0 as λ̄₂ → 0)",
        _fn3_space(),
        lambda i: _fn3(i, False),
        simplify=_simplifier(FN3_FAMILIES),
        exact=lambda i: _fn3_exact(i, False),
        tolerance=1e-9,
        budget=150,
        expected="refuted",
        reading=Reading(
            quote="Note that (5) holds for different definitions of λ(P) as long as λ(P) ∈ "
            "(λ̄₂(P), 1). The specific choice for λ(P) changes the values of C_P and T_P. "
            "(footnote 3)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="The footnote claims that for every λ′ ∈ (λ̄₂, 1) there are "
            "constants C_P, T_P (changed by the choice) with (5); it gives no formula for "
            "them. The claim instead keeps C_P of (156) and takes T_P from (157) with λ′ under "
            "the toolkit's reading A of the garbled formula; its failure (λ̄₂ = 0 with a "
            "nilpotent block, where reading A gives T_P = 0) is a failure of that choice of "
            "constants, not of the footnote: with reading B the same C_P works "
            "(cafed:footnote3-lambda-choice-b), and constants exist for every λ′ (the Jordan "
            "form gives ‖Pᵗ − 1ρᵀ‖ ≤ c(λ′)·λ′ᵗ).",
            alternatives="Reading B of (157) with λ′: cafed:footnote3-lambda-choice-b (holds).",
        ),
        finding=Finding(
            "literal",
            "the footnote only claims that some C_P, T_P exist for each λ′; the refuted choice "
            "(C_P kept, T_P from the toolkit's reading A of the garbled (157)) is not the paper's",
            intended="cafed:footnote3-lambda-choice-b",
        ),
        notes="λ′ = λ̄₂ + 10^(−lf)(1 − λ̄₂), lf ∈ (0, 12] (λ′ from near 1 down to 1e-12 above "
        "λ̄₂), λ̄₂ exact; margin as cafed:lemma16-eq5 with λ′. "
        "The footnote also says C_P changes with λ′; eq. 156 as printed does not depend on λ, so "
        "the library's C_P is kept. Refuted where λ̄₂ = 0 but P is not 1ρᵀ (a nilpotent Jordan "
        "part, e.g. the de Bruijn chains): reading A gives T_P(λ′) = 0 for every λ′, and "
        "E(1) ≤ C_P·λ′ fails once λ′ < E(1)/C_P (tested: 2 fair coins, λ′ = 10⁻⁶). Near it "
        "too: the default search shrinks to the lazy de Bruijn chain k = 2, p = 0.306, "
        "laziness 0.0144 (λ̄₂ = 0.0144, a block of size 2), lf = 1.81: margin −0.485, "
        "confirmed at 60 digits. Budget 150 (exact path; found at evaluation 60).",
    )
)

register(
    Claim(
        "cafed:footnote3-lambda-choice-b",
        _src(
            "§III-A footnote 3",
            "(5) holds for any λ(P) ∈ (λ̄₂, 1); T_P of eq. 157, reading B",
            (118, 118),
        ),
        _FN3_STATEMENT + "; reading B of eq. 157 (limit ⌈2n(n−1)/(n+1)⌉ at λ̄₂ = 0)",
        _fn3_space(),
        lambda i: _fn3(i, True),
        simplify=_simplifier(FN3_FAMILIES),
        exact=lambda i: _fn3_exact(i, True),
        tolerance=1e-9,
        budget=80,
        expected="holds",
        reading=Reading(
            quote="Note that (5) holds for different definitions of λ(P) as long as λ(P) ∈ "
            "(λ̄₂(P), 1). The specific choice for λ(P) changes the values of C_P and T_P. "
            "(footnote 3)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="One admissible choice of the constants for each λ′ ∈ (λ̄₂, 1): C_P "
            "of (156), T_P of (157) with λ′ under reading B. " + _CHAIN_FAMILIES_NOTE,
        ),
        notes="As -a with reading B of eq. 157. Budget 80 (exact path).",
    )
)


# ================================================================== App. F1: mixing times


def _tv_distance(ch: _Chain, t: int) -> float:
    """d(t) = max_a ‖[Pᵗ]_a· − ρ‖_TV (floats, Pᵗ − 1ρᵀ by binary powering)."""
    if t <= 0:
        return float(0.5 * np.max(np.abs(np.eye(ch.M) - ch.rho_f[None, :]).sum(axis=1)))
    B = ch.Pf - ch.rho_f[None, :]
    acc = None
    while t:
        if t & 1:
            acc = B if acc is None else acc @ B
        t >>= 1
        if t:
            B = B @ B
    assert acc is not None
    return float(0.5 * np.max(np.abs(acc).sum(axis=1)))


def _tv_distance_mp(ch: _Chain, t: int, dps: int = 80) -> Any:
    import mpmath

    with mpmath.workdps(dps):
        M = ch.M
        if t <= 0:
            return (
                max(sum(abs(int(a == j) - _mp(ch.rho[j])) for j in range(M)) for a in range(M)) / 2
            )
        B = mpmath.matrix(M, M)
        for i in range(M):
            for j in range(M):
                B[i, j] = _mp(ch.P[i][j] - ch.rho[j])
        acc = None
        while t:
            if t & 1:
                acc = B if acc is None else acc * B
            t >>= 1
            if t:
                B = B * B
        assert acc is not None
        return max(sum(abs(acc[a, j]) for j in range(M)) for a in range(M)) / 2


MIX_LOWER_FAMILIES = ("dense", "jordan", "debruijn", "product")
MIX_REVERSIBLE_FAMILIES = ("reversible", "product")


def _mix_space(families: tuple[str, ...], k_max: int = 5) -> Space:
    extra: list[Parameter] = [Real("eps", 0.0, 0.5, special=(0.25, 0.45))]
    return _chain_space(families, extra, k_max=k_max)


def _t_mix(d: Any, eps: Any, cap: int = 1 << 50) -> int:
    """min{t : d(t) ≤ ε} by doubling and bisection (d is non-increasing)."""
    if d(0) <= eps:
        return 0
    hi = 1
    while d(hi) > eps:
        hi *= 2
        if hi > cap:
            raise NumericalError("t_mix beyond 2^50 steps")
    lo = hi // 2  # d(lo) > ε ≥ d(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if d(mid) > eps else (lo, mid)
    return hi


def _mix_lower(inst: Instance) -> float:
    ch = _build_chain(inst, MIX_LOWER_FAMILIES)
    eps = float(inst["eps"])
    L = ch.code.mixing_time_bounds(eps).lower
    t_mix = _t_mix(lambda t: _tv_distance(ch, t), eps)
    return (t_mix - L) / max(t_mix, 1.0)


def _mix_lower_exact(inst: Instance) -> ExactMargin:
    import mpmath

    ch = _build_chain(inst, MIX_LOWER_FAMILIES)
    eps = Fraction(float(inst["eps"]))
    with mpmath.workdps(80):
        L = (1 / (1 - ch.slem) - 1) * mpmath.log(1 / (2 * _mp(eps)))
        t_mix = _t_mix(lambda t: _tv_distance_mp(ch, t), _mp(eps))
        return Fraction(float((t_mix - L) / max(t_mix, 1))), (
            "exact λ̄₂, d(t) at 80 digits (mpmath)"
        )


def _mix_upper(inst: Instance, families: tuple[str, ...]) -> float:
    ch = _build_chain(inst, families)
    eps = float(inst["eps"])
    U = ch.code.mixing_time_bounds(eps).upper
    t_mix = _t_mix(lambda t: _tv_distance(ch, t), eps)
    return (U - t_mix) / max(U, 1.0)


def _mix_upper_exact(inst: Instance, families: tuple[str, ...]) -> ExactMargin:
    import mpmath

    ch = _build_chain(inst, families)
    eps = Fraction(float(inst["eps"]))
    with mpmath.workdps(80):
        U = mpmath.log(1 / (_mp(eps) * _mp(min(ch.rho)))) / (1 - ch.slem)
        t_mix = _t_mix(lambda t: _tv_distance_mp(ch, t), _mp(eps))
        return Fraction(float((U - t_mix) / max(U, 1))), (
            "exact ρ_min and λ̄₂, d(t) at 80 digits (mpmath)"
        )


register(
    Claim(
        "cafed:appf1-mixing-lower",
        _src("App. F1", "(t_rel − 1) ln(1/(2ε)) ≤ t_mix(ε)", (1486, 1486)),
        "(t_rel − 1)·ln(1/(2ε)) ≤ t_mix(ε) for every Assumption-1 chain and ε ∈ (0, ½), "
        "t_rel = 1/(1 − λ̄₂), t_mix(ε) = min{t : d(t) ≤ ε}",
        _mix_space(MIX_LOWER_FAMILIES),
        _mix_lower,
        simplify=_simplifier(MIX_LOWER_FAMILIES),
        exact=_mix_lower_exact,
        tolerance=1e-6,
        budget=200,
        expected="holds",
        reading=Reading(
            quote="Upper and lower bounds exist for the mixing time based on the relaxation time "
            "and the stationary distribution: (t_rel − 1)log(1/(2ε)) ≤ t_mix(ε) ≤ "
            "log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. 154–156].",
            hypotheses=(_ASSUMPTION1, Hypothesis("ε > 0", "ε ∈ (0, ½)")),
            interpretation="The lower bound for every Assumption-1 chain (the cited proof, "
            "Levin–Peres Thm 12.5, uses an eigenfunction only, not reversibility). "
            + _CHAIN_FAMILIES_NOTE,
        ),
        notes="Code path: chain.mixing_time_bounds(ε).lower. Margin (t_mix − L)/max(t_mix, 1), "
        "t_mix found by doubling and bisection on d(t), computed here from Pᵗ − 1ρᵀ (exact ρ); "
        "tolerance 1e-6 (relative): near-periodic products (λ₂ → −1) make the bound tight while "
        "t_mix ~ 1e10 carries float error. "
        "Levin–Peres Thm 12.5 needs no reversibility.",
    )
)

register(
    Claim(
        "cafed:appf1-mixing-upper-reversible",
        _src("App. F1", "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel, reversible chains", (1486, 1486)),
        "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel for reversible chains (Levin–Peres Thm 12.4)",
        _mix_space(MIX_REVERSIBLE_FAMILIES),
        lambda i: _mix_upper(i, MIX_REVERSIBLE_FAMILIES),
        simplify=_simplifier(MIX_REVERSIBLE_FAMILIES),
        exact=lambda i: _mix_upper_exact(i, MIX_REVERSIBLE_FAMILIES),
        tolerance=1e-9,
        budget=250,
        expected="holds",
        reading=Reading(
            quote="Upper and lower bounds exist for the mixing time based on the relaxation time "
            "and the stationary distribution: (t_rel − 1)log(1/(2ε)) ≤ t_mix(ε) ≤ "
            "log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. 154–156].",
            hypotheses=(
                _ASSUMPTION1,
                Hypothesis(
                    "P reversible (the hypothesis of the cited [31, Thm 12.4])",
                    "P = lazy·I + (1 − lazy)D⁻¹(R + Rᵀ) and products of two-state chains",
                ),
                Hypothesis("ε > 0", "ε ∈ (0, ½)"),
            ),
            interpretation="The upper bound as the cited theorem states it, for reversible "
            "chains (M ≤ 6 or up to 3 two-state clients). " + _CHAIN_FAMILIES_NOTE,
        ),
        notes="Reversible chains: P = lazy·I + (1 − lazy)·D⁻¹(R + Rᵀ) (rational) and products of "
        "two-state clients. Margin (U − t_mix)/max(U, 1), U the library's upper bound.",
    )
)

MIX_UPPER_GENERAL_FAMILIES = ("debruijn",)


def _mix_general_simplify(inst: Instance) -> list[Instance]:
    """The chain simplifier, plus round values of the paper's quantities: a fair coin, no
    laziness, three flips (de Bruijn), ε = 0.45 or ¼ (its special values)."""
    out = _simplifier(MIX_UPPER_GENERAL_FAMILIES)(inst)
    plain = {"p": 0.5, "lazyd": 0.0, "k": 3}
    keys = [k for k, v in plain.items() if k in inst and inst[k] != v]
    out += [{**inst, k: plain[k]} for k in keys]
    out += [{**inst, "eps": e} for e in (0.45, 0.25) if inst["eps"] != e]
    fair = {"k": 3, "p": 0.5, "lazyd": 0.0, "eps": 0.45}  # all at once: 3 fair flips, ε = 0.45
    if MIX_UPPER_GENERAL_FAMILIES[int(inst["family"])] == "debruijn":
        if any(inst[k] != v for k, v in fair.items()):
            out.insert(0, {**inst, **fair})
    return out


def _mix_upper_explain(inst: Instance) -> Explanation:
    """The chain's P, ρ, λ̄₂, t_rel, ρ_min and ε; d(t) up to t_mix(ε); both sides."""
    import mpmath

    ch = _build_chain(inst, MIX_UPPER_GENERAL_FAMILIES)
    eps = dec(inst["eps"])
    with mpmath.workdps(60):
        slem = ch.slem
        t_rel = 1 / (1 - slem)
        bound = mpmath.log(1 / (_mp(eps) * _mp(min(ch.rho)))) * t_rel
        d = [_tv_distance_mp(ch, 0)]
        while d[-1] > _mp(eps) and len(d) <= 200:
            d.append(_tv_distance_mp(ch, len(d)))
        t_mix = len(d) - 1
    steps = [Step(f"d({t})", "max_a ‖[Pᵗ]_a· − ρ‖_TV", v) for t, v in enumerate(d)]
    family = ch.family
    what = (
        f"the window of the last {int(inst['k'])} coin flips (de Bruijn chain, heads "
        f"{show(dec(inst['p']))}, laziness {show(dec(inst['lazyd']))})"
        if family == "debruijn"
        else "transition matrix"
    )
    return Explanation(
        quantities=(
            Quantity("P", what, tuple(tuple(r) for r in ch.P)),
            Quantity("ρ", "stationary distribution", tuple(ch.rho)),
            Quantity("ε", "the threshold of t_mix(ε)", eps),
        ),
        steps=(
            Step("λ̄₂", "the second largest eigenvalue modulus (exact charpoly)", slem),
            Step("t_rel", "1/(1 − λ̄₂)", t_rel),
            Step("ρ_min", "min_a ρ_a", min(ch.rho)),
            *steps,
        ),
        lhs=Step("t_mix(ε)", "min{t : d(t) ≤ ε}", t_mix),
        relation="≤",
        rhs=Step("ln(1/(ερ_min))·t_rel", "", bound),
        holds=bool(t_mix <= bound),
        verify_args={"P": [list(r) for r in ch.P], "eps": eps},
        note="Levin–Peres's Theorem 12.4 (the cited [31, pp. 154–156]) proves this bound for "
        "reversible chains; this P is not reversible (ρ_iP_ij ≠ ρ_jP_ji).",
    )


def _verify_appf1_mixing_upper(P, eps):  # type: ignore[no-untyped-def]
    """Both sides of t_mix(ε) ≤ ln(1/(ερ_min))·t_rel (App. F1) for the chain P (rows of
    Fractions): ρ by exact elimination, λ̄₂ from the exact characteristic polynomial (its
    squarefree part, roots at 60 digits), d(t) = max_a ½Σ_j |[Pᵗ]_aj − ρ_j| exactly."""
    import mpmath

    mpmath.mp.dps = 60
    M = len(P)
    zero = eps * 0  # a Fraction (the arguments are Fractions)
    # stationary law: ρᵀ(P − I) = 0, Σρ = 1
    A = [[P[i][j] - (1 if i == j else 0) for i in range(M)] + [zero] for j in range(M - 1)]
    A.append([zero + 1] * M + [zero + 1])
    for c in range(M):
        r = next(r for r in range(c, M) if A[r][c] != 0)
        A[c], A[r] = A[r], A[c]
        A[c] = [v / A[c][c] for v in A[c]]
        for r in range(M):
            if r != c and A[r][c] != 0:
                A[r] = [x - A[r][c] * y for x, y in zip(A[r], A[c], strict=False)]
    rho = [A[i][M] for i in range(M)]
    # characteristic polynomial (Faddeev–LeVerrier), highest degree first
    coeffs = [zero + 1]
    B = [[zero] * M for _ in range(M)]
    for k in range(1, M + 1):
        B = [
            [
                sum((P[i][m] * B[m][j] for m in range(M)), zero) + (coeffs[-1] if i == j else 0)
                for j in range(M)
            ]
            for i in range(M)
        ]
        PB = [
            [sum((P[i][m] * B[m][j] for m in range(M)), zero) for j in range(M)] for i in range(M)
        ]
        coeffs.append(-sum(PB[i][i] for i in range(M)) / k)
    # divide by (x − 1) (synthetic division; the remainder is 0 for a stochastic matrix)
    q = [coeffs[0]]
    for c in coeffs[1:-1]:
        q.append(c + q[-1])
    assert coeffs[-1] + q[-1] == 0

    def rem(a, b):  # polynomial remainder over Q
        a = a[:]
        while len(a) >= len(b) and any(a):
            f = a[0] / b[0]
            a = [x - f * y for x, y in zip(a, b + [0] * (len(a) - len(b)), strict=False)][1:]
        while a and a[0] == 0:
            a = a[1:]
        return a

    def deriv(a):
        n = len(a) - 1
        return [c * (n - i) for i, c in enumerate(a[:-1])]

    g, h = q, deriv(q)  # gcd(q, q′) by Euclid, then the squarefree part q / gcd
    while h:
        g, h = h, rem(g, h)
    sq = q
    if len(g) > 1:  # exact division q / g
        out, a = [], q[:]
        while len(a) >= len(g):
            f = a[0] / g[0]
            out.append(f)
            a = [x - f * y for x, y in zip(a, g + [0] * (len(a) - len(g)), strict=False)][1:]
        sq = out
    while len(sq) > 1 and sq[-1] == 0:  # roots at 0
        sq = sq[:-1]
    roots = (
        mpmath.polyroots(
            [mpmath.mpf(c.numerator) / c.denominator for c in sq], maxsteps=400, extraprec=400
        )
        if len(sq) > 1
        else []
    )
    slem = max([abs(z) for z in roots], default=mpmath.mpf(0))
    t_rel = 1 / (1 - slem)
    bound = mpmath.log(1 / (mpmath.mpf(eps.numerator) / eps.denominator * min(rho))) * t_rel
    # t_mix(ε) = min{t : d(t) ≤ ε}, exactly
    Pt = [[zero + int(i == j) for j in range(M)] for i in range(M)]
    t = 0
    while max(sum(abs(Pt[a][j] - rho[j]) for j in range(M)) for a in range(M)) / 2 > eps:
        Pt = [
            [sum((Pt[i][m] * P[m][j] for m in range(M)), zero) for j in range(M)] for i in range(M)
        ]
        t += 1
        assert t <= 10**4, "t_mix beyond 10⁴ steps"
    return {"lhs": t, "rhs": bound, "holds": t <= bound}


register(
    Claim(
        "cafed:appf1-mixing-upper-general",
        _src(
            "App. F1",
            "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel, as applied to any Assumption-1 chain",
            (1486, 1486),
        ),
        "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel for every irreducible aperiodic chain (the appendix "
        "states the bounds for the chain of Assumption 1, reversible or not)",
        _mix_space(MIX_UPPER_GENERAL_FAMILIES, k_max=3),
        lambda i: _mix_upper(i, MIX_UPPER_GENERAL_FAMILIES),
        simplify=_mix_general_simplify,
        exact=lambda i: _mix_upper_exact(i, MIX_UPPER_GENERAL_FAMILIES),
        tolerance=1e-9,
        budget=200,
        expected="refuted",
        reading=Reading(
            quote="We recall some existing results [15], [31] for the Markov chain (A_t)_{t≥0} "
            "used in our analysis (Assumption 1). … Upper and lower bounds exist for the mixing "
            "time based on the relaxation time and the stationary distribution: (t_rel − 1)"
            "log(1/(2ε)) ≤ t_mix(ε) ≤ log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. "
            "154–156].",
            hypotheses=(
                _ASSUMPTION1,
                Hypothesis("ε > 0 (the paper gives no range)", "ε ∈ (0, ½)"),
            ),
            interpretation="The bounds are stated for 'the Markov chain used in our analysis "
            "(Assumption 1)', which need not be reversible; the claim tests the upper bound "
            "there. It is Levin–Peres's Theorem 12.4 (the cited pages), proved for reversible "
            "chains: App. F1 drops that hypothesis. The claim does not test the cited theorem "
            "(its reversible form holds: cafed:appf1-mixing-upper-reversible) but its "
            "restatement for Assumption-1 chains. A global search over 3-state chains "
            "(differential "
            "evolution on P and ε) finds no counterexample; the smallest found has 4 states, "
            "P = [[0, ⅓, ⅓, ⅓], [0, 0, ⅔, ⅓], [1, 0, 0, 0], [⅔, ⅓, 0, 0]] (ρ = (3/8, 3/16, ¼, "
            "3/16), eigenvalue −⅓ in a Jordan block of size 3): d(3) = 3/8, d(4) = 47/216, so "
            "t_mix(ε) = 4 > (3/2)ln(16/(3ε)) for ε ∈ (0.3706, 0.375). The moderate witness is "
            "the 8-state fair de Bruijn chain (entries ½, d(t) = 7/8, 3/4, 1/2, 0: t_mix = 3 > "
            "ln(8/ε) for ε ∈ (0.398, ½)), simpler to check by hand. The bound is background in "
            "App. F1; no result of the paper uses it.",
            alternatives="Reversible chains: cafed:appf1-mixing-upper-reversible (holds); the "
            "lower bound: cafed:appf1-mixing-lower (holds for every Assumption-1 chain).",
        ),
        finding=Finding(
            "typo",
            "App. F1 states Levin–Peres's bound t_mix(ε) ≤ log(1/(ερ_min))t_rel for the chain of "
            "Assumption 1, dropping its hypothesis that the chain is reversible [31, Thm 12.4]; "
            "non-reversible chains violate it",
            intended="cafed:appf1-mixing-upper-reversible",
        ),
        explain=_mix_upper_explain,
        verify=_verify_appf1_mixing_upper,
        notes="Levin–Peres Thm 12.4 assumes reversibility; the library flags non-reversible chains "
        "(MixingTimeBounds.reversible = False). Counterexamples: (1) the de Bruijn chain of the "
        "last 3 fair coin flips (8 states, entries ½ and 0, Pᵗ = 1ρᵀ for t ≥ 3): λ̄₂ = 0, t_rel = "
        "1, "
        "ρ_min = 1/8, so the bound is ln(8/ε); d(2) = ½ > ε, hence t_mix(ε) = 3 > ln(8/ε) for "
        "ε ∈ (8/e³ ≈ 0.398, ½) — exact rationals; (2) the inventory's 7-state chain "
        "(weights [[8,816,44,0,3,103,25],…]) has t_mix(¼) = 6 > 5.749: d(5) = 0.254680 > ¼ in "
        "exact rationals (tested); (3) the smallest found, 4 states (see the reading). Space: "
        "de Bruijn chains of k ≤ 3 coin flips (heads p, laziness), where the search finds the "
        "8-state counterexample under every seed — a counterexample space, narrower than the "
        "paper's on purpose so that the witnesses read as plain numbers (dense chains violate "
        "the bound too rarely for a random search, the Jordan family's entries are unreadable, "
        "and k = 4, 5 give 16- and 32-state witnesses).",
    )
)


# ================================================================== Definition 1, eq. (132): J_t


def _jt_code(t: int, log_K: float, lam: float, T_P: int) -> int:
    from fltheory.bounds.series import delays

    return int(delays(np.array([t]), log_K, -math.log(lam), T_P)[0])


def _jt_exact(t: int, log_K: float, lam: float, T_P: int) -> int:
    """J_t = min{max{⌈ln(2C_P H t)/ln(1/λ)⌉, T_P}, t} at 50 digits (ln K = ln(2C_P H))."""
    import mpmath

    with mpmath.workdps(50):
        ratio = (mpmath.mpf(log_K) + mpmath.log(t)) / -mpmath.log(mpmath.mpf(lam))
        return int(min(max(int(mpmath.ceil(ratio)), T_P), t))


def _jt_inputs(inst: Instance, shifted: bool) -> tuple[int, float, float, int]:
    T_P = int(inst["T_P"])
    t = T_P + int(inst["s"]) if shifted else int(inst["t"])
    lam = float(inst["lam"])
    if not (0.0 < lam < 1.0 and t >= 1 and T_P >= 0):
        raise InputError("eq. 132 needs λ ∈ (0, 1), t ≥ 1 and T_P ≥ 0")  # (shrinking rounds)
    return t, float(inst["logK"]), lam, T_P


def _jt_margin(inst: Instance, shifted: bool) -> float:
    t, log_K, lam, T_P = _jt_inputs(inst, shifted)
    J = _jt_code(t, log_K, lam, T_P)
    if J != _jt_exact(t, log_K, lam, T_P):
        return -0.5  # the library's J_t is not eq. 132 (beyond a rounding tie)
    return float(min(J - T_P, t - J))


def _jt_margin_exact(inst: Instance, shifted: bool) -> ExactMargin:
    t, log_K, lam, T_P = _jt_inputs(inst, shifted)
    J = _jt_exact(t, log_K, lam, T_P)
    return Fraction(min(J - T_P, t - J)), "J_t at 50 digits (mpmath), integer comparison"


def _jt_explain(inst: Instance) -> Explanation:
    """J_t of eq. 132 at the instance (ln(2C_PH), λ(P), T_P, t), decided at 50 digits."""
    t, log_K, lam, T_P = _jt_inputs(inst, False)
    J = _jt_exact(t, log_K, lam, T_P)
    return Explanation(
        quantities=(
            Quantity("ln(2C_PH)", "eq. 156, eq. 8", dec(log_K)),
            Quantity("λ(P)", "eq. 229", dec(lam)),
            Quantity("T_P", "eq. 157", T_P),
            Quantity("t", "round", t),
        ),
        steps=(Step("J_t", "min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (eq. 132)", J),),
        lhs=Step("T_P", "", T_P),
        relation="≤",
        rhs=Step("J_t", "", J),
        holds=T_P <= J <= t,
        note="For t < T_P the cap gives J_t = t < T_P; the paper uses the remark only for "
        "t ≥ T_P (cafed:eq132-jt).",
    )


def _jt_space(shifted: bool) -> Space:
    return Space(
        [
            Integer("T_P", 0, 500),
            Integer("s", 0, 10**6) if shifted else Integer("t", 1, 10**6),
            Real("logK", -30.0, 30.0, closed=(True, True), special=(0.0,)),
            Real("lam", 0.5, 1.0, closed=(True, False), special=(0.5,)),
        ]
    )


register(
    Claim(
        "cafed:eq132-jt-printed",
        _src("App. B2 Definition 1, eq. (132)", "'by definition: T_P ≤ J_t ≤ t'", (963, 968)),
        "J_t = min{max{⌈ln(2C_P H t)/ln(1/λ(P))⌉, T_P}, t} satisfies T_P ≤ J_t ≤ t for every "
        "round t ≥ 1",
        _jt_space(False),
        lambda i: _jt_margin(i, False),
        exact=lambda i: _jt_margin_exact(i, False),
        explain=_jt_explain,
        tolerance=0.0,
        budget=600,
        expected="refuted",
        reading=Reading(
            quote="Definition 1. For communication round t ≥ 1, denote the positive integer J_t "
            "as follows: J_t := min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t}. (132) … We remark "
            "that, by definition: T_P ≤ J_t ≤ t.",
            hypotheses=(
                Hypothesis(
                    "λ(P) ∈ [½, 1), C_P, H > 0, T_P ≥ 0 (eqs. 156, 157, 229)",
                    "λ ∈ [½, 1), ln(2C_PH) ∈ [−30, 30], T_P ∈ [0, 500]",
                ),
            ),
            interpretation="Literal: the remark for every round t ≥ 1. For t < T_P the cap "
            "gives J_t = t < T_P, so this reading fails trivially. Not the authors' meaning: "
            "the remark is used only where t ≥ T_P — (158) is stated ∀t ≥ T_P, Lemma 18 "
            "begins 'Assume t ≥ T_P', and the paper itself notes that these bounds 'require "
            "t ≥ T_P' and treats t < T_P separately in Lemma 17 (lines 1073–1075; Lemma 18, line "
            "1105). For t ≥ T_P "
            "the remark holds (cafed:eq132-jt).",
            alternatives="For t ≥ T_P: cafed:eq132-jt (holds). J_t ≤ t holds for every t.",
        ),
        finding=Finding(
            "literal",
            "'T_P ≤ J_t ≤ t' is used only for t ≥ T_P (eq. 158, Lemma 18; Lemma 17 treats "
            "t < T_P), where it holds; for t < T_P the cap gives J_t = t < T_P",
            intended="cafed:eq132-jt",
        ),
        notes="Code path: fltheory.bounds.series.delays; oracle: the ceiling at 50 digits. Margin "
        "min(J_t − T_P, t − J_t) (integers; −0.5 if the library's J_t differs from the oracle). "
        "False for every t < T_P, where the cap gives J_t = t < T_P (e.g. T_P = 2, t = 1: J_1 = "
        "1). "
        "Harmless in the proof: Lemma 17 handles t < T_P separately. Inputs: ln(2C_P H) ∈ "
        "[−30, 30] (negative when 2C_P H < 1: then the ceiling is ≤ 0 and J_t = min(T_P, t)), "
        "λ ∈ [½, 1).",
    )
)

register(
    Claim(
        "cafed:eq132-jt",
        _src("App. B2 Definition 1, eq. (132)", "T_P ≤ J_t ≤ t for t ≥ T_P", (963, 968)),
        "for every round t ≥ T_P (the range where Lemmas 14–18 use it), T_P ≤ J_t ≤ t",
        _jt_space(True),
        lambda i: _jt_margin(i, True),
        exact=lambda i: _jt_margin_exact(i, True),
        tolerance=0.0,
        budget=600,
        expected="holds",
        reading=Reading(
            quote="J_t := min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t}. (132) … We remark that, by "
            "definition: T_P ≤ J_t ≤ t.",
            hypotheses=(
                Hypothesis(
                    "t ≥ T_P, where the paper uses the remark (eq. 158, Lemma 18)",
                    "t = T_P + s, s ∈ [0, 10⁶], T_P ∈ [0, 500]",
                ),
                Hypothesis("λ(P) ∈ [½, 1), C_P, H > 0", "λ ∈ [½, 1), ln(2C_PH) ∈ [−30, 30]"),
            ),
            interpretation="The remark on the rounds where the paper uses it; J_t from the "
            "library (bounds.series.delays) against a 50-digit ceiling.",
        ),
        notes="t = T_P + s, s ≥ 0; margin and oracle as cafed:eq132-jt-printed.",
    )
)


# ================================================================== eq. (158)

L158_FAMILIES = ("product", "dense", "jordan", "debruijn")


def _eq158_setup(inst: Instance) -> tuple[_Chain, Any, int, int, float]:
    """(chain, constants, t, J_t, H)."""
    ch = _build_chain(inst, L158_FAMILIES)
    c = ch.code.constants()
    if c.log_C_P is None:
        raise NumericalError("C_P unknown")
    H = 10.0 ** float(inst["lH"])
    t = c.T_P + int(inst["s"])
    if t < 1:
        t = 1
    log_K = math.log(2.0) + c.log_C_P + math.log(H)
    return ch, c, t, _jt_code(t, log_K, c.lam, c.T_P), H


def _eq158_parts(inst: Instance, exact: bool) -> tuple[Any, Any, Any, Any, bool]:
    """(ln E(J_t), ln C_Pλᵗ, ln C_Pλ^{J_t}, ln 1/(2Ht), J_t < t) — mpmath when ``exact``."""
    import mpmath

    ch, c, t, J, H = _eq158_setup(inst)
    if exact:
        with mpmath.workdps(60):
            lam = (ch.slem + 1) / 2
            E = orc.envelope_mp(ch.P, ch.rho, [J], dps=60)[0]
            log_E = mpmath.log(E) if E > 0 else mpmath.mpf(-1e6)
            log_C = mpmath.mpf(c.log_C_P)
            return (
                log_E,
                log_C + t * mpmath.log(lam),
                log_C + J * mpmath.log(lam),
                -mpmath.log(2 * mpmath.mpf(H) * t),
                J < t,
            )
    E = float(orc.envelope_float(ch.Pf, ch.rho_f, [J])[0])
    log_E = math.log(E) if E > 0 else -1e6
    return (
        log_E,
        c.log_C_P + t * math.log(c.lam),
        c.log_C_P + J * math.log(c.lam),
        -math.log(2.0 * H * t),
        J < t,
    )


def _eq158_printed(inst: Instance, exact: bool = False) -> Any:
    log_E, log_Ct, log_CJ, log_h, _ = _eq158_parts(inst, exact)
    # E(J_t) ≤ C_Pλᵗ ≤ C_Pλ^{J_t} ≤ 1/(2Ht) ("=" read as ≤, the direction (168) uses)
    return min(log_Ct - log_E, log_CJ - log_Ct, log_h - log_CJ)


def _eq158_corrected(inst: Instance, exact: bool = False) -> Any:
    log_E, _, log_CJ, log_h, uncapped = _eq158_parts(inst, exact)
    return min(log_CJ - log_E, log_h - log_CJ) if uncapped else log_CJ - log_E


def _eq158_space() -> Space:
    return _chain_space(
        L158_FAMILIES,
        [
            Real("lH", -3.0, 3.0, closed=(True, True), special=(0.0, 1.0)),
            Integer("s", 0, 2000),
        ],
    )


def _two_state_as_product(inst: Instance) -> Instance:
    """A two-state instance (π, λ₂, lH, s) as the ``product`` family of :data:`L158_FAMILIES`
    (one client)."""
    return {
        "family": L158_FAMILIES.index("product"),
        "N": 1,
        "pi": np.array([float(inst["pi"])]),
        "l2": np.array([float(inst["lam2"])]),
        "lH": float(inst["lH"]),
        "s": int(inst["s"]),
    }


def _eq158_two_state_space() -> Space:
    """Two-state chains (eq. 236) in the paper's coordinates, H = 10^lH and t = T_P + s."""
    return Space(
        [
            Real("pi", 0.0, 1.0, special=(0.5,)),
            Real(
                "lam2",
                lambda i: 1.0 - 1.0 / max(i["pi"], 1.0 - i["pi"]),
                1.0,
                closed=(True, False),
                special=(0.0, 0.5, 0.9),
            ),
            Real("lH", -3.0, 3.0, closed=(True, True), special=(0.0, 1.0)),
            Integer("s", 0, 2000),
        ]
    )


def _eq158_two_state_simplify(inst: Instance) -> list[Instance]:
    """π = ½, λ₂ and lH rounded (one digit, an integer), t = 1 — together, then one by one."""
    plain = {"pi": 0.5, "lam2": float(np.round(float(inst["lam2"]), 1)),
             "lH": float(round(float(inst["lH"]))), "s": 0}  # fmt: skip
    keys = [k for k, v in plain.items() if inst[k] != v]
    out = [{**inst, **{k: plain[k] for k in keys}}] if keys else []
    return out + [{**inst, k: plain[k]} for k in keys]


def _eq158_links(pi: Fraction, lam2: Fraction, log10_H: Fraction, s: int) -> dict[str, Any]:
    """Eq. 158 for the two-state chain (eq. 236) at 50 digits: C_P of eq. 156 with the Jordan
    basis that minimises ‖U‖_F‖U⁻¹‖_F (= 2√(2(π² + (1 − π)²)), the library's), T_P = 0 (one
    block of size 1), λ = (1 + |λ₂|)/2, J_t of eq. 132 and E(J) = max_ij |[P^J]_ij − ρ_j| =
    |λ₂|^J·max(π, 1 − π) (Pᵗ − 1ρᵀ = λ₂ᵗ[[π, −π], [π − 1, 1 − π]])."""
    import mpmath

    with mpmath.workdps(50):
        C_P = 2 * mpmath.sqrt(2 * (_mp(pi) ** 2 + _mp(1 - pi) ** 2))
        lam = (1 + abs(lam2)) / 2
        H = mpmath.mpf(10) ** _mp(log10_H)
        t = s  # T_P = 0
        t = max(t, 1)
        x = mpmath.log(2 * C_P * H * t) / -mpmath.log(_mp(lam))
        n = int(mpmath.ceil(x))
        if abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -40:
            # a tie needs 2C_PHt rational: π = ½ (C_P = 2) and an integer lH; decide exactly
            if pi != Fraction(1, 2) or log10_H.denominator != 1:
                raise NumericalError("ln(2C_PHt)/ln(1/λ) is too close to an integer")
            n0 = int(mpmath.nint(x))
            n = n0 if 4 * Fraction(10) ** int(log10_H) * t <= (1 / lam) ** n0 else n0 + 1
        J = int(min(max(n, 0), t))
        E = abs(lam2) ** J * max(pi, 1 - pi)
        return {"C_P": C_P, "lam": lam, "H": H, "t": t, "ratio": x, "J": J, "E": E,
                "Ct": C_P * _mp(lam) ** t, "CJ": C_P * _mp(lam) ** J,
                "half": 1 / (2 * H * t)}  # fmt: skip


def _eq158_explain(inst: Instance) -> Explanation:
    pi, lam2, lH, s = dec(inst["pi"]), dec(inst["lam2"]), dec(inst["lH"]), int(inst["s"])
    r = _eq158_links(pi, lam2, lH, s)
    P = _two_state_exact(pi, lam2)
    links = [
        ("max_ij |[P^J_t]_ij − ρ_j|", r["E"], "C_Pλᵗ", r["Ct"]),
        ("C_Pλᵗ", r["Ct"], "C_Pλ^J_t", r["CJ"]),
        ("C_Pλ^J_t", r["CJ"], "1/(2Ht)", r["half"]),
    ]
    failing = [lk for lk in links if not _mp_any(lk[1]) <= _mp_any(lk[3])]
    shown = failing[0] if failing else links[-1]
    H = 10**lH.numerator if lH.denominator == 1 and lH >= 0 else f"10^{show(lH)}"
    return Explanation(
        quantities=(
            Quantity(
                "P",
                "transition matrix (eq. 236), states (inactive, active)",
                tuple(tuple(row) for row in P),
            ),
            Quantity("ρ", "stationary distribution (1 − π, π) (eq. 237)", (1 - pi, pi)),
            Quantity("λ₂", "second eigenvalue (eq. 238)", lam2),
            Quantity("H", "the constant of Lemma 1, eq. (8)", H),
            Quantity("t", "round (t ≥ T_P = 0)", r["t"]),
        ),
        steps=(
            Step("λ(P)", "(1 + |λ₂|)/2 (eq. 229)", r["lam"]),
            Step("C_P", "eq. (156), least over Jordan bases: 2√(2(π² + (1 − π)²))", r["C_P"]),
            Step("T_P", "eq. (157): one block of size 1", 0),
            Step("ln(2C_PHt)/ln(1/λ)", "(eq. 132)", r["ratio"]),
            Step("J_t", "min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (eq. 132)", r["J"]),
            Step("max_ij |[P^J_t]_ij − ρ_j|", "|λ₂|^J_t·max(π, 1 − π)", r["E"]),
            Step("C_Pλᵗ", "", r["Ct"]),
            Step("C_Pλ^J_t", "", r["CJ"]),
            Step(
                "1/(2Ht)", "what step (168) needs max_ij |[P^J_t]_ij − ρ_j| to be below", r["half"]
            ),
            Step(
                "max_ij |[P^J_t]_ij − ρ_j| ≤ 1/(2Ht)",
                "the bound (168) uses",
                bool(_mp(r["E"]) <= r["half"]),
            ),
        ),
        lhs=Step(shown[0], "", shown[1]),
        relation="≤",
        rhs=Step(shown[2], "", shown[3]),
        holds=not failing,
        verify_args={"pi": pi, "lam2": lam2, "log10_H": lH, "t": r["t"]},
        note="Eq. (158): max_ij |[P^J_t]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^J_t = 1/(2Ht) (= read as ≤). "
        "Shown: the first link that fails."
        + (
            " J_t is capped at t here (J_t = t < ⌈ln(2C_PHt)/ln(1/λ)⌉)."
            if r["J"] == r["t"] and r["ratio"] > r["t"]
            else ""
        ),
    )


def _verify_lemma16_eq158(pi, lam2, log10_H, t):  # type: ignore[no-untyped-def]
    """Eq. (158) for the two-state chain of eq. (236) with parameters (π, λ₂), H = 10^log10_H, at
    round t: the three links max_ij |[P^J_t]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^J_t ≤ 1/(2Ht) ('=' read as
    '≤'), C_P of eq. (156) with the Jordan basis minimising ‖U‖_F‖U⁻¹‖_F, T_P = 0."""
    import mpmath

    mpmath.mp.dps = 50
    P = [[1 - (1 - lam2) * pi, (1 - lam2) * pi], [(1 - lam2) * (1 - pi), 1 - (1 - lam2) * (1 - pi)]]
    rho = [1 - pi, pi]
    assert all(0 <= v <= 1 for row in P for v in row) and all(sum(r) == 1 for r in P)

    # C_P: U = [1, u] with u = (π, π − 1) (P u = λ₂ u), U⁻¹ = [ρ; (1, −1)]; the least
    # ‖U D‖_F‖D⁻¹U⁻¹‖_F over the diagonal rescalings D is Σ_B ‖U_B‖‖(U⁻¹)_B‖ (Cauchy–Schwarz)
    def mp(q):  # type: ignore[no-untyped-def]
        return mpmath.mpf(q.numerator) / q.denominator

    # ‖1‖‖ρ‖ + ‖u‖‖(1, −1)‖ = 2·√2·√(π² + (1 − π)²)
    C_P = 2 * mpmath.sqrt(mp(2 * (pi**2 + (1 - pi) ** 2)))
    lam = (1 + abs(lam2)) / 2
    H = mpmath.mpf(10) ** mp(log10_H)
    x = mpmath.log(2 * C_P * H * t) / -mpmath.log(mp(lam))
    n = int(mpmath.ceil(x))
    if abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -40:  # a tie: 2C_PH = 4·10^log10_H exactly
        assert pi * 2 == 1 and log10_H.denominator == 1, "undecidable tie"
        n0 = int(mpmath.nint(x))
        n = n0 if 4 * (pi * 0 + 10) ** int(log10_H) * t <= (1 / lam) ** n0 else n0 + 1
    J = min(max(n, 0), t)
    Pj = [[pi * 0 + int(i == j) for j in range(2)] for i in range(2)]
    for _ in range(J):  # P^J exactly
        Pj = [[sum(Pj[i][k] * P[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    E = max(abs(Pj[i][j] - rho[j]) for i in range(2) for j in range(2))
    links = [(mp(E), C_P * mp(lam) ** t), (C_P * mp(lam) ** t, C_P * mp(lam) ** J),
             (C_P * mp(lam) ** J, 1 / (2 * H * t))]  # fmt: skip
    failing = [(a, b) for a, b in links if not a <= b]
    lhs, rhs = failing[0] if failing else links[-1]
    return {"lhs": lhs, "rhs": rhs, "holds": not failing, "J_t": J}


register(
    Claim(
        "cafed:lemma16-eq158-printed",
        _src(
            "App. B2 Lemma 16, eq. (158)",
            "|[P^{J_t}]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^{J_t} = 1/(2Ht)",
            (1066, 1071),
        ),
        "for every t ≥ T_P: max_ij |[P^{J_t}]_ij − ρ_j| ≤ C_Pλ(P)ᵗ ≤ C_Pλ(P)^{J_t} ≤ 1/(2Ht) "
        "(the printed '=' read as '≤', the direction step (168) uses), on two-state chains",
        _eq158_two_state_space(),
        lambda i: float(_eq158_printed(_two_state_as_product(i))),
        simplify=_eq158_two_state_simplify,
        exact=lambda i: (
            Fraction(float(_eq158_printed(_two_state_as_product(i), True))),
            "E(J_t) at 60 digits (mpmath), exact λ(P)",
        ),
        tolerance=1e-9,
        budget=100,
        expected="refuted",
        notes="Two-state chains (eq. 236: π ∈ (0, 1), λ₂ ∈ [1 − 1/max(π, 1 − π), 1)), the "
        "simplest Assumption-1 chains; the failure needs no more (cafed:lemma16-eq158-corrected "
        "searches every chain family). t = T_P + s (T_P = 0 here), H = 10^lH; C_P, T_P from the "
        "library (ProductChain), J_t from series.delays; margin = min of the three log-gaps. "
        "Known counterexample (exact): π = ½, λ₂ = 9/10, P = [[19/20, 1/20], [1/20, 19/20]], "
        "λ = 19/20, T_P = 0, C_P = 2, H = 10, t = 1: J_1 = 1 and |P₀₀ − ½| = 9/20 > 1/(2Ht) = "
        "1/20. Both the first and the last relation fail whenever J_t is capped by t (J_t = t < "
        "⌈ln(2C_P H t)/ln(1/λ)⌉), so Lemma 18's step (168) is unproved for those rounds "
        "(cafed:lemma18-eq163-step171).",
        reading=Reading(
            quote="Furthermore, let Assumptions 2 and 3 hold, H be defined as in Lemma 1, "
            "Equation (8), and T_P ≤ J_t ≤ t be defined in (132). We obtain the additional "
            "inequality: |[P^{J_t}]_{i,j} − ρ_j| ≤ C_P·λ(P)ᵗ ≤ C_Pλ(P)^{J_t} = 1/(2Ht), "
            "∀i, j ∈ [M] and ∀t ≥ T_P. (158)",
            hypotheses=(
                Hypothesis(
                    "Assumption 1: P irreducible and aperiodic",
                    "two-state chains of eq. 236 with π ∈ (0, 1), λ₂ ∈ [1 − 1/max(π, 1 − π), 1)",
                ),
                Hypothesis("H of Lemma 1, eq. (8), any H > 0", "H = 10^lH ∈ [10⁻³, 10³]"),
                Hypothesis("t ≥ T_P, J_t of eq. (132)", "t = T_P + s, s ∈ [0, 2000]"),
            ),
            interpretation="The chain as printed, with '=' read as '≤' (the direction (168) "
            "uses; the equality holds only without the ceiling). What Lemma 18 needs is its "
            "conclusion max_ij |[P^{J_t}]_ij − ρ_j| ≤ 1/(2Ht) for every t ≥ T_P. The last link "
            "comes from the ceiling in (132) and fails exactly when J_t is capped at t "
            "(⌈ln(2C_PHt)/ln(1/λ)⌉ > t, the first rounds); there the conclusion fails too. "
            "The first link's λᵗ is a slip for λ^{J_t} (eq. 5 at J_t ≥ T_P).",
            alternatives="The corrected chain (E(J_t) ≤ C_Pλ^{J_t}, and ≤ 1/(2Ht) when "
            "J_t < t) holds: cafed:lemma16-eq158-corrected.",
        ),
        finding=Finding(
            "error",
            "on the first rounds J_t of eq. (132) is capped at t, and there C_Pλ^{J_t} > 1/(2Ht) "
            "(so |[P^{J_t}]_ij − ρ_j| ≤ 1/(2Ht), which step (168) uses, is unproved and can "
            "fail); the first link's λᵗ, a slip for λ^{J_t}, fails once J_t < t",
            severity="step",
            survives="Yes: the capped rounds form an initial stretch t ≤ t_c (t_c finite, as "
            "ln(2C_PHt)/ln(1/λ) grows like ln t); bounding them as Lemma 17 does (by "
            "H(Σ_{t≤t_c}η_t)(Σπ_kq_k)) and applying Lemmas 14 and 18 from t_c + 1 on restores "
            "Theorem 2 with a larger constant.",
        ),
        explain=_eq158_explain,
        verify=_verify_lemma16_eq158,
    )
)

register(
    Claim(
        "cafed:lemma16-eq158-corrected",
        _src(
            "App. B2 Lemma 16, eq. (158)",
            "corrected: ≤ C_Pλ^{J_t}, and ≤ 1/(2Ht) if J_t < t",
            (1066, 1071),
        ),
        "for every t ≥ T_P: max_ij |[P^{J_t}]_ij − ρ_j| ≤ C_Pλ(P)^{J_t} (eq. 5 at J_t ≥ T_P), and "
        "C_Pλ(P)^{J_t} ≤ 1/(2Ht) whenever J_t < t (J_t not capped by t)",
        _eq158_space(),
        lambda i: float(_eq158_corrected(i)),
        simplify=_simplifier(L158_FAMILIES),
        exact=lambda i: (
            Fraction(float(_eq158_corrected(i, True))),
            "E(J_t) at 60 digits (mpmath), exact λ(P)",
        ),
        tolerance=1e-9,
        budget=100,
        expected="holds",
        reading=Reading(
            quote="|[P^{J_t}]_{i,j} − ρ_j| ≤ C_P·λ(P)ᵗ ≤ C_Pλ(P)^{J_t} = 1/(2Ht), ∀i, j ∈ [M] "
            "and ∀t ≥ T_P. (158)",
            hypotheses=(
                _ASSUMPTION1,
                Hypothesis("H > 0, t ≥ T_P", "H = 10^lH ∈ [10⁻³, 10³], t = T_P + s, s ≤ 2000"),
            ),
            interpretation="What (5) and the ceiling of (132) do give: E(J_t) ≤ C_Pλ^{J_t}, and "
            "C_Pλ^{J_t} ≤ 1/(2Ht) on the rounds where J_t is not capped at t (the corrected form "
            "of cafed:lemma16-eq158-printed). " + _CHAIN_FAMILIES_NOTE,
        ),
        notes="As cafed:lemma16-eq158-printed, keeping only what eq. 5 and the ceiling in eq. 132 "
        "give. Budget 100 (Jordan chains take the library's exact path).",
    )
)


# ================================================================== App. F3, eqs. (236)–(238)

EPS = float(np.finfo(float).eps)
TINY = float(np.finfo(float).tiny)
#: Below this a float computed by the library may have lost its relative precision.
UNDERFLOW = 1e-280


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
    X = _two_state_exact(piq, lamq)  # eq. 236 as printed
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


register(
    Claim(
        "cafed:eq236-238",
        _src("App. F3 eqs. (236)–(238)", "two-state client chain", (1544, 1549)),
        "for π ∈ (0, 1) and λ₂ ∈ [1 − 1/max(π, 1 − π), 1): eq. 236 is a stochastic matrix, "
        "eq. 237 gives [1 − π, π] and it is stationary, eq. 238 gives back λ₂, an eigenvalue; the "
        "library's two_state_matrix / two_state_params reproduce them to a few ulps",
        Space(
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
        _eq236,
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
)


# ================================================================== App. F2: Props. 3–6


@dataclass
class _Product:
    """Two-state clients (library ProductChain) times an optional general 3-state factor G."""

    pi: np.ndarray
    l2: np.ndarray
    G: orc.Matrix | None
    chain: Any  # ProductChain
    g_chain: Any  # MarkovChain of G, or None

    def dense(self) -> np.ndarray:
        P = self.chain.dense_matrix()
        return P if self.G is None else np.kron(P, orc.to_float(self.G))

    def exact_dense(self) -> orc.Matrix:
        P: orc.Matrix = [[Fraction(1)]]
        for x, y in zip(self.pi, self.l2, strict=True):
            P = orc.kron(P, _two_state_exact(Fraction(float(x)), Fraction(float(y))))
        return P if self.G is None else orc.kron(P, self.G)


def _build_product(inst: Instance) -> _Product:
    from fltheory.markov import MarkovChain, ProductChain

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    chain = ProductChain(pi, l2)
    G = g_chain = None
    if int(inst["G"]):
        G, _ = orc.dense_chain(
            [np.asarray(inst[f"g{i}"], dtype=float) for i in range(3)],
            orc.rat(inst["glazy"]),
            Fraction(0),
        )
        g_chain = MarkovChain.from_rational(G)
    return _Product(pi, l2, G, chain, g_chain)


def _clients_params(max_clients: int) -> list[Parameter]:
    return [
        Integer("N", 1, max_clients),
        Real("pi", 0.0, 1.0, size="N", special=(0.5,)),
        Real(
            "l2", _lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.5, -0.5, 0.9)
        ),
    ]


def _prop_space(max_clients: int = 4) -> Space:
    return Space(
        [
            *_clients_params(max_clients),
            Integer("G", 0, 1),
            *(Simplex(f"g{i}", 3) for i in range(3)),
            Real("glazy", 0.0, 1.0, closed=(True, False), special=(0.0,)),
        ]
    )


def _prop3(inst: Instance) -> float:
    from fltheory.markov import MarkovChain

    pc = _build_product(inst)
    rho = pc.chain.stationary
    if pc.g_chain is not None:
        rho = np.kron(rho, pc.g_chain.stationary)
    dense = MarkovChain(pc.dense()).stationary  # GTH on the Kronecker matrix
    # relative error; entries below 1e-280 (products of tiny π's, down to 0 by underflow) are
    # compared on that absolute scale
    scale = np.maximum(np.maximum(rho, dense), UNDERFLOW)
    return 1e-9 - float(np.max(np.abs(rho - dense) / scale))


def _prop3_exact(inst: Instance) -> ExactMargin:
    pc = _build_product(inst)
    rho: list[Fraction] = [Fraction(1)]
    for x in pc.pi:
        p = Fraction(float(x))
        rho = [a * b for a in rho for b in (1 - p, p)]
    if pc.G is not None:
        rho = [a * b for a in rho for b in orc.exact_stationary(pc.G)]
    P = pc.exact_dense()
    M = len(P)
    stationary = all(sum(rho[i] * P[i][j] for i in range(M)) == rho[j] for j in range(M))
    return (Fraction(1, 10**9) if stationary else Fraction(-1)), "ρᵀP = ρᵀ in exact rationals"


def _factor_eig(pc: _Product) -> list[tuple[list[complex], np.ndarray, np.ndarray]]:
    """Per factor: eigenvalues, right eigenvectors (columns), left eigenvectors (rows)."""
    from fltheory.markov.two_state import two_state_eigenvectors

    out = []
    for x, y in zip(pc.pi, pc.l2, strict=True):
        U, V = two_state_eigenvectors(float(x))  # library: columns u, rows v (left)
        out.append(([1.0 + 0j, complex(float(y))], U.astype(complex), V.astype(complex)))
    if pc.G is not None:
        Gf = orc.to_float(pc.G)
        w, U = np.linalg.eig(Gf)
        out.append(([complex(z) for z in w], U, np.linalg.inv(U)))
    return out


def _prop4(inst: Instance) -> float:
    pc = _build_product(inst)
    P = pc.dense().astype(complex)
    factors = _factor_eig(pc)
    worst = 0.0
    for combo in np.ndindex(*(len(f[0]) for f in factors)):
        mu = np.prod([f[0][i] for f, i in zip(factors, combo, strict=True)])
        u = np.ones(1, dtype=complex)
        v = np.ones(1, dtype=complex)
        for f, i in zip(factors, combo, strict=True):
            u = np.kron(u, f[1][:, i])
            v = np.kron(v, f[2][i, :])
        right = np.linalg.norm(P @ u - mu * u) / np.linalg.norm(u)
        left = np.linalg.norm(v @ P - mu * v) / np.linalg.norm(v)
        worst = max(worst, float(right), float(left))
    return 1e-9 - worst


def _prop5(inst: Instance) -> float:
    from scipy.optimize import linear_sum_assignment

    pc = _build_product(inst)
    eig = np.linalg.eigvals(pc.dense())
    factors = _factor_eig(pc)
    products = np.array(
        [
            np.prod([f[0][i] for f, i in zip(factors, combo, strict=True)])
            for combo in np.ndindex(*(len(f[0]) for f in factors))
        ]
    )
    cost = np.abs(eig[:, None] - products[None, :])
    rows, cols = linear_sum_assignment(cost)
    return 1e-7 - float(cost[rows, cols].max())


def _prop6(inst: Instance) -> float:
    pc = _build_product(inst)
    eig = np.linalg.eigvals(pc.dense())
    eig = np.delete(eig, np.argmin(np.abs(eig - 1.0)))  # one copy of the eigenvalue 1
    dense_slem = float(np.max(np.abs(eig))) if eig.size else 0.0
    factor_slems = [pc.chain.slem] + ([pc.g_chain.constants().slem] if pc.g_chain else [])
    factor_lams = [pc.chain.lam] + ([pc.g_chain.constants().lam] if pc.g_chain else [])
    slem, lam = max(factor_slems), max(factor_lams)
    return 1e-9 - max(abs(slem - dense_slem), abs(lam - (dense_slem + 1.0) / 2.0))


_PROP_NOTES = (
    "Factors: N ≤ 4 two-state clients (the library's ProductChain: π, λ₂ including negative, "
    "zero and tied values) and, with G = 1, a general 3-state factor (rational, possibly "
    "non-reversible, complex eigenvalues; the library's MarkovChain) — Props. 3–5 hold for any "
    "square factors, Prop. 6 for irreducible aperiodic ones. The dense matrix is "
    "ProductChain.dense_matrix() ⊗ G. "
)

register(
    Claim(
        "cafed:prop3",
        _src("App. F2 Prop. 3, eq. (231)", "stationary law of P₁ ⊗ P₂", (1496, 1500)),
        "the stationary distribution of P₁ ⊗ P₂ is π₁ ⊗ π₂",
        _prop_space(),
        _prop3,
        exact=_prop3_exact,
        tolerance=0.0,
        budget=300,
        expected="holds",
        reading=Reading(
            quote="Proposition 3. The stationary distribution of the Markov chain defined by P̃ = "
            "P₁ ⊗ P₂ is the Kronecker product ρ̃ = π₁ ⊗ π₂.",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
            "general 3-state factor with complex eigenvalues; narrower than the paper (any "
            "square factors) in the number and size of factors only, for exact and dense "
            "computations within the time allowance.",
        ),
        notes=_PROP_NOTES + "Margin 1e-9 − max relative difference between ⊗ of the factors' "
        "stationary laws (ProductChain.stationary, MarkovChain.stationary) and GTH on the dense "
        "Kronecker matrix (entries below 1e-280 on that absolute scale: products of tiny π "
        "underflow); exact: ρᵀP = ρᵀ in rationals.",
    )
)

register(
    Claim(
        "cafed:prop4",
        _src(
            "App. F2 Prop. 4, eq. (232)", "u ⊗ v is an eigenvector with eigenvalue λμ", (1502, 1508)
        ),
        "if u, v are eigenvectors of P₁, P₂ with eigenvalues λ, μ, then u ⊗ v is an eigenvector of "
        "P₁ ⊗ P₂ with eigenvalue λμ (left and right eigenvectors alike)",
        _prop_space(),
        _prop4,
        tolerance=0.0,
        budget=200,
        expected="holds",
        reading=Reading(
            quote="Proposition 4. Let u and v be eigenvectors of P₁ and P₂, respectively, with "
            "eigenvalues λ and μ. Then u ⊗ v is an eigenvector of P₁ ⊗ P₂ with eigenvalue λμ.",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
            "general 3-state factor with complex eigenvalues; narrower than the paper (any "
            "square factors) in the number and size of factors only, for exact and dense "
            "computations within the time allowance.",
        ),
        notes=_PROP_NOTES + "Two-state eigenvectors from the library (two_state_eigenvectors), "
        "the 3-state factor's from numpy; margin 1e-9 − the largest relative residual "
        "‖Pw − λμw‖/‖w‖ over all Kronecker products w (left and right). No exact margin: the "
        "3-state factor's eigenvectors are irrational (for two-state factors the identity is exact "
        "by the mixed-product property).",
    )
)

register(
    Claim(
        "cafed:prop5",
        _src("App. F2 Prop. 5, eq. (233)", "spectrum of the Kronecker product", (1510, 1516)),
        "the eigenvalues of P₁ ⊗ P₂ are the products λᵢμⱼ (as a multiset)",
        _prop_space(),
        _prop5,
        tolerance=0.0,
        budget=300,
        expected="holds",
        reading=Reading(
            quote="Proposition 5. … The eigenvalues of P₁ ⊗ P₂ are the mn numbers {λ_iμ_j}.",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
            "general 3-state factor with complex eigenvalues; narrower than the paper (any "
            "square factors) in the number and size of factors only, for exact and dense "
            "computations within the time allowance.",
        ),
        notes=_PROP_NOTES + "Margin 1e-7 − the largest distance in an optimal matching "
        "(linear_sum_assignment) between numpy's eigenvalues of the dense matrix and the products. "
        "No exact margin (irrational spectra); the tolerance covers the eigenvalue conditioning of "
        "tied products (semisimple, so errors stay near ε_mach·κ).",
    )
)

register(
    Claim(
        "cafed:prop6",
        _src(
            "App. F2 Prop. 6, eq. (234)",
            "λ̄₂(⊗P_k) = max_k λ̄₂(P_k), λ(⊗P_k) = max_k λ(P_k)",
            (1520, 1534),
        ),
        "for the product of irreducible aperiodic chains, λ̄₂(P) = max_k λ̄₂(P_k) and "
        "λ(P) = max_k λ(P_k)",
        _prop_space(),
        _prop6,
        tolerance=0.0,
        budget=300,
        expected="holds",
        reading=Reading(
            quote="Proposition 6. … For the product chain defined by P = ⊗_k P_k, … λ̄₂(P) = "
            "max_k λ̄₂(P_k) and λ(P) = max_k λ(P_k). (234)",
            hypotheses=(_ASSUMPTION1,),
            interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
            "general 3-state factor with complex eigenvalues; narrower than the paper (any "
            "square factors) in the number and size of factors only, for exact and dense "
            "computations within the time allowance.",
        ),
        notes=_PROP_NOTES + "Structured side: ProductChain.slem/lam and the 3-state factor's "
        "MarkovChain constants; dense side: numpy's eigenvalues of the Kronecker matrix, one copy "
        "of 1 removed. Margin 1e-9 − the larger difference.",
    )
)
