"""Instance spaces of claims: typed parameters, sampled up to their boundary.

A :class:`Space` is an ordered list of parameters. Each is drawn after the ones before it, so a
range may depend on earlier values (λ₂ ∈ [1 − 1/max(π, 1 − π), 1) depends on π). Three ways to
visit a space, one per phase of the falsifier (:mod:`fltheory.claims.falsifier`):

* :meth:`Space.sample` — seeded draws, half of them pushed to the boundary: values within
  10⁻¹…10⁻¹² of an end, exact special values (0, ±1, ½), and vectors whose entries repeat;
* :meth:`Space.encode` / :meth:`Space.decode` — an unconstrained real vector for local
  optimisation (logit of the position in an interval, softmax for a simplex; integer
  parameters stay fixed);
* :meth:`Space.strategy` — a hypothesis strategy, so that hypothesis can search with
  ``target()`` and shrink a counterexample to a small one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # hypothesis loads only when a search asks for a strategy
    from hypothesis import strategies as st

Instance = dict[str, Any]
Bound = float | Callable[[Instance], Any]
Size = int | str | None

#: Offsets δ (relative to the width of an interval) tried at its ends: 10⁻¹ … 10⁻¹².
BOUNDARY_EXPONENTS = (1, 2, 3, 4, 6, 8, 10, 12)
#: Logits are clipped here so that decoding stays finite (sigmoid(±36) is 1 − 2e-16 / 2e-16).
LOGIT_CLIP = 36.0


def _resolve(bound: Bound, inst: Instance) -> Any:
    return bound(inst) if callable(bound) else bound


def _length(size: Size, inst: Instance) -> int | None:
    if size is None:
        return None
    return int(inst[size]) if isinstance(size, str) else int(size)


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-300, 1.0)
    with np.errstate(divide="ignore"):
        out = np.log(p) - np.log1p(-np.minimum(p, 1.0 - 1e-17))
    return np.clip(out, -LOGIT_CLIP, LOGIT_CLIP)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(x, dtype=float)))


@dataclass(frozen=True)
class Real:
    """A real parameter (scalar, or a vector of length ``size``) in [low, high].

    ``low``/``high`` may be numbers or functions of the earlier parameters (arrays allowed for
    vectors). Ends are excluded unless ``closed`` says otherwise; ``special`` lists exact
    values worth trying (kept only where they fall inside the range).

    >>> space = Space([Real("x", 0.0, 1.0)])
    >>> 0.0 < space.sample(np.random.default_rng(0))["x"] < 1.0
    True
    """

    name: str
    low: Bound
    high: Bound
    size: Size = None
    closed: tuple[bool, bool] = (False, False)
    special: tuple[float, ...] = ()

    def _ends(self, inst: Instance, n: int | None) -> tuple[np.ndarray, np.ndarray]:
        shape = () if n is None else (n,)
        lo = np.broadcast_to(np.asarray(_resolve(self.low, inst), dtype=float), shape)
        hi = np.broadcast_to(np.asarray(_resolve(self.high, inst), dtype=float), shape)
        return lo, hi

    def _inside(self, v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        ok_lo = v >= lo if self.closed[0] else v > lo
        ok_hi = v <= hi if self.closed[1] else v < hi
        return ok_lo & ok_hi

    def draw(self, rng: np.random.Generator, inst: Instance, boundary: bool) -> Any:
        n = _length(self.size, inst)
        lo, hi = self._ends(inst, n)
        shape = lo.shape
        u = rng.random(shape)
        value = lo + (hi - lo) * u
        if boundary:
            pick = rng.random(shape) < 0.6
            delta = 10.0 ** -rng.choice(BOUNDARY_EXPONENTS, size=shape).astype(float)
            at_low = rng.random(shape) < 0.5
            edge = np.where(at_low, lo + (hi - lo) * delta, hi - (hi - lo) * delta)
            value = np.where(pick, edge, value)
            if self.special:
                specials = np.asarray(self.special, dtype=float)
                cand = rng.choice(specials, size=shape)
                use = (rng.random(shape) < 0.25) & self._inside(cand, lo, hi)
                value = np.where(use, cand, value)
            if n is not None and n > 1 and rng.random() < 0.35:
                # Repeated entries: all equal, or a few distinct values (ties break statements).
                k = int(rng.integers(1, min(3, n) + 1))
                idx = rng.integers(0, k, size=n)
                value = value[:k][idx]
                value = np.clip(value, lo, hi)
        value = np.where(self._inside(value, lo, hi), value, lo + 0.5 * (hi - lo))
        return float(value) if n is None else value

    def to_unit(self, value: Any, inst: Instance) -> np.ndarray:
        n = _length(self.size, inst)
        lo, hi = self._ends(inst, n)
        width = np.where(hi > lo, hi - lo, 1.0)
        return np.atleast_1d((np.asarray(value, dtype=float) - lo) / width)

    def from_unit(self, unit: np.ndarray, inst: Instance) -> Any:
        n = _length(self.size, inst)
        lo, hi = self._ends(inst, n)
        value = lo + (hi - lo) * unit.reshape(lo.shape)
        if not self.closed[0]:
            value = np.where(value <= lo, np.nextafter(lo, hi), value)
        if not self.closed[1]:
            value = np.where(value >= hi, np.nextafter(hi, lo), value)
        return float(value) if n is None else value

    def strategy(self, inst: Instance) -> st.SearchStrategy[Any]:
        from hypothesis import strategies as st

        n = _length(self.size, inst)
        lo, hi = self._ends(inst, n)
        if n is None:
            return self._scalar(float(lo), float(hi))
        return st.tuples(
            *(self._scalar(float(a), float(b)) for a, b in zip(lo, hi, strict=True))
        ).map(np.array)

    def _scalar(self, lo: float, hi: float) -> st.SearchStrategy[float]:
        from hypothesis import strategies as st

        if not hi > lo:
            return st.just(lo)
        return st.floats(
            lo,
            hi,
            exclude_min=not self.closed[0],
            exclude_max=not self.closed[1],
            allow_nan=False,
            allow_infinity=False,
        )


@dataclass(frozen=True)
class Integer:
    """An integer parameter in [low, high] (both included); boundary draws favour the ends.

    >>> Integer("n", 1, 8).draw(np.random.default_rng(1), {}, boundary=True) in range(1, 9)
    True
    """

    name: str
    low: int
    high: int

    def draw(self, rng: np.random.Generator, inst: Instance, boundary: bool) -> int:
        if boundary and rng.random() < 0.6:
            ends = [self.low, min(self.low + 1, self.high), self.high]
            return int(rng.choice(ends))
        if self.high - self.low > 64 and rng.random() < 0.5:  # log-uniform over wide ranges
            span = math.log(self.high - self.low + 1)
            return self.low + int(math.exp(rng.random() * span)) - 1
        return int(rng.integers(self.low, self.high + 1))

    def strategy(self, inst: Instance) -> st.SearchStrategy[int]:
        from hypothesis import strategies as st

        return st.integers(self.low, self.high)


@dataclass(frozen=True)
class Simplex:
    """A probability vector of length ``size`` (entries > 0 summing to 1); boundary draws put
    most of the mass on few entries (weights near 0) or make entries equal.

    >>> w = Simplex("alpha", 3).draw(np.random.default_rng(2), {}, boundary=False)
    >>> bool(abs(w.sum() - 1.0) < 1e-12 and (w > 0).all())
    True
    """

    name: str
    size: int | str

    def draw(self, rng: np.random.Generator, inst: Instance, boundary: bool) -> np.ndarray:
        n = _length(self.size, inst)
        assert n is not None
        conc = 1.0
        if boundary:
            roll = rng.random()
            if roll < 0.3:
                return np.full(n, 1.0 / n)
            if roll < 0.8:
                conc = 10.0 ** -rng.uniform(1, 4)
        w = rng.dirichlet(np.full(n, conc))
        w = np.maximum(w, 1e-300)
        return w / w.sum()

    def strategy(self, inst: Instance) -> st.SearchStrategy[np.ndarray]:
        from hypothesis import strategies as st

        n = _length(self.size, inst)
        assert n is not None
        raw = st.lists(st.floats(1e-6, 1.0, allow_nan=False), min_size=n, max_size=n)
        return raw.map(lambda xs: np.asarray(xs) / np.sum(xs))


Parameter = Real | Integer | Simplex


@dataclass(frozen=True)
class Space:
    """An ordered list of parameters; ``where`` (optional) rejects instances outside a
    constraint the parameter ranges cannot express.

    >>> space = Space([Integer("n", 2, 4), Real("p", 0.0, 1.0, size="n")])
    >>> inst = space.sample(np.random.default_rng(3))
    >>> len(inst["p"]) == inst["n"]
    True
    """

    params: tuple[Parameter, ...] | list[Parameter]
    where: Callable[[Instance], bool] | None = None

    def sample(self, rng: np.random.Generator, *, boundary: bool = False) -> Instance:
        for _ in range(100):
            inst: Instance = {}
            for param in self.params:
                inst[param.name] = param.draw(rng, inst, boundary)
            if self.where is None or self.where(inst):
                return inst
        raise RuntimeError("the space's constraint rejected 100 draws in a row")

    def encode(self, inst: Instance) -> np.ndarray:
        """The unconstrained coordinates of the real and simplex parameters of ``inst``.

        >>> Space([Real("x", 0.0, 1.0)]).encode({"x": 0.5})  # logit of the unit position
        array([0.])
        """
        parts: list[np.ndarray] = []
        for param in self.params:
            value = inst[param.name]
            if isinstance(param, Real):
                parts.append(_logit(param.to_unit(value, inst)))
            elif isinstance(param, Simplex):
                logw = np.log(np.maximum(np.asarray(value, dtype=float), 1e-300))
                parts.append(np.clip(logw - logw.mean(), -700.0, 700.0))
        return np.concatenate(parts) if parts else np.zeros(0)

    def decode(self, x: np.ndarray, like: Instance) -> Instance:
        """The instance at coordinates ``x``; integers (and so lengths) are taken from ``like``.

        >>> space = Space([Integer("n", 1, 9), Real("x", 0.0, 2.0)])
        >>> space.decode(space.encode({"n": 3, "x": 1.5}), like={"n": 3, "x": 0.0})
        {'n': 3, 'x': 1.5}
        """
        inst: Instance = {}
        pos = 0
        for param in self.params:
            if isinstance(param, Integer):
                inst[param.name] = like[param.name]
                continue
            width = np.size(like[param.name])
            chunk = np.asarray(x[pos : pos + width], dtype=float)
            pos += width
            if isinstance(param, Real):
                inst[param.name] = param.from_unit(_sigmoid(chunk), inst)
            else:
                w = np.exp(chunk - chunk.max())
                inst[param.name] = w / w.sum()
        return inst

    def valid(self, inst: Instance) -> bool:
        """Whether ``inst`` lies in the space: every Real and Integer inside its range (open
        ends excluded; shrinking rounds values and may land on an end) and ``where`` true.

        >>> space = Space([Real("x", 0.0, 1.0)])
        >>> space.valid({"x": 0.5}), space.valid({"x": 1.0})
        (True, False)
        """
        for param in self.params:
            value = inst.get(param.name)
            if value is None:
                return False
            if isinstance(param, Integer):
                if not param.low <= int(value) <= param.high:
                    return False
            elif isinstance(param, Real):
                n = _length(param.size, inst)
                arr = np.asarray(value, dtype=float)
                if arr.shape != (() if n is None else (n,)):
                    return False
                lo, hi = param._ends(inst, n)
                if not bool(np.all(param._inside(arr, lo, hi))):
                    return False
        return self.where is None or bool(self.where(inst))

    def strategy(self) -> st.SearchStrategy[Instance]:
        """A hypothesis strategy over the space (shrinks towards small integers and simple
        floats).

        >>> from hypothesis import given, settings
        >>> space = Space([Integer("n", 1, 4), Simplex("w", "n")])
        >>> @settings(max_examples=20, derandomize=True, database=None)
        ... @given(space.strategy())
        ... def test_weights_sum_to_one(inst):
        ...     assert len(inst["w"]) == inst["n"] and abs(inst["w"].sum() - 1.0) < 1e-12
        >>> test_weights_sum_to_one()
        """
        from hypothesis import strategies as st

        @st.composite
        def draw(data: st.DrawFn) -> Instance:
            inst: Instance = {}
            for param in self.params:
                inst[param.name] = data(param.strategy(inst))
            return inst

        strategy = draw()
        return strategy if self.where is None else strategy.filter(self.valid)
