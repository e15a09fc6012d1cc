"""Build the API reference from the docstrings with pdoc, warnings as errors.

    python docs/build_api.py                 # into docs/api/ (open docs/api/index.html)
    python docs/build_api.py --out DIR

One HTML page per public package (what its ``__all__`` exports, with every docstring and its
``>>>`` examples). Any warning while importing or rendering — an unresolvable cross-reference,
a malformed docstring, a deprecated call — fails the build (exit status 1, the warnings on
stderr), so the reference cannot rot: tests/test_api_docs.py runs this script.
"""

import argparse
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's fltheory, installed or not

#: The documented modules: the top-level façade and every public package (each page lists what
#: the package exports in ``__all__``), plus the standalone public modules.
MODULES = (
    "fltheory",
    "fltheory.api",
    "fltheory.markov",
    "fltheory.problems",
    "fltheory.bounds",
    "fltheory.optimize",
    "fltheory.limits",
    "fltheory.sim",
    "fltheory.claims",
    "fltheory.experiments",
    "fltheory.report",
    "fltheory.sweep",
    "fltheory.config",
    "fltheory.testing",
    "fltheory.testing.strategies",
    "fltheory.atomic",
    "fltheory.errors",
    "fltheory.provenance",
    "fltheory.resources",
    "fltheory.rng",
)


def build(out: Path, modules: tuple[str, ...] = MODULES) -> list[str]:
    """Render ``modules`` into ``out``; return the warnings raised meanwhile."""
    import pdoc
    import pdoc.render

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.render.configure(docformat="restructuredtext", search=True, show_source=False)
        pdoc.pdoc(*modules, output_directory=out)
    return [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "api")
    args = parser.parse_args()
    try:
        import pdoc  # noqa: F401
    except ImportError:
        print("docs/build_api.py: pdoc is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    problems = build(args.out)
    for line in problems:
        print(f"warning: {line}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} warning(s): the API reference is not clean", file=sys.stderr)
        return 1
    print(f"API reference: {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
