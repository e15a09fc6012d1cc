"""Plug-in registries: a name → (parameter schema, builder, documentation, extras) table.

Algorithms, problems, models, availability processes, claims and experiments each live in one
:class:`Registry`. A plug-in registers itself where it is defined::

    ALGORITHMS = Registry("algorithm", package="fltheory.sim.algorithms")

    @ALGORITHMS.register("fedavg", params=FedAvgParams, reference=fedavg_reference)
    def build_fedavg(params, context): ...

Registries with a ``package`` import every module of that package the first time they are
asked for a name, so adding a plug-in is adding one module: no list to edit elsewhere. Registries
with a ``group`` then import outside plug-ins: the modules of ``FLTHEORY_PLUGINS`` and of the
installed entry points of that group (:mod:`fltheory.plugins`); outside code may also call
``register`` itself, from any module.
"""

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from fltheory import plugins
from fltheory.config.schema import Strict, suggest
from fltheory.errors import InputError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered plug-in.

    Attributes:
        name: the name users write (config ``name``/``kind``, CLI argument).
        params: the :class:`~fltheory.config.schema.Strict` model of its parameters.
        build: the function that makes the object from validated parameters.
        doc: one line for listings (defaults to the first line of ``build``'s docstring).
        extras: anything else the registry's users need (e.g. a reference-loop twin).
        origin: the module that registered it (``fltheory.…`` for fltheory's own).

    >>> Entry("x", Strict, print, "Prints.", origin="my_rules").builtin
    False
    """

    name: str
    params: type[Strict]
    build: Callable[..., T]
    doc: str
    extras: Mapping[str, Any] = field(default_factory=dict)
    origin: str = "fltheory"

    @property
    def builtin(self) -> bool:
        """Whether fltheory itself registered it (not a plug-in)."""
        return plugins.is_builtin(self.origin)


class DuplicateRegistration(InputError, RuntimeError):
    """A name registered twice (e.g. a plug-in re-using a built-in name); the message names
    both modules."""


class Registry(Generic[T]):
    """Named plug-ins of one kind (``what`` is used in messages: "unknown algorithm ...").

    >>> from fltheory.config import Strict
    >>> shapes = Registry("shape")
    >>> class Square(Strict):
    ...     side: float = 1.0
    >>> @shapes.register("square", params=Square)
    ... def square(p):
    ...     '''A square.'''
    ...     return p.side**2
    >>> shapes.build("square", {"side": 3})
    9.0
    >>> shapes.get("sqare")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown shape 'sqare'; did you mean 'square'? (choose from: square)
    """

    def __init__(self, what: str, *, package: str | None = None, group: str | None = None) -> None:
        self.what = what
        self.package = package
        #: the entry-point group of outside plug-ins (None: this registry loads none).
        self.group = group
        self._entries: dict[str, Entry[T]] = {}
        self._discovered = package is None

    def register(
        self, name: str, *, params: type[Strict], doc: str | None = None, **extras: Any
    ) -> Callable[[F], F]:
        """Decorator registering ``build`` under ``name`` (a name may be registered once).

        >>> from fltheory.config import Strict
        >>> shapes = Registry("shape")
        >>> @shapes.register("circle", params=Strict, doc="a circle of radius 1")
        ... def circle(params):
        ...     return 3.14159
        >>> shapes.get("circle").doc, shapes.build("circle", {})
        ('a circle of radius 1', 3.14159)
        """

        origin = plugins.caller_module()

        def decorate(build: F) -> F:
            if name in self._entries:
                first = self._entries[name].origin
                raise DuplicateRegistration(
                    f"{self.what} '{name}' is registered twice (by {first} and by {origin})"
                )
            line = doc or (build.__doc__ or "").strip().splitlines()[0:1]
            text = line if isinstance(line, str) else (line[0] if line else "")
            self._entries[name] = Entry(name, params, build, text, dict(extras), origin)
            if self.group is not None:
                plugins.note_registration(origin, f"{self.what} '{name}'")
            return build

        return decorate

    def _discover(self) -> None:
        if not self._discovered and self.package is not None:
            self._discovered = True
            package = importlib.import_module(self.package)
            for info in pkgutil.walk_packages(package.__path__, prefix=f"{self.package}."):
                importlib.import_module(info.name)
        if self.group is not None:
            plugins.discover(self.group)

    def names(self) -> list[str]:
        """Registered names, sorted.

        >>> from fltheory.sim import PROBLEMS
        >>> "fedpbc_quadratic" in PROBLEMS.names()
        True
        """
        self._discover()
        return sorted(self._entries)

    def __iter__(self) -> Iterator[Entry[T]]:
        self._discover()
        return iter([self._entries[n] for n in sorted(self._entries)])

    def __contains__(self, name: object) -> bool:
        self._discover()
        return name in self._entries

    def __len__(self) -> int:
        self._discover()
        return len(self._entries)

    def get(self, name: str, *, where: str = "") -> Entry[T]:
        """The entry for ``name``; an unknown name is an InputError with a suggestion.

        >>> from fltheory.sim import ALGORITHMS
        >>> ALGORITHMS.get("unbiased").doc
        'Unbiased: q_k = α_k/π_k for the active clients (CA-Fed ToN Guideline C).'
        >>> ALGORITHMS.get("fedavgg")
        Traceback (most recent call last):
        ...
        fltheory.errors.InputError: unknown algorithm 'fedavgg'; did you mean 'fedavg'? ...
        """
        self._discover()
        if name not in self._entries:
            place = f" in {where}" if where else ""
            raise InputError(
                f"unknown {self.what} '{name}'{place}{suggest(name, self._entries)} "
                f"(choose from: {', '.join(sorted(self._entries))})"
            )
        return self._entries[name]

    def build(self, name: str, params: Mapping[str, Any], *args: Any, **kwargs: Any) -> T:
        """Validate ``params`` against the entry's schema and call its builder.

        >>> from fltheory.sim import ALGORITHMS
        >>> from fltheory.sim.registries import AlgorithmContext
        >>> ALGORITHMS.build("fedavg", {"rule": "fixed"}, AlgorithmContext(2, 10, 0, None))
        FedAvg(rule='fixed', q=None)
        """
        from fltheory.config.schema import parse

        entry = self.get(name)
        return entry.build(parse(entry.params, dict(params), table=name), *args, **kwargs)
