"""Standalone verification scripts for the errata: ``docs/errata/<paper>/<label>.py``.

A reviewer attaches to a report a script that recomputes both sides of a refuted statement at
its moderate witness with nothing but Python (``fractions``) and ``mpmath`` — no fltheory. The
script is generated from two things: the claim's ``verify`` function (its source, embedded
verbatim: :func:`standalone_source` checks that it uses no globals and imports only from
:data:`ALLOWED_IMPORTS`) and the moderate witness's ``verify_args`` recorded by ``fltheory
check --json`` (exact literals, see :func:`fltheory.claims.explain.literal`).

The script exits 0 when the statement fails at the witness (the finding is reproduced), 1 when
it holds there.
"""

from __future__ import annotations

import ast
import builtins
import dis
import inspect
import textwrap
import types
from collections.abc import Callable
from typing import Any

#: Modules a standalone ``verify`` may import (inside its body).
ALLOWED_IMPORTS = frozenset({"fractions", "math", "mpmath", "itertools", "functools"})


class NotStandalone(ValueError):
    """A ``verify`` function that the errata scripts cannot embed as it is."""


def standalone_source(verify: Callable[..., Any]) -> str:
    """The dedented source of ``verify``, checked to run on its own: no global or nonlocal
    names (builtins excepted), no decorators, imports only from :data:`ALLOWED_IMPORTS`.

    >>> def verify(x):
    ...     from fractions import Fraction
    ...     return {"lhs": Fraction(x) ** 2, "rhs": Fraction(x), "holds": x * x >= x}
    >>> standalone_source(verify).splitlines()[0]
    'def verify(x):'
    """
    source = textwrap.dedent(inspect.getsource(verify))
    tree = ast.parse(source)
    func = tree.body[0]
    if len(tree.body) != 1 or not isinstance(func, ast.FunctionDef):
        raise NotStandalone(f"{verify.__name__}: the source must be one function definition")
    if func.decorator_list:
        raise NotStandalone(f"{verify.__name__}: no decorators")
    outside = sorted(_global_loads(verify.__code__) - set(dir(builtins)))
    if outside or verify.__closure__:
        names = outside or sorted(verify.__code__.co_freevars)
        raise NotStandalone(f"{verify.__name__} uses names from outside its body: {names}")
    for node in ast.walk(func):
        if isinstance(node, ast.Import):
            modules = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [(node.module or "").split(".")[0]]
        else:
            continue
        bad = [m for m in modules if m not in ALLOWED_IMPORTS]
        if bad:
            raise NotStandalone(
                f"{verify.__name__} imports {bad}; allowed: {sorted(ALLOWED_IMPORTS)}"
            )
    return source


def _global_loads(code: types.CodeType) -> set[str]:
    """Names the code (and the functions and comprehensions inside it) reads as globals: the
    bytecode's LOAD_GLOBAL/LOAD_NAME, not attribute or imported-module names."""
    names = {
        str(ins.argval)
        for ins in dis.get_instructions(code)
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")
    }
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_loads(const)
    return names


def script_name(claim_id: str) -> str:
    """``<paper>/<label>.py`` for a claim id.

    >>> script_name("cafed:appd-prop2")
    'cafed/appd-prop2.py'
    """
    paper, _, label = claim_id.partition(":")
    return f"{paper}/{label}.py"


def _doc_line(text: str, width: int = 92) -> str:
    return textwrap.fill(" ".join(str(text).split()), width).replace('"""', "'''")


def errata_script(verdict: dict[str, Any], verify: Callable[..., Any]) -> str:
    """The standalone script of one refuted claim, from its ``check --json`` record (which
    must carry a moderate witness explained in the paper's quantities) and its ``verify``.

    >>> def verify(x):
    ...     return {"lhs": x * x, "rhs": x, "holds": x * x >= x}
    >>> record = {"id": "fedar:demo", "statement": "x² ≥ x", "source": "s",
    ...     "finding": {"class": "error", "severity": "result", "why": "fails on (0, 1)"},
    ...     "reading": None, "moderate_witness": {"paper": {"verify_args": {"x": "Fraction(1, 2)"},
    ...     "quantities": [{"symbol": "x", "name": "the point", "value": "0.5", "formula": ""}]}}}
    >>> script = errata_script(record, verify)
    >>> namespace = {"__name__": "errata"}
    >>> exec(script, namespace)
    >>> namespace["verify"](**namespace["WITNESS"])["holds"]
    False
    """
    witness = (verdict.get("moderate_witness") or {}).get("paper")
    if not witness or not witness.get("verify_args"):
        raise ValueError(f"{verdict['id']}: no moderate witness in the paper's quantities")
    finding = verdict.get("finding") or {}
    reading = verdict.get("reading") or {}
    kind = finding.get("class", "?") + (
        f" ({finding['severity']})" if finding.get("severity") else ""
    )
    quantities = "\n".join(
        "    " + (q["formula"] or f"{q['symbol']} = {q['value']}") + f"  ({q['name']})"
        for q in witness.get("quantities", [])
    )
    args = ",\n".join(f"    {key!r}: {value}" for key, value in witness["verify_args"].items())
    header = "\n\n".join(
        part
        for part in (
            f"Errata check for {verdict['id']}: {_doc_line(verdict['statement'])}",
            f"Where: {_doc_line(verdict['source'])}",
            f"Finding: {kind} — {_doc_line(finding.get('why', ''))}",
            f"Reading: {_doc_line(reading.get('interpretation', ''))}"
            if reading.get("interpretation")
            else "",
            "The witness (the least extreme counterexample found by `fltheory check`), in the "
            f"paper's quantities:\n\n{quantities}",
            "This script recomputes both sides exactly (fractions / mpmath), without fltheory.\n"
            f"Run: python {script_name(verdict['id'])}   (exit 0: the statement fails here)",
        )
        if part
    )
    name = verify.__name__
    return (
        "#!/usr/bin/env python3\n"
        f'"""{header}\n"""\n\n'
        "# Generated by `python -m fltheory.claims.errata` from docs/check_results.json; do not "
        "edit.\n"
        "from __future__ import annotations\n\n"
        "from fractions import Fraction\n\n\n"
        f"{standalone_source(verify)}\n\n"
        f"WITNESS = {{\n{args},\n}}\n\n\n"
        'if __name__ == "__main__":\n'
        f"    result = {name}(**WITNESS)\n"
        '    print("left side :", result["lhs"])\n'
        '    print("right side:", result["rhs"])\n'
        '    print("the statement", "holds" if result["holds"] else "FAILS", "at this witness")\n'
        '    raise SystemExit(1 if result["holds"] else 0)\n'
    )
