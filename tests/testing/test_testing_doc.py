"""docs/testing.md lists every hypothesis strategy of fltheory.testing with its parameters (and
their defaults) as they are in the source, and the public ones are importable from
``fltheory.testing``; the check sees a strategy added without its entry."""

import ast
import importlib
from pathlib import Path

import fltheory.testing

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "testing.md"
PACKAGE = ROOT / "fltheory" / "testing"


def _signature(node: ast.FunctionDef) -> str:
    """``name(a, b=2, *, c=3)`` without annotations and without a composite's ``draw``."""
    args = node.args
    plain = [a for a in args.posonlyargs + args.args if a.arg != "draw"]
    defaults = [None] * (len(plain) - len(args.defaults)) + list(args.defaults)
    pairs = zip(plain, defaults, strict=True)
    parts = [a.arg if d is None else f"{a.arg}={ast.unparse(d)}" for a, d in pairs]
    if args.kwonlyargs:
        parts.append("*")
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            parts.append(a.arg if d is None else f"{a.arg}={ast.unparse(d)}")
    return f"{node.name}({', '.join(parts)})"


def strategies(source: str) -> list[str]:
    """Signatures of the public strategies of a module: ``@st.composite`` functions and
    functions returning ``st.SearchStrategy``."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        decorators = {ast.unparse(d) for d in node.decorator_list}
        returns = ast.unparse(node.returns) if node.returns else ""
        if "st.composite" in decorators or "SearchStrategy" in returns:
            found.append(_signature(node))
    return found


def every_strategy() -> dict[str, str]:
    """Signature → module, for every module of fltheory.testing."""
    return {
        signature: f"fltheory.testing.{path.stem}"
        for path in sorted(PACKAGE.glob("*.py"))
        for signature in strategies(path.read_text())
    }


def test_the_scan_finds_the_strategies():
    found = every_strategy()
    assert "product_chains(min_clients=1, max_clients=8)" in found
    assert "probabilities(*, lower=1e-06, upper=1.0 - 1e-06)" in found
    assert len(found) >= 20


def test_every_strategy_is_listed_with_its_parameters():
    text = PAGE.read_text()
    missing = [s for s in every_strategy() if f"### `{s}`" not in text]
    assert missing == [], f"docs/testing.md lacks (or has stale parameters for): {missing}"


def test_every_listed_strategy_exists():
    text = PAGE.read_text()
    listed = {line[5:-1] for line in text.splitlines() if line.startswith("### `")}
    assert listed - set(every_strategy()) == set()


def test_the_module_of_each_strategy_is_named_and_importable():
    text = PAGE.read_text()
    for signature, module in every_strategy().items():
        name = signature.split("(")[0]
        section = text.split(f"### `{signature}`", 1)[1].split("\n### ", 1)[0]
        assert f"`{module}`" in section, (name, module)
        assert hasattr(importlib.import_module(module), name)


def test_the_public_strategies_are_exported():
    text = PAGE.read_text()
    for name in fltheory.testing.__all__:
        if name != "register_profiles":
            assert f"### `{name}(" in text, name
            assert getattr(fltheory.testing, name) is not None
    assert "register_profiles" in text


def test_a_new_strategy_would_be_seen():
    source = "@st.composite\ndef new_chains(draw, n: int = 3, *, fast=False):\n    pass\n"
    assert strategies(source) == ["new_chains(n=3, *, fast=False)"]
