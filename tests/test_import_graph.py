"""The theory packages import each other one way: no cycle, e.g. bounds → problems, never back.

Every ``import`` of every module counts, including imports inside functions and under
``TYPE_CHECKING`` (they are read from the source with ``ast``, not from ``sys.modules``).
"""

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1] / "fltheory"

#: The packages (and top-level modules) below the CLI and the simulator.
THEORY = {
    "bounds", "checks", "config", "divergence", "errors", "limits", "markov", "optimize",
    "problems", "registry", "rng",
}  # fmt: skip


def _unit(module: str) -> str | None:
    """``fltheory.bounds.theorem2`` → ``bounds``; ``fltheory`` itself → None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "fltheory" and len(parts) > 1 else None


def _imported(node: ast.AST, package: str) -> list[str]:
    """The fltheory modules an import statement names (``from fltheory import checks`` names
    ``fltheory.checks``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, base] if base else parent)
    if base == "fltheory":
        return [f"fltheory.{alias.name}" for alias in node.names]
    return [base]


def import_graph() -> nx.DiGraph:
    """Edges unit → unit for every fltheory import anywhere in a module of the package."""
    graph = nx.DiGraph()
    for path in ROOT.rglob("*.py"):
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        source = _unit(module.removesuffix(".__init__"))
        if source is None:
            continue
        graph.add_node(source)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for name in _imported(node, package):
                target = _unit(name)
                if target is not None and target != source:
                    graph.add_edge(source, target)
    return graph


def test_the_graph_sees_function_level_imports():
    graph = import_graph()
    # fltheory/cli/bound_cmd.py imports fltheory.api only inside the command function
    assert graph.has_edge("cli", "api")
    assert graph.has_edge("bounds", "problems")
    assert graph.has_edge("problems", "checks")  # ``from fltheory import checks``


def test_bounds_and_problems_import_one_way():
    graph = import_graph()
    assert not nx.has_path(graph, "problems", "bounds"), nx.shortest_path(
        graph, "problems", "bounds"
    )


def test_the_theory_packages_have_no_import_cycle():
    graph = import_graph().subgraph(THEORY)
    assert set(graph.nodes) == THEORY
    assert list(nx.simple_cycles(graph)) == []


def test_a_cycle_would_be_found():
    graph = nx.DiGraph([("problems", "bounds"), ("bounds", "problems")])
    assert list(nx.simple_cycles(graph)) != []
