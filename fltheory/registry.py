"""The one registry: a name → value table that remembers the module that registered each name,
finds its built-in entries by importing every module of a package, and loads outside plug-ins.

Every table of fltheory whose entries are found rather than listed is a :class:`Registry`:

* **builders** — algorithms, problems, models and availability processes
  (:mod:`fltheory.sim.registries`): each value is an :class:`Entry`, a builder with a
  :class:`~fltheory.config.schema.Strict` parameter schema, registered with a decorator::

      ALGORITHMS: Registry[Algorithm] = Registry("algorithm", package="fltheory.sim.algorithms")

      @ALGORITHMS.register("fedavg", params=FedAvgParams, reference=fedavg_reference)
      def build_fedavg(params, context): ...

  and made with ``ALGORITHMS.build(name, params, context)``;
* **values** — claims (:data:`fltheory.claims.claim.CLAIMS`) and experiments
  (:data:`fltheory.experiments.model.EXPERIMENTS`): each value is the object itself, added with
  :meth:`Registry.add`.

A registry with a ``package`` imports every module of that package (subpackages included) the
first time it is asked for a name, so adding a built-in entry is adding one module: no list to
edit elsewhere. A registry with a ``group`` then imports outside plug-ins: the modules of
``FLTHEORY_PLUGINS`` and of the installed entry points of that group (:mod:`fltheory.plugins`);
outside code may also register from any module. A name is registered once: a second
registration is refused, naming both modules.
"""

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic

from typing_extensions import TypeVar  # a type parameter with a default (PEP 696)

from fltheory import plugins
from fltheory.config.schema import Strict, parse, suggest
from fltheory.errors import InputError

#: What a registry gives for a name: the object its builder makes, or the stored value itself.
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered builder: the value of a builder registry (``Registry[T]``).

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
        """Whether fltheory itself registered it (not a plug-in).

        >>> Entry("x", Strict, print, "Prints.", origin="fltheory.sim.algorithms.x").builtin
        True
        """
        return plugins.is_builtin(self.origin)


#: What a registry stores under a name: a builder :class:`Entry` (the default), or a value.
V = TypeVar("V", default=Entry[T])


class DuplicateRegistration(InputError, RuntimeError):
    """A name registered twice (e.g. a plug-in re-using a built-in name); the message names
    both modules.

    >>> issubclass(DuplicateRegistration, RuntimeError)
    True
    """


