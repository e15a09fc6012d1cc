"""A claim: one checkable statement of a paper, as data — where it is printed, what it says,
where it is supposed to hold, and an executable margin m(instance) ≥ 0 iff it holds there.

Paper modules (:mod:`fltheory.claims.papers`) register their claims (:func:`register_claim`,
:func:`register`) in :data:`CLAIMS`, a :class:`~fltheory.registry.Registry` of claim values
like every other registry of fltheory; :func:`resolve` and :func:`select` turn the names a
user gives into claims. The falsifier (:mod:`fltheory.claims.falsifier`) tries to make each
margin negative. Outside code registers its own claims the same way, citing a work of its own
(:func:`register_paper`), from a plug-in module (:mod:`fltheory.plugins`: entry-point group
``fltheory.claims``, ``--plugin``, ``FLTHEORY_PLUGINS``).
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory import plugins
from fltheory.claims.explain import Explanation
from fltheory.claims.finding import Finding, Reading
from fltheory.claims.space import Instance, Space
from fltheory.config.schema import suggest
from fltheory.errors import InputError
from fltheory.papers import OWN_PAPERS, PAPERS
from fltheory.papers import Source as Source  # claims cite with it (the one Source)
from fltheory.registry import Registry

#: An exact re-evaluation of a margin: (value, method), e.g. (Fraction(-1, 3), "exact rationals").
ExactMargin = tuple[Fraction | float, str]


@dataclass(frozen=True)
class Claim:
    """One statement and its executable margin.

    Attributes:
        id: ``<paper>:<label>``, the label following the paper's own numbering, lower case;
            a ``-printed``/``-proved`` suffix when the printed form and the proved form differ.
        source: where it is printed.
        statement: the statement in words (and symbols).
        space: the instances it is claimed for, boundary included.
        margin: m(instance) as a float; ≥ 0 iff the statement holds at that instance (scaled
            so that ``tolerance`` is a meaningful floating-point slack).
        exact: an exact (rational) or high-precision re-evaluation of the margin, used to
            confirm a refutation; None when the quantities allow none (then say why in notes).
        tolerance: margins ≥ −tolerance count as holding (rounding noise of the float margin).
        simplify: optional claim-specific moves that propose simpler instances for shrinking.
        notes: reading of garbled formulas, what is checked against what, known findings.
        reason: for a statement that cannot be made executable, why (``margin`` is None).
        budget: evaluations of the default search when this margin is costly (None: the
            falsifier's default); ``--budget`` on the command line overrides it.
        expected: the verdict our own search reached when the claim was registered ("holds"
            or "refuted"); the tests hold every claim to it, so a change is noticed.
        reading: what the claim reads the paper as saying, and why that is what the authors
            meant (:class:`~fltheory.claims.finding.Reading`).
        finding: for a refuted claim, what the refutation means for the paper — error, typo,
            version or literal (:class:`~fltheory.claims.finding.Finding`).
        explain: the instance in the paper's quantities with both sides evaluated
            (:class:`~fltheory.claims.explain.Explanation`).
        verify: a standalone function ``verify(**explain(inst).verify_args)`` returning
            ``{"lhs": …, "rhs": …, "holds": bool}`` with only the standard library and mpmath
            (imports inside its body, no globals): the errata scripts embed its source.
        seed_dependent: when the verdict is known to change with the search seed at the default
            budget, what changes and from which budget on it is stable.

    >>> from fltheory.claims.space import Real
    >>> c = Claim("cafed:demo", Source("cafed", "§0", "demo"), "x ≥ 0",
    ...           Space([Real("x", 0.0, 1.0)]), margin=lambda i: i["x"])
    >>> c.executable, c.paper
    (True, 'cafed')
    """

    id: str
    source: Source
    statement: str
    space: Space | None = None
    margin: Callable[[Instance], float] | None = None
    exact: Callable[[Instance], ExactMargin] | None = None
    tolerance: float = 1e-9
    simplify: Callable[[Instance], list[Instance]] | None = None
    notes: str = ""
    reason: str = ""
    budget: int | None = None
    expected: str | None = None
    reading: Reading | None = None
    finding: Finding | None = None
    explain: Callable[[Instance], Explanation] | None = None
    verify: Callable[..., dict[str, Any]] | None = None
    seed_dependent: str = ""

    def __post_init__(self) -> None:
        paper, _, label = self.id.partition(":")
        if paper != self.source.paper or not label or label != label.lower():
            raise ValueError(f"claim id {self.id!r} must be '<paper>:<lower-case label>'")
        if (self.margin is None) != (self.space is None):
            raise ValueError(f"claim {self.id}: give both a space and a margin, or neither")
        if self.margin is None and not self.reason:
            raise ValueError(f"claim {self.id}: a non-executable claim needs a reason")
        if self.expected not in (None, "holds", "refuted"):
            raise ValueError(f"claim {self.id}: expected must be 'holds' or 'refuted'")
        if self.finding is not None and self.expected != "refuted":
            raise ValueError(f"claim {self.id}: only a claim expected 'refuted' has a finding")

    @property
    def paper(self) -> str:
        return self.source.paper

    @property
    def executable(self) -> bool:
        return self.margin is not None


#: Every claim, by id, in id order: the modules of :mod:`fltheory.claims.papers` (and of
#: outside plug-ins, entry-point group ``fltheory.claims``) register theirs when it is first
#: asked. ``CLAIMS.get(id)`` is the claim, ``CLAIMS.origin(id)`` the module that registered it;
#: :func:`resolve` and :func:`select` turn a user's names into claims.
CLAIMS: Registry[Claim, Claim] = Registry(
    "claim", package="fltheory.claims.papers", group=plugins.GROUPS["claim"], list_names=False
)


def resolve(name: str) -> list[Claim]:
    """The claims a user's name stands for: the claim of that id (case-insensitive), or, when
    the name is a statement registered in several forms, every ``name-<form>`` variant
    (``cafed:thm2-eq13`` → its printed, proved … forms).

    >>> from unittest import mock
    >>> import fltheory.claims.claim as claims_module
    >>> with mock.patch.object(claims_module, "CLAIMS", Registry("claim")):
    ...     for label in ("thm1-printed", "thm1-proved", "lemma2"):
    ...         _ = register(Claim(f"fedar:{label}", Source("fedar", "§1", label), "s", reason="-"))
    ...     [c.id for c in resolve("fedar:THM1")], [c.id for c in resolve("FedAR:lemma2")]
    (['fedar:thm1-printed', 'fedar:thm1-proved'], ['fedar:lemma2'])
    """
    key = name.strip().lower()
    by_key = {c.id.lower(): c for c in CLAIMS}
    if key in by_key:
        return [by_key[key]]
    family = [c for i, c in by_key.items() if i.startswith(key + "-")]
    if family:
        return family
    raise InputError(f"unknown claim '{name}'{suggest(name, CLAIMS.names())}")


def select(ids: list[str] | None = None, paper: str | None = None) -> list[Claim]:
    """The claims named by ``ids`` (each :func:`resolve` d; all when None), restricted to
    ``paper`` if given, each once.

    >>> from unittest import mock
    >>> import fltheory.claims.claim as claims_module
    >>> with mock.patch.object(claims_module, "CLAIMS", Registry("claim")):
    ...     for label in ("a", "b"):
    ...         _ = register(Claim(f"fedar:{label}", Source("fedar", "§1", label), "s", reason="-"))
    ...     [c.id for c in select(["fedar:b", "fedar:B"])], len(select(paper="cafed"))
    (['fedar:b'], 0)
    """
    CLAIMS.names()  # plug-ins may name works of their own
    known = {**PAPERS, **OWN_PAPERS}
    if paper is not None and paper not in known:
        raise InputError(f"unknown paper '{paper}'{suggest(paper, known)}")
    chosen = [c for i in ids for c in resolve(i)] if ids else list(CLAIMS)
    chosen = list({c.id: c for c in chosen}.values())  # a claim named twice is searched once
    return [c for c in chosen if paper is None or c.paper == paper]


def register_claim(
    claim_id: str,
    section: str,
    label: str,
    lines: tuple[int, int] | None,
    statement: str,
    **fields: Any,
) -> Claim:
    """Build the claim ``claim_id``, cited at ``section``, ``label`` (and ``lines`` of the seed
    file) of the paper its id names, and :func:`register` it — the one idiom of the paper
    modules; ``fields`` are :class:`Claim`'s other fields (space, margin, exact, notes, …).

    >>> from unittest import mock
    >>> import fltheory.claims.claim as claims_module
    >>> with mock.patch.object(claims_module, "CLAIMS", Registry("claim")):
    ...     c = register_claim("fedar:demo", "§1", "Lemma 1", (10, 12), "s", reason="prose")
    ...     str(c.source), [claim.id for claim in claims_module.CLAIMS]
    ('003_7bfc4ba284d104ce.txt §1, Lemma 1 (lines 10–12)', ['fedar:demo'])
    """
    paper = claim_id.partition(":")[0]
    return register(Claim(claim_id, Source(paper, section, label, lines), statement, **fields))


def register(claim: Claim) -> Claim:
    """Add ``claim`` to :data:`CLAIMS` (called by the paper modules at import).

    Shown here on a fresh registry, so that the example registers nothing for good:

    >>> from unittest import mock
    >>> import fltheory.claims.claim as claims_module
    >>> with mock.patch.object(claims_module, "CLAIMS", Registry("claim")):
    ...     _ = register(Claim("fedar:demo", Source("fedar", "§1", "demo"), "s", reason="prose"))
    ...     [claim.id for claim in claims_module.CLAIMS]
    ['fedar:demo']
    """
    return CLAIMS.add(claim.id, claim)


def jsonable_instance(inst: Instance) -> dict[str, Any]:
    """An instance with numpy values turned into lists/floats (for JSON output)."""
    out: dict[str, Any] = {}
    for key, value in inst.items():
        if hasattr(value, "tolist"):
            out[key] = value.tolist()
        else:
            out[key] = value
    return out
