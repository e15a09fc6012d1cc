"""Outside code as plug-ins: the user's own algorithms, problems, availability processes,
models, claims and experiments, in a module or an installed package of their own.

A plug-in is a module that registers what it defines with the registries' own API when it is
imported (``fltheory.sim.registries.ALGORITHMS.register(...)``, ``fltheory.claims.register(...)``,
…). Three ways to have it imported:

* **entry points** — an installed package declares its modules in ``pyproject.toml``::

      [project.entry-points."fltheory.algorithms"]
      power = "my_rules.power"

  and each registry imports the modules of its group (:data:`GROUPS`) the first time it is asked
  for a name, in every process (the CLI, the Python API, sweep workers);
* **on request** — ``--plugin MODULE`` (repeatable, anywhere on a ``fltheory`` command line) or
  ``FLTHEORY_PLUGINS=mod1,mod2``: a dotted module name importable from ``sys.path``, or the path
  of a ``.py`` file;
* **from Python** — :func:`load_plugins` (also ``fltheory.load_plugins``).

Every sweep worker imports the modules requested in its parent before its first run
(:func:`call_with_plugins`). :func:`plugin_records` — each plug-in's module, how it was loaded,
its distribution and version where installed, the SHA-256 of its source files and what it
registered — goes into the provenance of every result (:func:`fltheory.provenance.provenance`).
Code that registers straight from a script, without a loader, is recorded too.

A module that fails to import is a :class:`PluginError`: one line naming the module and the
cause (``fltheory`` exits with status 2).

>>> import sys, tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "demo_plugin.py").write_text("GREETING = 'hello'\\n")
>>> [p.module for p in load_plugins([str(folder / "demo_plugin.py")])]
['demo_plugin']
>>> sys.modules["demo_plugin"].GREETING
'hello'
>>> [record["via"] for record in plugin_records() if record["module"] == "demo_plugin"]
['load_plugins']
>>> forget = _LOADED.pop("demo_plugin"), sys.modules.pop("demo_plugin")  # (for other examples)
>>> _REQUESTED.remove(str((folder / "demo_plugin.py").resolve()))
>>> load_plugins(["no_such_module_xyz"])
Traceback (most recent call last):
...
fltheory.plugins.PluginError: plug-in 'no_such_module_xyz' (load_plugins) failed to import: ...
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import FrameType

from fltheory.errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

#: The entry-point group of each registry (``[project.entry-points."<group>"]``).
GROUPS = {
    "algorithm": "fltheory.algorithms",
    "problem kind": "fltheory.problems",
    "availability kind": "fltheory.availability",
    "model": "fltheory.models",
    "local method": "fltheory.local_methods",
    "claim": "fltheory.claims",
    "experiment": "fltheory.experiments",
}
#: The environment variable naming plug-in modules, separated by commas.
ENV = "FLTHEORY_PLUGINS"
#: Modules that register on behalf of their caller (skipped when finding who registered).
FORWARDERS = (
    "fltheory.registry",
    "fltheory.plugins",
    "fltheory.claims.claim",
    "fltheory.experiments.model",
)
#: Most source files hashed for one plug-in package (a larger package is refused).
MAX_FILES = 10_000


class PluginError(InputError):
    """A plug-in module could not be loaded (the message names it and the cause)."""


@dataclass
class Plugin:
    """One loaded plug-in module.

    Attributes:
        module: the module's name (``sys.modules`` key): the first one loaded of its package.
        requested: what was asked for (a module name or a file path).
        via: how: ``--plugin``, ``FLTHEORY_PLUGINS``, ``load_plugins``, ``sweep worker``,
            ``entry point <group>``, or ``registered from Python`` (a script that registered
            without a loader).
        files: (path, SHA-256) of each source file, as imported: every ``.py`` file of the
            module's top-level package (importing ``pkg.rules`` runs ``pkg/__init__.py`` and
            whatever it imports), or the module's file.
        distribution: the installed distribution that holds it (None: not installed).
        version: that distribution's version.
        registered: what it registered (``"algorithm 'power'"``, ``"claim 'mylab:lemma1'"``).

    >>> Plugin("m", "m", "load_plugins").to_dict()["via"]
    'load_plugins'
    """

    module: str
    requested: str
    via: str
    files: list[tuple[str, str]] = field(default_factory=list)
    distribution: str | None = None
    version: str | None = None
    registered: list[str] = field(default_factory=list)
    #: the top-level package whose files are hashed (the module itself when it is top-level
    #: or in a namespace package); its modules belong to this plug-in.
    root: str = ""
    _located: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The provenance record (distribution looked up on first use)."""
        if not self._located:
            self._located = True
            if self.distribution is None and self.files:
                found = _distribution_of(self.module.split(".")[0], self.files[0][0])
                if found is not None:
                    self.distribution, self.version = found
        return {
            "module": self.module,
            "requested": self.requested,
            "via": self.via,
            "distribution": self.distribution,
            "version": self.version,
            "files": [{"path": path, "sha256": digest} for path, digest in self.files],
            "registered": list(self.registered),
        }


