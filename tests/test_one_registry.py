"""One registry class: every registry of fltheory — algorithms, problems, models, availability,
claims, experiments — is a :class:`fltheory.registry.Registry`, with one discovery and one
plug-in mechanism; no module defines a registry class of its own."""

import ast
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path

import pytest

import fltheory
from fltheory.claims import CLAIMS
from fltheory.claims.claim import Claim, Source, register, resolve, select
from fltheory.errors import InputError
from fltheory.experiments.model import EXPERIMENTS, all_experiments, get, module_of
from fltheory.registry import DuplicateRegistration, Registry
from fltheory.sim.registries import ALGORITHMS, AVAILABILITY, MODELS, PROBLEMS

ROOT = Path(fltheory.__file__).parent
#: Packages of an optional extra, imported only where their dependency is installed.
OPTIONAL = {"fltheory.flower": "flwr"}


def _registry_classes(tree: ast.Module) -> list[str]:
    """Classes of a module that define what a registry does: register (or add) and get."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            if "get" in methods and methods & {"register", "add"}:
                found.append(node.name)
    return found


def _all_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages([str(ROOT)], prefix="fltheory."):
        needs = next((m for p, m in OPTIONAL.items() if info.name.startswith(p)), None)
        if info.name.endswith("__main__") or (
            needs is not None and importlib.util.find_spec(needs) is None
        ):
            continue
        names.append(info.name)
    return names


def test_no_module_defines_a_registry_class_of_its_own():
    defined = {
        f"{path.relative_to(ROOT.parent)}:{name}"
        for path in ROOT.rglob("*.py")
        for name in _registry_classes(ast.parse(path.read_text(), str(path)))
    }
    assert defined == {"fltheory/registry.py:Registry"}


def test_the_scan_finds_a_second_registry_class():
    """The check above can fail: a class with register and get is found."""
    text = "class ClaimTable:\n    def add(self, c): ...\n    def get(self, i): ...\n"
    assert _registry_classes(ast.parse(text)) == ["ClaimTable"]


def test_every_registry_object_is_an_instance_of_the_one_class():
    for name in _all_modules():
        importlib.import_module(name)
    like = {
        f"{module}.{attr}": type(value)
        for module, loaded in list(sys.modules.items())
        if module == "fltheory" or module.startswith("fltheory.")
        for attr, value in vars(loaded).items()
        if type(value).__module__.startswith("fltheory.")  # an object of a class of ours
        and callable(getattr(value, "get", None))
        and (callable(getattr(value, "register", None)) or callable(getattr(value, "add", None)))
    }
    assert like and {t for t in like.values()} == {Registry}, like
    for registry in (ALGORITHMS, PROBLEMS, MODELS, AVAILABILITY, CLAIMS, EXPERIMENTS):
        assert type(registry) is Registry


def test_claims_and_experiments_are_values_with_the_module_that_registered_them():
    claim = CLAIMS.get("fedar:eq4")
    assert isinstance(claim, Claim) and claim in list(CLAIMS)
    assert CLAIMS.origin("fedar:eq4") == "fltheory.claims.papers.fedar.s4_rules"
    assert [c.id for c in CLAIMS] == sorted(CLAIMS.names()) == sorted(c.id for c in CLAIMS)
    experiment = get("cafed:fig1a")
    assert EXPERIMENTS.get("cafed:fig1a") is experiment and experiment in all_experiments()
    assert module_of("cafed:fig1a") == EXPERIMENTS.origin("cafed:fig1a")
    assert module_of("cafed:fig1a") == "fltheory.experiments.catalog.cafed_fig1"


def test_a_claim_registered_twice_names_both_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh: Registry[Claim, Claim] = Registry("claim")
    monkeypatch.setattr("fltheory.claims.claim.CLAIMS", fresh)
    claim = Claim("fedar:twice", Source("fedar", "§1", "x"), "s", reason="prose")
    register(claim)
    with pytest.raises(
        DuplicateRegistration,
        match=rf"claim 'fedar:twice' is registered twice \(by {__name__} and by {__name__}\)",
    ):
        register(claim)
    assert fresh.origin("fedar:twice") == __name__


def test_claim_names_resolve_and_select_on_the_one_registry():
    assert [c.id for c in resolve("FEDAR:EQ4")] == ["fedar:eq4"]
    assert {c.paper for c in select(paper="fedar")} == {"fedar"}
    with pytest.raises(InputError, match=r"^unknown claim 'fedar:eq44'; did you mean"):
        CLAIMS.get("fedar:eq44")
    with pytest.raises(InputError, match=r"unknown paper 'fedarr'"):
        select(paper="fedarr")


def test_a_value_registry_has_no_builders() -> None:
    colours: Registry[str, str] = Registry("colour")
    colours.add("red", "#f00")
    with pytest.raises(TypeError, match="the colour registry holds values, not builders"):
        colours.build("red", {})  # type: ignore[misc]
