"""Lazy package exports (PEP 562), so that ``import fltheory`` and its packages stay cheap.

A package lists its public names in ``__all__`` (and, for type checkers, imports them under
``TYPE_CHECKING``); :func:`lazy_exports` gives it the module-level ``__getattr__`` and
``__dir__`` that import each name's module on first access.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_exports(
    package: str, modules: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``; ``modules`` maps each module to the names
    the package takes from it.

    >>> getattr_, dir_ = lazy_exports("fltheory", {"fltheory.markov": ("ProductChain",)})
    >>> getattr_("ProductChain")([0.5], [0.0]).n_states
    2
    """
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # later look-ups skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
