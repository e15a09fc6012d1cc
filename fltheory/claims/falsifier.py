"""The falsifier: a budgeted, seeded search for the instance with the most negative margin.

Phases, each on a share of the budget (evaluations and/or seconds):

1. **sample** (40 %) — seeded draws from the claim's space, every other one pushed to the
   boundary (values within 10⁻¹…10⁻¹² of an end, special values, repeated entries);
2. **descend** (45 %) — Nelder–Mead (derivative-free: margins are often not smooth) on the
   unconstrained coordinates of the space, from the four worst distinct points so far;
3. **hypothesis** (15 %) — hypothesis with ``target(−margin)`` over the space's strategy,
   which also shrinks what it finds.

A violation (margin < −tolerance) is then **shrunk** (fewer clients, fewer significant digits,
claim-specific moves) while it stays a violation, and **re-verified** with the claim's exact or
high-precision margin where it has one. A refutation is followed by a **moderate** search for
the least extreme violation and the **failure boundary** on the path from a holding instance to
it (:mod:`fltheory.claims.moderate`), and each witness is explained in the paper's quantities
(the claim's ``explain``).

An instance the claim's code declines — an :class:`~fltheory.errors.FLTheoryError`, or a
numerical failure on that instance (``LinAlgError``, an arithmetic error, mpmath's
non-convergence) — is skipped and counted by reason (``declined``); it never voids the search.

Verdicts: ``refuted`` (with the shrunk instance), ``holds`` (budget spent; the worst margin and
where), ``inconclusive`` (the budget ended before any instance was evaluated), ``error`` (the
claim's code failed otherwise, or declined every instance — a defect, reported, never hidden)
and ``not_executable`` (with the reason).
"""

import math
import re
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from mpmath.libmp import NoConvergence

from fltheory.claims.claim import Claim, jsonable_instance
from fltheory.claims.moderate import ModerateSearch, extremeness, failure_boundary
from fltheory.claims.space import Instance, Integer, Real, Simplex
from fltheory.errors import FLTheoryError
from fltheory.rng import generator

#: Default evaluations per claim.
DEFAULT_BUDGET = 3000
#: Shares of the budget: sampling, local descent (the rest goes to hypothesis).
SAMPLE_SHARE, DESCEND_SHARE = 0.40, 0.45
#: Starting points of the descent phase.
DESCENT_STARTS = 4
#: Most evaluations spent on shrinking one counterexample.
SHRINK_EVALS = 600
#: Significant digits tried when rounding a counterexample.
ROUND_DIGITS = (1, 2, 3, 4, 6, 8)
#: Evaluations of the moderate search after a refutation, as a share of the budget (at least
#: :data:`MODERATE_MIN`).
MODERATE_SHARE, MODERATE_MIN = 0.35, 300
#: Violations and holding instances kept for the moderate search and the failure boundary.
ARCHIVE = 256


#: Failures of a computation on one instance that decline it (not a defect of the claim).
NUMERICAL_ERRORS: tuple[type[BaseException], ...] = (
    FLTheoryError,
    np.linalg.LinAlgError,
    ArithmeticError,
    NoConvergence,
)
#: What makes a candidate instance unusable while shrinking or explaining.
CANDIDATE_ERRORS: tuple[type[BaseException], ...] = (ValueError, IndexError, *NUMERICAL_ERRORS)


def decline_reason(exc: BaseException) -> str:
    """An exception as a reason key: its type and message with numbers replaced by ``#``, so
    that one kind of failure is counted once.

    >>> decline_reason(ZeroDivisionError("division by zero at x = 0.125"))
    'ZeroDivisionError: division by zero at x = #'
    """
    message = re.sub(r"[-+]?\d[\d.]*(?:e[-+]?\d+)?", "#", str(exc))
    return f"{type(exc).__name__}: {message}"[:160]


@dataclass
class Verdict:
    """The outcome of one claim's search (the JSON record of ``fltheory check``).

    >>> from fltheory.claims import Claim, Real, Source, Space
    >>> true = Claim("cafed:demo", Source("cafed", "§0", "demo"), "x² ≥ 0 on [−1, 1]",
    ...              Space([Real("x", -1.0, 1.0)]), margin=lambda i: i["x"] ** 2)
    >>> verdict = falsify(true, budget=50)
    >>> verdict.verdict, verdict.evaluations, verdict.worst_margin
    ('holds', 50, 0.0)
    """

    id: str
    source: str
    statement: str
    verdict: str
    evaluations: int = 0
    seconds: float = 0.0
    worst_margin: float | None = None
    instance: dict[str, Any] | None = None
    exact_verified: str | None = None
    exact_margin: float | None = None
    skipped: int = 0
    phase: str | None = None
    message: str = ""
    evals_per_second: float | None = None
    declined: dict[str, int] = field(default_factory=dict)
    extremeness: float | None = None
    finding: dict[str, Any] | None = None
    reading: dict[str, Any] | None = None
    notes: str = ""
    seed_dependent: str = ""
    witness_paper: dict[str, Any] | None = None
    moderate_witness: dict[str, Any] | None = None
    failure_boundary: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _OutOfBudget(Exception):
    pass


