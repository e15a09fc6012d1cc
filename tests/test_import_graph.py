"""The package imports downwards only: no cycle between modules outside the CLI, and no module
imports from a layer above its own (``LAYERS``, bottom first; docs/architecture.md explains it).

Every ``import`` of every module counts, including imports inside functions and under
``TYPE_CHECKING`` (they are read from the source with ``ast``, not from ``sys.modules``).
"""

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1] / "fltheory"

#: The layers of the package, bottom first: a unit (a subpackage or top-level module of
#: fltheory; ``__init__`` is the top package's façade) may import only from its own layer or
#: those below it. A new unit must be placed here.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    # constants and small helpers that import nothing of fltheory but each other
    ("ground", frozenset({
        "_exports", "_version", "defaults", "divergence", "errors", "jsonable", "papers", "plugins",
        "provenance", "reprs", "rng",
    })),
    # input checks, strict configs, files, locks, the generic registry
    ("foundations", frozenset({
        "atomic", "checks", "config", "lock", "registry", "resources", "resultdir",
    })),
    # the theory: chains and their constants, limits, optimal weights, problems, bounds
    ("theory", frozenset({"bounds", "limits", "markov", "optimize", "problems"})),
    # the simulator, sweeps over it, Flower strategies, hypothesis strategies and oracles
    ("simulator", frozenset({"flower", "sim", "sweep", "testing"})),
    # the records the CLI prints (fltheory.api) and the claims checked against both
    ("records", frozenset({"api", "claims"})),
    # the report and the papers' experiments
    ("products", frozenset({"experiments", "report"})),
    # shells: the top package's lazy façade, the command line
    ("shells", frozenset({"__init__", "__main__", "cli"})),
)  # fmt: skip

#: The packages (and top-level modules) below the CLI and the simulator.
THEORY = {
    "bounds", "checks", "config", "divergence", "errors", "limits", "markov", "optimize",
    "problems", "registry", "rng",
}  # fmt: skip


def layer_of(unit: str) -> int:
    """The index in :data:`LAYERS` of ``unit``'s layer (KeyError naming it when unplaced)."""
    for index, (_, units) in enumerate(LAYERS):
        if unit in units:
            return index
    raise KeyError(f"fltheory.{unit} has no layer in LAYERS")


def _modules(root: Path) -> dict[str, Path]:
    """Dotted name → file of every module of the package (a package's name for its
    ``__init__.py``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _unit(module: str) -> str:
    """``fltheory.bounds.theorem2`` → ``bounds``; ``fltheory`` itself → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imported(node: ast.AST, package: str) -> list[str]:
    """The dotted names an import statement names (``from fltheory import checks`` names
    ``fltheory.checks``; ``from fltheory.limits import f`` names ``fltheory.limits.f``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, base] if base else parent)
    return [f"{base}.{alias.name}" for alias in node.names]


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module a dotted name lives in: its longest prefix that is a module of fltheory."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def module_graph(root: Path = ROOT) -> nx.DiGraph:
    """Edges module → module for every fltheory import anywhere in a module of the package."""
    modules = _modules(root)
    graph = nx.DiGraph()
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        graph.add_node(module)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for name in _imported(node, package):
                target = _resolve(name, modules) if name.startswith("fltheory") else None
                if target is not None and target != module:
                    graph.add_edge(module, target)
    return graph


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Edges unit → unit (subpackages and top-level modules) of :func:`module_graph`."""
    graph = nx.DiGraph()
    for source, target in module_graph(root).edges:
        graph.add_nodes_from([_unit(source), _unit(target)])
        if _unit(source) != _unit(target):
            graph.add_edge(_unit(source), _unit(target))
    return graph


def cycles_outside_cli(graph: nx.DiGraph) -> list[list[str]]:
    """The module cycles that do not run through fltheory.cli (sorted, for a stable message)."""
    outside = graph.subgraph(m for m in graph if _unit(m) != "cli")
    return sorted(sorted(c) for c in nx.strongly_connected_components(outside) if len(c) > 1)


def upward_imports(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """The module edges that import from a higher layer than the importer's."""
    return sorted(
        (source, target)
        for source, target in graph.edges
        if layer_of(_unit(source)) < layer_of(_unit(target))
    )


def test_the_graph_sees_function_level_imports():
    graph = import_graph()
    # fltheory/cli/bound_cmd.py imports fltheory.api only inside the command function
    assert graph.has_edge("cli", "api")
    assert graph.has_edge("bounds", "problems")
    assert graph.has_edge("problems", "checks")  # ``from fltheory import checks``
    modules = module_graph()
    # fltheory/cli/app.py imports the command modules inside _register_commands
    assert modules.has_edge("fltheory.cli.app", "fltheory.cli.bound_cmd")
    # a name taken from a package is an edge to the package's __init__
    assert modules.has_edge("fltheory.cli.optimize_cmd", "fltheory.optimize")


def test_bounds_and_problems_import_one_way():
    graph = import_graph()
    assert not nx.has_path(graph, "problems", "bounds"), nx.shortest_path(
        graph, "problems", "bounds"
    )


def test_the_theory_packages_have_no_import_cycle():
    graph = import_graph().subgraph(THEORY)
    assert set(graph.nodes) == THEORY
    assert list(nx.simple_cycles(graph)) == []


def test_no_module_cycle_outside_the_cli():
    assert cycles_outside_cli(module_graph()) == []


def test_the_units_import_one_way():
    graph = import_graph()
    assert list(nx.simple_cycles(graph)) == []


def test_every_unit_has_one_layer():
    placed = [unit for _, units in LAYERS for unit in units]
    assert len(placed) == len(set(placed))
    assert set(import_graph().nodes) == set(placed)


def test_no_import_runs_up_a_layer():
    assert upward_imports(module_graph()) == []


@pytest.mark.parametrize(
    ("edges", "cycles", "upward"),
    [
        ([("fltheory.sim.a", "fltheory.sim.b"), ("fltheory.sim.b", "fltheory.sim.a")], 1, 0),
        ([("fltheory.cli.a", "fltheory.cli.b"), ("fltheory.cli.b", "fltheory.cli.a")], 0, 0),
        ([("fltheory.provenance", "fltheory")], 0, 1),
        ([("fltheory.cli.app", "fltheory._version")], 0, 0),
    ],
    ids=["cycle", "cycle in the CLI", "arrow up", "arrow down"],
)
def test_a_cycle_or_an_arrow_up_would_be_found(edges, cycles, upward):
    graph = nx.DiGraph(edges)
    assert len(cycles_outside_cli(graph)) == cycles
    assert len(upward_imports(graph)) == upward