#: Loaded plug-ins by root (:attr:`Plugin.root`).
_LOADED: dict[str, Plugin] = {}
#: What outside modules registered (module → names), found by the registries.
_REGISTERED: dict[str, list[str]] = {}
#: Plug-ins requested by name (``--plugin``, the environment, :func:`load_plugins`): what a sweep
#: worker loads before it runs.
_REQUESTED: list[str] = []
#: Entry-point groups loaded, and modules being imported (a plug-in may ask a registry for names
#: while it is imported).
_GROUPS_DONE: set[str] = set()
#: Values of ``FLTHEORY_PLUGINS`` whose modules are loaded.
_ENV_DONE: set[str] = set()
_IMPORTING: set[str] = set()
#: Records of outside modules that registered without a loader (their files hashed once).
_UNLOADED: dict[str, Plugin] = {}


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _is_file(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def _module_name(spec: str, via: str) -> str:
    if _is_file(spec):
        name = Path(spec).stem
        if not name.isidentifier():
            raise PluginError(
                f"plug-in '{spec}' ({via}): the file name {name!r} is not a Python module name"
            )
        return name
    if not all(part.isidentifier() for part in spec.split(".")):
        raise PluginError(
            f"plug-in '{spec}' ({via}) is neither a module name (my_package.rules) nor a .py file"
        )
    return spec


def _hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_files(module: Any) -> list[tuple[str, str]]:
    """(path, SHA-256) of a module's source: its file, or every ``.py`` file of a package.

    >>> import fltheory.rng
    >>> [(Path(p).name, len(h)) for p, h in source_files(fltheory.rng)]
    [('rng.py', 64)]
    """
    roots = [Path(p) for p in getattr(module, "__path__", [])]
    if roots:
        paths = sorted(
            p for root in roots for p in root.rglob("*.py") if "__pycache__" not in p.parts
        )
        if len(paths) > MAX_FILES:
            raise PluginError(
                f"plug-in '{module.__name__}' is a package of {len(paths)} source files "
                f"(at most {MAX_FILES} are hashed for the provenance)"
            )
    else:
        file = getattr(module, "__file__", None)
        paths = [Path(file)] if file else []
    return [(str(p.resolve()), _hash(p)) for p in paths if p.is_file()]


@lru_cache(maxsize=1)
def _packages() -> Mapping[str, list[str]]:
    from importlib import metadata

    return metadata.packages_distributions()


def _distribution_of(top: str, file: str) -> tuple[str, str] | None:
    """(name, version) of the installed distribution whose files include ``file``."""
    from importlib import metadata

    target = Path(file).resolve()
    for name in _packages().get(top, []):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        for item in dist.files or []:
            if Path(str(dist.locate_file(item))).resolve() == target:
                return dist.metadata["Name"], dist.version
    return None


def _root(name: str) -> str:
    """The top-level package of module ``name`` when it is a regular package, else ``name``."""
    top = sys.modules.get(name.split(".")[0])
    return name.split(".")[0] if getattr(top, "__file__", None) else name


def _record(name: str, spec: str, via: str) -> Plugin:
    """The record of the imported module ``name``: its package's, when that is loaded already."""
    root = _root(name)
    if root not in _LOADED:
        _LOADED[root] = Plugin(name, spec, via, source_files(sys.modules[root]), root=root)
    return _LOADED[root]


def _import(spec: str, via: str) -> Plugin:
    """Import one requested module (a name or a ``.py`` path) and record it."""
    name = _module_name(spec, via)
    owner = _owner(name)
    if owner is not None and name in sys.modules:
        return owner
    if name in _IMPORTING:
        return Plugin(name, spec, via)
    _IMPORTING.add(name)
    try:
        if _is_file(spec):
            _import_file(spec, name, via)
        else:
            importlib.import_module(name)
    except PluginError:
        raise
    except (Exception, SystemExit) as err:
        hint = ""
        if isinstance(err, ModuleNotFoundError) and err.name == name.split(".")[0]:
            hint = " (put its folder on PYTHONPATH, or give the path of its .py file)"
        raise PluginError(
            f"plug-in '{spec}' ({via}) failed to import: {type(err).__name__}: "
            f"{_one_line(err)}{hint}"
        ) from None
    finally:
        _IMPORTING.discard(name)
    return _record(name, spec, via)


def _import_file(spec: str, name: str, via: str) -> Any:
    path = Path(spec).expanduser().resolve()
    if not path.is_file():
        what = "not a regular file" if path.exists() else "no such file"
        raise PluginError(f"plug-in '{spec}' ({via}): {what}")
    known = sys.modules.get(name)
    if known is not None:
        file = getattr(known, "__file__", None)
        if file and Path(file).resolve() == path:
            return known
        raise PluginError(
            f"plug-in '{spec}' ({via}): a module named '{name}' is already imported "
            f"from {getattr(known, '__file__', 'elsewhere')}"
        )
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise PluginError(f"plug-in '{spec}' ({via}): not a Python source file")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module
    try:
        loader_spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_plugins(modules: Iterable[str], *, via: str = "load_plugins") -> list[Plugin]:
    """Import each plug-in module (a dotted name, or the path of a ``.py`` file) once, record
    it for the provenance, and have sweep workers import it too. Returns their records.

    >>> load_plugins([])
    []
    >>> load_plugins(["not a module"])
    Traceback (most recent call last):
    ...
    fltheory.plugins.PluginError: plug-in 'not a module' (load_plugins) is neither a module ...
    """
    loaded = []
    for raw in modules:
        spec = raw.strip()
        if not spec:
            raise PluginError(f"an empty plug-in name ({via})")
        loaded.append(_import(spec, via))
        if _is_file(spec):  # a worker may start elsewhere
            spec = str(Path(spec).expanduser().resolve())
        if spec not in _REQUESTED:
            _REQUESTED.append(spec)
    return loaded


def environment_plugins() -> list[str]:
    """The modules named by ``FLTHEORY_PLUGINS`` (comma-separated; blanks ignored).

    >>> os.environ[ENV] = "my_rules, other.mod,"
    >>> environment_plugins()
    ['my_rules', 'other.mod']
    >>> del os.environ[ENV]
    """
    return [name.strip() for name in os.environ.get(ENV, "").split(",") if name.strip()]


def load_environment() -> list[Plugin]:
    """Import the modules of ``FLTHEORY_PLUGINS`` (nothing when it is unset).

    >>> load_environment()
    []
    """
    return load_plugins(environment_plugins(), via=ENV)


def load_entry_points(group: str) -> list[Plugin]:
    """Import the modules of every installed entry point of ``group`` (once per process; a
    failure is raised again on the next call).

    >>> load_entry_points("fltheory.no_such_group")
    []
    """
    if group in _GROUPS_DONE:
        return []
    from importlib.metadata import entry_points

    loaded = []
    for point in entry_points(group=group):
        dist = getattr(point, "dist", None)
        owner = f" of {dist.name} {dist.version}" if dist is not None else ""
        where = f"entry point '{point.name}' in group {group}{owner}"
        name = point.module
        plugin = _owner(name)
        if plugin is None or name not in sys.modules:
            _IMPORTING.add(name)
            try:
                point.load()
            except (Exception, SystemExit) as err:
                raise PluginError(
                    f"plug-in '{point.value}' ({where}) failed to import: "
                    f"{type(err).__name__}: {_one_line(err)}"
                ) from None
            finally:
                _IMPORTING.discard(name)
            plugin = _record(name, point.value, f"entry point {group}")
            if dist is not None and plugin.distribution is None:
                plugin.distribution, plugin.version = dist.name, dist.version
        loaded.append(plugin)
    _GROUPS_DONE.add(group)
    return loaded


def discover(group: str | None) -> None:
    """What a registry does on first use: import the modules of ``FLTHEORY_PLUGINS`` and of
    the entry points of its ``group``.

    >>> discover(None)
    """
    names = os.environ.get(ENV, "")
    if names and names not in _ENV_DONE:
        load_environment()
        _ENV_DONE.add(names)
    if group is not None and group not in _GROUPS_DONE:
        load_entry_points(group)


def requested() -> list[str]:
    """The plug-ins requested by name in this process, in order (what sweep workers load).

    >>> isinstance(requested(), list)
    True
    """
    return list(_REQUESTED)


def requested_by_name(module: str) -> bool:
    """Whether ``module`` is (or belongs to the package of) a plug-in requested by name —
    ``--plugin``, ``FLTHEORY_PLUGINS`` or :func:`load_plugins`, not an entry point.

    >>> requested_by_name("fltheory.plugins")
    False
    """
    owner = _owner(module)
    return owner is not None and not owner.via.startswith("entry point")


def call_with_plugins(plugins: list[str], fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` after importing ``plugins`` (once per process): a sweep worker's call.

    >>> call_with_plugins([], pow, 2, 5)
    32
    """
    load_plugins(plugins, via="sweep worker")
    return fn(*args)


def caller_module() -> str:
    """The module that registers: the innermost module being imported whose top-level code led
    to the call (so a helper that registers on a module's behalf does not count), else the
    innermost caller outside :data:`FORWARDERS` (a registration made by a running function).

    >>> isinstance(caller_module(), str)
    True
    """
    frame: FrameType | None = sys._getframe(1)
    caller = ""
    while frame is not None:
        name = str(frame.f_globals.get("__name__", ""))
        if name not in FORWARDERS:
            caller = caller or name
            importing = getattr(frame.f_globals.get("__spec__"), "_initializing", False)
            if frame.f_code.co_name == "<module>" and importing:
                return name
        frame = frame.f_back
    return caller


def is_builtin(module: str) -> bool:
    """Whether ``module`` is part of fltheory itself.

    >>> is_builtin("fltheory.sim.algorithms.fedavg"), is_builtin("my_rules")
    (True, False)
    """
    return module == "fltheory" or module.startswith("fltheory.")


def note_registration(module: str, what: str) -> None:
    """Record that the outside module ``module`` registered ``what`` (e.g. ``"algorithm
    'power'"``) — called by the registries, so that the provenance names outside code however
    it was loaded.

    >>> note_registration("fltheory.sim.algorithms.fedavg", "algorithm 'fedavg'")  # ignored
    """
    if module and not is_builtin(module):
        names = _REGISTERED.setdefault(module, [])
        if what not in names:
            names.append(what)


def _owner(module: str) -> Plugin | None:
    """The loaded plug-in that ``module`` is, or belongs to (a module of its package)."""
    for root, plugin in _LOADED.items():
        if module == root or module.startswith(root + "."):
            return plugin
    return None


def plugin_records() -> list[dict[str, Any]]:
    """Every plug-in loaded in this process, and every outside module that registered
    something, as provenance records (see :class:`Plugin`), in load order.

    >>> isinstance(plugin_records(), list)
    True
    """
    extra: list[Plugin] = []
    for module, names in _REGISTERED.items():
        plugin = _owner(module)
        if plugin is None:
            plugin = _UNLOADED.get(module)
            if plugin is None:
                loaded = sys.modules.get(module)
                files = source_files(loaded) if loaded is not None else []
                plugin = _UNLOADED[module] = Plugin(module, module, "registered from Python", files)
            extra.append(plugin)
        for what in names:
            if what not in plugin.registered:
                plugin.registered.append(what)
    return [p.to_dict() for p in (*_LOADED.values(), *extra)]