class _Violation(Exception):
    def __init__(self, inst: Instance) -> None:
        super().__init__("violation")
        self.inst = inst


@dataclass
class _Search:
    claim: Claim
    max_evals: int
    deadline: float
    evaluations: int = 0
    skipped: int = 0
    worst: list[tuple[float, int, Instance, str]] = field(default_factory=list)
    declined: dict[str, int] = field(default_factory=dict)
    violations: list[Instance] = field(default_factory=list)
    holding: list[Instance] = field(default_factory=list)

    def exhausted(self) -> bool:
        return self.evaluations >= self.max_evals or time.perf_counter() >= self.deadline

    def evaluate(self, inst: Instance, phase: str) -> float | None:
        """m(inst), or None when the code under test declines the instance."""
        if self.exhausted():
            raise _OutOfBudget
        self.evaluations += 1
        value = self.margin(inst)
        if value is None:
            return None
        self.worst.append((value, self.evaluations, inst, phase))
        if len(self.worst) > 64:
            self.worst.sort(key=lambda w: (w[0], w[1]))
            del self.worst[16:]
        archive = self.violations if value < -self.claim.tolerance else self.holding
        if len(archive) < ARCHIVE:
            archive.append(inst)
        else:  # reservoir: every instance seen has the same chance to stay
            slot = self.evaluations % (2 * ARCHIVE)
            if slot < ARCHIVE:
                archive[slot] = inst
        return value

    def margin(self, inst: Instance) -> float | None:
        """m(inst); None when the claim's code declines the instance (counted by reason)."""
        assert self.claim.margin is not None
        try:
            # The search visits overflow and underflow on purpose: numpy's floating-point
            # warnings are expected there; a NaN margin is still a defect (below).
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                value = float(self.claim.margin(inst))
        except NUMERICAL_ERRORS as exc:
            self.skipped += 1
            reason = decline_reason(exc)
            self.declined[reason] = self.declined.get(reason, 0) + 1
            return None
        if math.isnan(value):
            raise ValueError(f"margin is NaN at {jsonable_instance(inst)}")
        return value

    def ranked(self) -> list[tuple[float, int, Instance, str]]:
        return sorted(self.worst, key=lambda w: (w[0], w[1]))


def _sample(search: _Search, rng: np.random.Generator, count: int) -> None:
    assert search.claim.space is not None
    for i in range(count):
        search.evaluate(search.claim.space.sample(rng, boundary=i % 2 == 1), "sample")


def _descend(search: _Search, count: int) -> None:
    import scipy.optimize  # only a search needs it, not listing the claims

    space = search.claim.space
    assert space is not None
    starts: list[Instance] = []
    seen: set[bytes] = set()
    for _, _, inst, _ in search.ranked():
        key = space.encode(inst).round(12).tobytes()
        if key not in seen:
            seen.add(key)
            starts.append(inst)
        if len(starts) == DESCENT_STARTS:
            break
    for like in starts:
        x0 = space.encode(like)
        if x0.size == 0:
            continue

        def objective(x: np.ndarray, like: Instance = like) -> float:
            inst = space.decode(x, like)
            if not space.valid(inst):
                return 1e300
            value = search.evaluate(inst, "descend")
            return 1e300 if value is None else value

        per_start = max(count // max(len(starts), 1), 2 * x0.size + 2)
        scipy.optimize.minimize(
            objective,
            x0,
            method="Nelder-Mead",
            options={"maxfev": per_start, "xatol": 1e-12, "fatol": 0.0, "adaptive": True},
        )
        if search.ranked()[0][0] < -search.claim.tolerance:
            return


def _hypothesis(search: _Search, count: int, seed: int) -> Instance | None:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import Flaky

    space = search.claim.space
    assert space is not None
    tol = search.claim.tolerance

    first: list[Instance] = []  # the first violation, kept should hypothesis call it flaky

    @hypothesis_seed(seed)
    @settings(
        max_examples=max(count, 1),
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.target, Phase.shrink],
        report_multiple_bugs=False,
    )
    @given(space.strategy())
    def probe(inst: Instance) -> None:
        if search.exhausted():
            return
        value = search.evaluate(inst, "hypothesis")
        if value is None:
            return
        target(float(np.clip(-value, -1e300, 1e300)))
        if value < -tol:
            first.append(inst)
            raise _Violation(inst)

    try:
        probe()
    except _Violation as found:
        return found.inst
    except Flaky:
        # Replays after the budget ran out return without evaluating, so hypothesis sees the
        # failure vanish; the violation found is still one.
        if first:
            return first[0]
        raise
    return None


