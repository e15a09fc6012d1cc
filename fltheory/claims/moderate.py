"""Counterexamples a reader can check by hand: the least extreme violation, and where along a
path from a holding instance the statement starts to fail.

The falsifier's worst violation often sits at an extreme of the space (α ≈ 1e-114, p = 1e-12,
λ₂ = 1 − 1e-9) although moderate violations exist. :func:`extremeness` measures how close an
instance is to the boundary of its space (0: on an open end; ½: in the middle); the moderate
search maximises it subject to margin < −tolerance, from the violations the main search saw and
from interior draws, by Nelder–Mead on a penalised objective, then rounds the result to few
digits while it stays a violation. :func:`failure_boundary` bisects the straight path (in the
space's unconstrained coordinates) from a holding instance to a violation for the point where
the margin changes sign.

>>> from fltheory.claims.space import Real, Space
>>> space = Space([Real("x", 0.0, 1.0)])
>>> extremeness(space, {"x": 0.5}), extremeness(space, {"x": 1e-9})
(0.5, 1e-09)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory.claims.space import Instance, Integer, Real, Simplex, Space

#: Margin oracle of a search: m(inst), or None when the claim declines the instance.
Evaluate = Callable[[Instance], float | None]
#: Starting points of the moderate descent.
MODERATE_STARTS = 3
#: Bisection steps of the failure boundary (2⁻⁴⁰ of the path).
BOUNDARY_STEPS = 40
#: Holding instances tried for one that holds strictly (margin > tolerance).
STRICT_TRIES = 16
#: Interior draws when no holding instance with the witness's integers was seen.
HOLDING_DRAWS = 64


class OutOfBudget(Exception):
    """The moderate search spent its evaluations."""


def _distances(space: Space, inst: Instance) -> list[float]:
    """Per coordinate, the distance to the nearest open end of its range in units of the range
    (½ in the middle). A value exactly on a closed end, on one of the parameter's special values,
    or in a range of zero width counts as ½: those are simple values, not extremes. A simplex
    entry w counts as min(N·w, 1)/2 (½ when equal weights). Integers count as ½."""
    out: list[float] = []
    for param in space.params:
        value = inst[param.name]
        if isinstance(param, Integer):
            continue
        if isinstance(param, Simplex):
            w = np.atleast_1d(np.asarray(value, dtype=float))
            out.extend(np.minimum(w.size * w, 1.0).clip(0.0) / 2.0)
            continue
        assert isinstance(param, Real)
        arr = np.atleast_1d(np.asarray(value, dtype=float))
        n = None if np.ndim(value) == 0 else arr.size
        lo, hi = (np.atleast_1d(e) for e in param._ends(inst, n))
        for x, a, b in zip(
            arr, np.broadcast_to(lo, arr.shape), np.broadcast_to(hi, arr.shape), strict=True
        ):
            width = b - a
            if not width > 0 or not math.isfinite(width):
                out.append(0.5)
                continue
            if (param.closed[0] and x == a) or (param.closed[1] and x == b):
                out.append(0.5)
                continue
            if float(x) in param.special:
                out.append(0.5)
                continue
            u = (x - a) / width
            out.append(float(min(max(u, 0.0), max(1.0 - u, 0.0), 0.5)))
    return out


def extremeness(space: Space, inst: Instance) -> float:
    """The smallest distance of ``inst`` to the boundary of ``space`` (see :func:`_distances`):
    in [0, ½], larger is more moderate."""
    distances = _distances(space, inst)
    return min(distances) if distances else 0.5


def moderation_score(space: Space, inst: Instance) -> float:
    """log10 of :func:`extremeness`, plus a tenth of the mean log10 distance (so that, at equal
    smallest distance, fewer coordinates near an end score higher)."""
    distances = np.maximum(np.asarray(_distances(space, inst) or [0.5]), 1e-300)
    return float(np.log10(distances.min()) + 0.1 * np.mean(np.log10(distances)))


def _integers(space: Space, inst: Instance) -> tuple[Any, ...]:
    return tuple(int(inst[p.name]) for p in space.params if isinstance(p, Integer))


@dataclass
class ModerateSearch:
    """The moderate search of one claim (see the module docstring)."""

    space: Space
    evaluate: Evaluate
    tolerance: float
    max_evals: int
    evaluations: int = 0

    def margin(self, inst: Instance) -> float | None:
        if self.evaluations >= self.max_evals:
            raise OutOfBudget
        self.evaluations += 1
        if not self.space.valid(inst):
            return None
        return self.evaluate(inst)

    def violates(self, inst: Instance) -> bool:
        value = self.margin(inst)
        return value is not None and value < -self.tolerance

    def run(
        self, violations: list[Instance], rng: np.random.Generator
    ) -> tuple[Instance | None, list[Instance]]:
        """(the most moderate violation found, holding instances seen), starting from
        ``violations``; interior draws take 40 % of the budget, the descent the rest."""
        pool = list(violations)
        holding: list[Instance] = []
        try:
            for _ in range(int(0.4 * self.max_evals)):
                inst = self.space.sample(rng, boundary=False)
                value = self.margin(inst)
                if value is None:
                    continue
                (pool if value < -self.tolerance else holding).append(inst)
        except (OutOfBudget, RuntimeError):  # RuntimeError: the space's constraint rejects draws
            pass
        if not pool:
            return None, holding
        pool.sort(key=lambda inst: -moderation_score(self.space, inst))
        best = pool[0]
        try:
            for start in _distinct(self.space, pool, MODERATE_STARTS):
                found = self._descend(start)
                if moderation_score(self.space, found) > moderation_score(self.space, best):
                    best = found
        except OutOfBudget:
            pass
        return best, holding

    def _descend(self, start: Instance) -> Instance:
        import scipy.optimize

        x0 = self.space.encode(start)
        best_inst, best_score = start, moderation_score(self.space, start)
        if x0.size == 0:
            return start

        def objective(x: np.ndarray) -> float:
            nonlocal best_inst, best_score
            inst = self.space.decode(x, start)
            value = self.margin(inst)
            if value is None:
                return 1e6
            if value < -self.tolerance:
                score = moderation_score(self.space, inst)
                if score > best_score:
                    best_inst, best_score = inst, score
                return -score
            return 1e3 + min(abs(value), 1e3)  # holding: worse than any violation

        remaining = self.max_evals - self.evaluations
        try:
            scipy.optimize.minimize(
                objective,
                x0,
                method="Nelder-Mead",
                options={
                    "maxfev": max(remaining // MODERATE_STARTS, 2 * x0.size + 2),
                    "xatol": 1e-6,
                    "fatol": 1e-9,
                    "adaptive": True,
                },
            )
        except OutOfBudget:
            pass
        return best_inst


def _distinct(space: Space, pool: list[Instance], count: int) -> list[Instance]:
    out, seen = [], set()
    for inst in pool:
        key = space.encode(inst).round(6).tobytes() + repr(_integers(space, inst)).encode()
        if key not in seen:
            seen.add(key)
            out.append(inst)
        if len(out) == count:
            break
    return out


def failure_boundary(
    space: Space,
    evaluate: Evaluate,
    tolerance: float,
    witness: Instance,
    holding: list[Instance],
    rng: np.random.Generator,
) -> dict[str, Any] | None:
    """Where the statement starts to fail on the straight path (in the space's unconstrained
    coordinates) from a holding instance to ``witness``: ``{"holding", "t", "at", "before",
    "margin_before", "margin_at"}`` with t ∈ (0, 1] the position of the first failing point
    found by bisection (``at``), ``before`` the last holding point; None when no holding
    instance with the witness's integer parameters is found or the path leaves the space.

    The holding end is the most moderate holding instance seen with the same integers, else one
    of :data:`HOLDING_DRAWS` interior draws with those integers."""
    target = _integers(space, witness)
    same = [h for h in holding if _integers(space, h) == target]
    x1 = space.encode(witness)
    if x1.size == 0:
        return None
    start: Instance | None = None
    if same:  # the most moderate of those that hold strictly (a margin of 0 may be a tie)
        same.sort(key=lambda h: -moderation_score(space, h))
        start = same[0]
        for cand in same[:STRICT_TRIES]:
            value = evaluate(cand)
            if value is not None and value > tolerance:
                start = cand
                break
    else:
        for _ in range(HOLDING_DRAWS):
            cand = space.decode(rng.normal(size=x1.size), witness)
            value = evaluate(cand) if space.valid(cand) else None
            if value is not None and value >= -tolerance:
                start = cand
                break
    if start is None:
        return None
    x0 = space.encode(start)

    def at(t: float) -> tuple[Instance, float | None]:
        inst = space.decode((1.0 - t) * x0 + t * x1, witness)
        return inst, (evaluate(inst) if space.valid(inst) else None)

    lo, hi = 0.0, 1.0
    before, m_before = at(lo)
    after, m_after = at(hi)
    if m_before is None or m_after is None or m_before < -tolerance or not m_after < -tolerance:
        return None
    for _ in range(BOUNDARY_STEPS):
        mid = 0.5 * (lo + hi)
        inst, value = at(mid)
        if value is None:
            return None
        if value < -tolerance:
            hi, after, m_after = mid, inst, value
        else:
            lo, before, m_before = mid, inst, value
    return {
        "holding": start,
        "t": hi,
        "before": before,
        "at": after,
        "margin_before": m_before,
        "margin_at": m_after,
    }