class Registry(Generic[T, V]):
    """Named entries of one kind, in name order (``what`` is used in messages: "unknown
    algorithm ...").

    ``Registry[T]`` holds builders of ``T`` (:class:`Entry` values: :meth:`register`,
    :meth:`build`); ``Registry[X, X]`` holds values of type ``X`` (:meth:`add`). Both find
    their entries the same way (``package``, ``group``), refuse a name registered twice, and
    know which module registered each name (:meth:`origin`). ``list_names``: whether an
    unknown name's error lists every name (off for long tables, such as the claims).

    >>> from fltheory.config import Strict
    >>> shapes: Registry[float] = Registry("shape")
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
    >>> colours: Registry[str, str] = Registry("colour")
    >>> colours.add("red", "#ff0000"), colours.get("red"), list(colours)
    ('#ff0000', '#ff0000', ['#ff0000'])
    """

    def __init__(
        self,
        what: str,
        *,
        package: str | None = None,
        group: str | None = None,
        list_names: bool = True,
    ) -> None:
        self.what = what
        #: the package whose modules register the built-in entries (None: none).
        self.package = package
        #: the entry-point group of outside plug-ins (None: this registry loads none).
        self.group = group
        self.list_names = list_names
        self._values: dict[str, V] = {}
        self._origins: dict[str, str] = {}
        self._discovered = package is None

    def add(self, name: str, value: V, *, origin: str | None = None) -> V:
        """Register ``value`` under ``name`` and return it. ``origin``: the module registering
        (default: the module whose top-level code led here, :func:`plugins.caller_module`).

        >>> notes: Registry[str, str] = Registry("note")
        >>> notes.add("a", "la", origin="mine"), notes.origin("a")
        ('la', 'mine')
        >>> notes.add("a", "again", origin="yours")
        Traceback (most recent call last):
        ...
        fltheory.registry.DuplicateRegistration: note 'a' is registered twice (by mine and by yours)
        """
        origin = plugins.caller_module() if origin is None else origin
        if name in self._values:
            raise DuplicateRegistration(
                f"{self.what} '{name}' is registered twice (by {self._origins[name]} and by "
                f"{origin})"
            )
        self._values[name] = value
        self._origins[name] = origin
        if self.group is not None:
            plugins.note_registration(origin, f"{self.what} '{name}'")
        return value

    def register(
        self: "Registry[T, Entry[T]]",
        name: str,
        *,
        params: type[Strict],
        doc: str | None = None,
        **extras: Any,
    ) -> Callable[[F], F]:
        """Decorator registering a builder under ``name``, with its parameter schema ``params``
        (a builder registry's :meth:`add`).

        >>> from fltheory.config import Strict
        >>> shapes: Registry[float] = Registry("shape")
        >>> @shapes.register("circle", params=Strict, doc="a circle of radius 1")
        ... def circle(params):
        ...     return 3.14159
        >>> shapes.get("circle").doc, shapes.build("circle", {})
        ('a circle of radius 1', 3.14159)
        """
        origin = plugins.caller_module()

        def decorate(build: F) -> F:
            lines = (build.__doc__ or "").strip().splitlines()
            text = doc or (lines[0] if lines else "")
            self.add(name, Entry(name, params, build, text, dict(extras), origin), origin=origin)
            return build

        return decorate

    def unregister(self, name: str) -> V:
        """Remove ``name`` and return its value (a test's temporary entry).

        >>> notes: Registry[str, str] = Registry("note")
        >>> _ = notes.add("a", "la")
        >>> notes.unregister("a"), len(notes)
        ('la', 0)
        """
        self._origins.pop(name)
        return self._values.pop(name)

    def _discover(self) -> None:
        if not self._discovered and self.package is not None:
            self._discovered = True  # first: a module may ask for names while imported
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
        return sorted(self._values)

    def __iter__(self) -> Iterator[V]:
        self._discover()
        return iter([self._values[n] for n in sorted(self._values)])

    def __contains__(self, name: object) -> bool:
        self._discover()
        return name in self._values

    def __len__(self) -> int:
        self._discover()
        return len(self._values)

    def get(self, name: str, *, where: str = "") -> V:
        """The value registered under ``name``; an unknown name is an InputError with a
        suggestion.

        >>> from fltheory.sim import ALGORITHMS
        >>> ALGORITHMS.get("unbiased").doc
        'Unbiased: q_k = α_k/π_k for the active clients (CA-Fed ToN Guideline C).'
        >>> ALGORITHMS.get("fedavgg")
        Traceback (most recent call last):
        ...
        fltheory.errors.InputError: unknown algorithm 'fedavgg'; did you mean 'fedavg'? ...
        """
        self._discover()
        if name not in self._values:
            place = f" in {where}" if where else ""
            names = f" (choose from: {', '.join(sorted(self._values))})" if self.list_names else ""
            raise InputError(
                f"unknown {self.what} '{name}'{place}{suggest(name, self._values)}{names}"
            )
        return self._values[name]

    def origin(self, name: str) -> str:
        """The module that registered ``name`` (``fltheory.…`` for fltheory's own entries).

        >>> from fltheory.sim import ALGORITHMS
        >>> ALGORITHMS.origin("fedavg")
        'fltheory.sim.algorithms.fedavg'
        """
        self.get(name)  # an unknown name: the same one-line error
        return self._origins[name]

    def build(
        self: "Registry[T, Entry[T]]",
        name: str,
        params: Mapping[str, Any],
        *args: Any,
        **kwargs: Any,
    ) -> T:
        """Validate ``params`` against the entry's schema and call its builder.

        >>> from fltheory.sim import ALGORITHMS
        >>> from fltheory.sim.registries import AlgorithmContext
        >>> ALGORITHMS.build("fedavg", {"rule": "fixed"}, AlgorithmContext(2, 10, 0, None))
        FedAvg(rule='fixed', q=None)
        """
        entry = self.get(name)
        if not isinstance(entry, Entry):
            raise TypeError(f"the {self.what} registry holds values, not builders")
        return entry.build(parse(entry.params, dict(params), table=name), *args, **kwargs)