def _round_entries(value: Any, digits: int) -> Any:
    arr = np.asarray(value, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.where(arr != 0, np.floor(np.log10(np.abs(arr))), 0.0)
    scale = 10.0 ** (digits - 1 - mag)
    out = np.round(arr * scale) / scale
    return float(out) if np.ndim(value) == 0 else out


def _generic_moves(claim: Claim, inst: Instance) -> list[Instance]:
    """Simpler neighbours of ``inst``: smaller integers (vectors cut to match), then fewer
    significant digits."""
    assert claim.space is not None
    params = list(claim.space.params)
    moves: list[Instance] = []
    for p in params:
        if not isinstance(p, Integer) or inst[p.name] <= p.low:
            continue
        v = int(inst[p.name])
        sized = [q for q in params if isinstance(q, Real | Simplex) and q.size == p.name]
        choices = sorted({p.low, max(p.low, v // 2), v - 1})
        for new in choices:
            for drop in [None] if new != v - 1 else [None, *range(min(v, 24))]:
                cand = dict(inst)
                cand[p.name] = new
                for q in sized:
                    vec = np.asarray(inst[q.name])
                    vec = np.delete(vec, drop) if drop is not None else vec[:new]
                    if isinstance(q, Simplex):
                        vec = vec / vec.sum()
                    cand[q.name] = vec
                moves.append(cand)
    for digits in ROUND_DIGITS:
        cand = dict(inst)
        for p in params:
            if isinstance(p, Real | Simplex):
                cand[p.name] = _round_entries(inst[p.name], digits)
                if isinstance(p, Simplex):
                    cand[p.name] = cand[p.name] / np.sum(cand[p.name])
        moves.append(cand)
    # one parameter at a time: rounding every parameter at once fails as soon as one of them
    # rounds onto an open end of its range (0.9999999 → 1.0 for a parameter in (0, 1))
    for p in params:
        if isinstance(p, Real | Simplex):
            for digits in ROUND_DIGITS:
                cand = dict(inst)
                cand[p.name] = _round_entries(inst[p.name], digits)
                if isinstance(p, Simplex):
                    cand[p.name] = cand[p.name] / np.sum(cand[p.name])
                moves.append(cand)
    return moves


def shrink(
    claim: Claim, inst: Instance, is_violation: Callable[[Instance], bool], max_evals: int
) -> Instance:
    """Greedily replace ``inst`` by simpler instances that are still violations."""
    assert claim.space is not None
    spent = 0
    improved = True
    while improved and spent < max_evals:
        improved = False
        extra = claim.simplify(inst) if claim.simplify is not None else []
        for cand in [*extra, *_generic_moves(claim, inst)]:
            if spent >= max_evals:
                break
            spent += 1
            try:
                ok = claim.space.valid(cand) and is_violation(cand)
            except CANDIDATE_ERRORS:
                ok = False
            if ok and _complexity(cand) < _complexity(inst):
                inst = cand
                improved = True
                break
    return inst


def _complexity(inst: Instance) -> float:
    """Smaller for fewer and shorter numbers (what a person checks by hand)."""
    total = 0.0
    for value in inst.values():
        arr = np.atleast_1d(np.asarray(value, dtype=float))
        total += arr.size * 100
        total += sum(len(f"{x:.17g}") for x in arr.tolist())
    return total


def falsify(
    claim: Claim,
    *,
    budget: int | str | None = "default",
    seconds: float | None = None,
    seed: int = 0,
) -> Verdict:
    """Search ``claim`` for a violation within ``budget`` evaluations / ``seconds``
    (``"default"``: the claim's own budget, else :data:`DEFAULT_BUDGET`; None: no limit on
    evaluations, so ``seconds`` must be given).

    >>> from fltheory.claims.claim import Claim, Source
    >>> from fltheory.claims.space import Real, Space
    >>> false = Claim("cafed:demo", Source("cafed", "§0", "demo"), "x² ≥ x on [0, 2]",
    ...               Space([Real("x", 0.0, 2.0)]), margin=lambda i: i["x"] ** 2 - i["x"])
    >>> v = falsify(false, budget=300)
    >>> v.verdict, v.instance
    ('refuted', {'x': 0.5})
    """
    if budget == "default":
        budget = claim.budget if claim.budget is not None else DEFAULT_BUDGET
    assert budget is None or isinstance(budget, int)
    start = time.perf_counter()
    base = Verdict(id=claim.id, source=str(claim.source), statement=claim.statement, verdict="")
    if not claim.executable:
        base.verdict, base.message = "not_executable", claim.reason
        return base
    max_evals = budget if budget is not None else 10**12
    deadline = start + (seconds if seconds is not None else math.inf)
    search = _Search(claim, max_evals, deadline)
    rng = generator(seed, f"claims/{claim.id}")
    found: Instance | None = None
    phase = None
    try:
        _sample(search, rng, int(SAMPLE_SHARE * max_evals) if budget else 10**12)
    except _OutOfBudget:
        pass
    except Exception as exc:  # the claim's code failed: a defect, reported
        return _error(base, search, start, exc)
    try:
        if not _violated(search):
            _descend(search, int(DESCEND_SHARE * max_evals) if budget else 10**12)
        if not _violated(search) and not search.exhausted():
            found = _hypothesis(search, max_evals - search.evaluations, seed)
            phase = "hypothesis" if found is not None else None
    except _OutOfBudget:
        pass
    except Exception as exc:
        return _error(base, search, start, exc)
    ranked = search.ranked()
    base.evaluations, base.skipped = search.evaluations, search.skipped
    base.declined = dict(sorted(search.declined.items(), key=lambda kv: -kv[1]))
    _describe_claim(claim, base)
    if not ranked and not search.evaluations:
        base.verdict = "inconclusive"
        base.message = "the budget ended before the first evaluation"
        return _finish(base, start)
    if not ranked:  # a space none of whose instances the claim can evaluate: a defect
        base.verdict = "error"
        top = next(iter(base.declined), "")
        base.message = f"every instance was declined ({search.evaluations}); most often: {top}"
        return _finish(base, start)
    candidates = ([found] if found is not None else []) + [
        w[2] for w in ranked if w[0] < -claim.tolerance
    ]
    for inst in candidates[:8]:
        try:
            verdict = _confirm(claim, inst, phase or _phase_of(ranked, inst))
        except NUMERICAL_ERRORS as exc:
            reason = decline_reason(exc)
            base.declined[reason] = base.declined.get(reason, 0) + 1
            continue
        except Exception as exc:
            return _error(base, search, start, exc)
        if verdict is not None:
            base.verdict = "refuted"
            base.worst_margin, base.instance = verdict[0], jsonable_instance(verdict[1])
            base.exact_verified, base.exact_margin = verdict[2], verdict[3]
            base.phase = verdict[4]
            if claim.finding is not None:
                base.finding = claim.finding.to_dict()
            try:
                base.extremeness = _extremeness(claim, verdict[1])
                base.witness_paper = _explain(claim, verdict[1])
                _moderate(claim, search, base, verdict[1], seed, max_evals, seconds)
            except Exception as exc:  # explaining or the moderate search failed: a defect
                return _error(base, search, start, exc)
            return _finish(base, start)
    worst_margin, _, worst_inst, _ = ranked[0]
    base.verdict = "holds"
    base.worst_margin, base.instance = worst_margin, jsonable_instance(worst_inst)
    base.extremeness = _extremeness(claim, worst_inst)
    try:
        base.witness_paper = _explain(claim, worst_inst)
    except CANDIDATE_ERRORS as exc:
        base.message = f"the worst instance could not be explained: {decline_reason(exc)}"
    if candidates:
        base.message = (
            f"{len(candidates)} float-level violation(s) were not confirmed by the exact margin"
        )
    return _finish(base, start)


def _describe_claim(claim: Claim, base: Verdict) -> None:
    """What the claim records about itself: its reading, notes and seed dependence."""
    base.reading = claim.reading.to_dict() if claim.reading is not None else None
    base.notes = " ".join(claim.notes.split())
    base.seed_dependent = claim.seed_dependent


def _extremeness(claim: Claim, inst: Instance) -> float:
    assert claim.space is not None
    return extremeness(claim.space, inst)


def _explain(claim: Claim, inst: Instance) -> dict[str, Any] | None:
    if claim.explain is None:
        return None
    with np.errstate(all="ignore"):
        return claim.explain(inst).to_dict()


def _moderate(
    claim: Claim,
    search: _Search,
    base: Verdict,
    worst: Instance,
    seed: int,
    max_evals: int,
    seconds: float | None,
) -> None:
    """The most moderate violation (``base.moderate_witness``) and the failure boundary on the
    path to it (``base.failure_boundary``); see :mod:`fltheory.claims.moderate`."""
    space = claim.space
    assert space is not None
    rng = generator(seed, f"claims/{claim.id}/moderate")
    budget = max(MODERATE_MIN, int(MODERATE_SHARE * min(max_evals, 10**6)))
    deadline = time.perf_counter() + (MODERATE_SHARE * seconds if seconds else math.inf)
    tol = claim.tolerance

    def evaluate(inst: Instance) -> float | None:
        if time.perf_counter() >= deadline:
            raise _OutOfBudget
        return search.margin(inst)

    moderate = ModerateSearch(space, evaluate, tol, budget)
    try:
        best, holding = moderate.run([worst, *search.violations], rng)
    except _OutOfBudget:
        best, holding = None, []
    if best is None or extremeness(space, best) <= extremeness(space, worst):
        best = worst
    floor = 0.5 * extremeness(space, best)

    def still_moderate(cand: Instance) -> bool:
        if extremeness(space, cand) < floor:
            return False
        value = search.margin(cand)
        if value is None or not value < -tol:
            return False
        return claim.exact is None or float(claim.exact(cand)[0]) < 0

    try:
        if not still_moderate(best):
            best = worst
        best = shrink(claim, best, still_moderate, SHRINK_EVALS)
        margin = search.margin(best)
        exact = claim.exact(best) if claim.exact is not None else None
    except CANDIDATE_ERRORS as exc:
        base.message = f"no moderate witness: {decline_reason(exc)}"
        return
    if margin is None or (exact is not None and not float(exact[0]) < 0):
        base.message = "no moderate witness was confirmed"
        return
    base.moderate_witness = {
        "instance": jsonable_instance(best),
        "margin": margin,
        "exact_margin": None if exact is None else float(exact[0]),
        "exact_verified": None if exact is None else exact[1],
        "extremeness": extremeness(space, best),
        "paper": _explain(claim, best),
    }
    try:
        boundary = failure_boundary(
            space, search.margin, tol, best, [*search.holding, *holding], rng
        )
    except CANDIDATE_ERRORS:
        boundary = None
    if boundary is not None:
        base.failure_boundary = {
            "t": boundary["t"],
            "holding": jsonable_instance(boundary["holding"]),
            "before": jsonable_instance(boundary["before"]),
            "at": jsonable_instance(boundary["at"]),
            "margin_before": boundary["margin_before"],
            "margin_at": boundary["margin_at"],
            "at_paper": _explain(claim, boundary["at"]),
        }


def _violated(search: _Search) -> bool:
    ranked = search.ranked()
    return bool(ranked) and ranked[0][0] < -search.claim.tolerance


def _phase_of(ranked: list[tuple[float, int, Instance, str]], inst: Instance) -> str:
    for _, _, cand, phase in ranked:
        if cand is inst:
            return phase
    return "sample"


def _confirm(
    claim: Claim, inst: Instance, phase: str
) -> tuple[float, Instance, str | None, float | None, str] | None:
    """(margin, shrunk instance, exact method, exact margin, phase), or None when the exact
    margin says the float violation was rounding noise."""
    assert claim.margin is not None
    tol = claim.tolerance

    def is_violation(cand: Instance) -> bool:
        assert claim.margin is not None
        value = float(claim.margin(cand))
        if not value < -tol:
            return False
        if claim.exact is not None:
            return float(claim.exact(cand)[0]) < 0
        return True

    if not is_violation(inst):
        return None
    small = shrink(claim, inst, is_violation, SHRINK_EVALS)
    margin = float(claim.margin(small))
    if claim.exact is None:
        return margin, small, None, None, phase
    exact_value, method = claim.exact(small)
    return margin, small, method, float(exact_value), phase


def _error(base: Verdict, search: _Search, start: float, exc: Exception) -> Verdict:
    base.verdict = "error"
    base.evaluations, base.skipped = search.evaluations, search.skipped
    base.declined = dict(search.declined)
    base.message = f"{type(exc).__name__}: {exc}"
    return _finish(base, start)


def _finish(base: Verdict, start: float) -> Verdict:
    base.seconds = time.perf_counter() - start
    if base.evaluations and base.seconds > 0:
        base.evals_per_second = base.evaluations / base.seconds
    return base
