"""Build the reference pages of the input files from their strict schemas.

    python docs/build_reference.py           # write the pages
    python docs/build_reference.py --check   # exit 1 when a page is out of date

One page per file a user writes: ``problem_file.md`` (``fltheory bound``/``optimize-q``),
``report_file.md`` (``fltheory report``), ``sweep_file.md`` (``fltheory sweep``) and
``simulation_file.md`` (``fltheory simulate``; its plug-in kinds are in ``plugins.md``, built by
``python -m fltheory.sim.config.docs``). Every table lists each key with its type, default and
meaning, read from the same pydantic models that refuse an unknown key, so a page cannot
describe a key the file does not take: tests/test_reference_docs.py runs ``--check``.
"""

import argparse
import json
import sys
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's fltheory, installed or not

from fltheory.config.schema import type_words  # noqa: E402
from fltheory.sim.config.docs import _cell, _constraints  # noqa: E402

DOCS = ROOT / "docs"
GENERATED = "Generated from the schemas by `python docs/build_reference.py`; do not edit by hand."
AVAILABILITY_NOTE = (
    "`kind` names an availability kind, the other keys are its fields: the vocabulary of the "
    "simulation config, listed in [plugins.md](plugins.md#availability) (`two_state`, "
    "`clients_csv`, `bernoulli`, `clustered`, `finite_chain`, `ca_fed`, …). Every kind also "
    "takes `n_clients`, the number of clients N for a table that does not fix it; a table fixes "
    "N when it lists one value per client, has `groups` (each with a `count` and an optional "
    "`name`) or reads a file."
)


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
        return "its defaults" if isinstance(value, BaseModel) else f"`{json.dumps(value)}`"
    if field.default is None:
        return "absent"
    if isinstance(field.default, BaseModel):
        return "its defaults"
    return f"`{json.dumps(field.default)}`"


def fields_table(model: type[BaseModel]) -> str:
    """A markdown table of a model's fields: key, type, default, description."""
    rows = ["| key | type | default | description |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        words = type_words(field.annotation) + _constraints(field)
        cells = (f"`{name}`", words, _default(field), field.description or "")
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows) + "\n"


def _page(title: str, intro: str, sections: list[tuple[str, str]]) -> str:
    parts = [f"# {title}\n", GENERATED + "\n", intro.strip() + "\n"]
    for heading, body in sections:
        parts += [f"## {heading}\n", body.rstrip() + "\n"]
    return "\n".join(parts)


PROBLEM_EXAMPLE = """```toml
rounds = 200          # T, the horizon of eq. 13
local_steps = 2       # E
sigma = 1.0

[availability]        # three groups of two-state clients
kind = "two_state"
groups = [
  {name = "office", count = 4, pi = 0.85, lambda2 = 0.2},
  {name = "home", count = 4, pi = 0.5, lambda2 = 0.7},
  {name = "mobile", count = 2, pi = 0.15, lambda2 = 0.95},
]

[steps]
eta1 = 0.05
power = 1.0

[problem]             # F_k(w) = ½‖w − u_k‖² (H defaults to the identity)
u = [[1, 0], [1, 0.5], [0.8, 0], [1.2, 0.1], [0, 1], [0.1, 1], [0, 0.8], [-0.1, 1.2],
     [-1, -1], [-1.2, -0.8]]
diameter = 8.0
```"""


def problem_page() -> str:
    from fltheory.problems.config import (
        ClientsTable,
        ConstantsTable,
        OptimizeTable,
        ProblemFile,
        QuadraticTable,
        StepsTable,
    )

    intro = f"""
The file of `fltheory bound --config FILE` and `fltheory optimize-q --config FILE` (and of
`fltheory.bound_report` / `fltheory.optimal_weights`, which also take the same tables as a
dict). Every unknown key, missing key, wrong type or non-finite number is an error naming the
file, the table and the key; an unknown key with no near miss lists the valid keys. Give
exactly one of `[availability]` and `[clients]`, and one of `[problem]` and `[constants]`.

{PROBLEM_EXAMPLE}
"""
    return _page(
        "The problem file",
        intro,
        [
            ("Top level", fields_table(ProblemFile)),
            ("`[availability]`", AVAILABILITY_NOTE),
            (
                "`[clients]` (older form: one of `pi`, `preset`, `matrix`)",
                fields_table(ClientsTable),
            ),
            ("`[steps]` (one of `eta1`, `values`)", fields_table(StepsTable)),
            ("`[problem]`", fields_table(QuadraticTable)),
            ("`[constants]`", fields_table(ConstantsTable)),
            ("`[optimize]`", fields_table(OptimizeTable)),
        ],
    )


def report_page() -> str:
    from fltheory.report.config import PopulationTable, ProblemTable, ReportConfig, SimulationTable

    intro = """
The file of `fltheory report --config FILE`. Every key is optional: without a file the report
is on the CA-Fed paper's population (`[population]`, the preset of Section V-A(a)); an
`[availability]` table replaces it with any setting of your own. Unknown keys are errors naming
the table, with the valid keys when no near miss exists.

```toml
title = "Three groups"
[availability]
kind = "two_state"
groups = [
  {name = "office", count = 4, pi = 0.85, lambda2 = 0.2},
  {name = "home", count = 4, pi = 0.5, lambda2 = 0.7},
  {name = "mobile", count = 2, pi = 0.15, lambda2 = 0.95},
]
[problem]
weights = "unbiased"
```
"""
    sections = [("Top level", fields_table(ReportConfig))]
    if "availability" in ReportConfig.model_fields:
        sections.append(("`[availability]`", AVAILABILITY_NOTE))
    sections += [
        ("`[population]` (the CA-Fed preset)", fields_table(PopulationTable)),
        ("`[problem]`", fields_table(ProblemTable)),
        ("`[simulation]`", fields_table(SimulationTable)),
    ]
    return _page("The report file", intro, sections)


def sweep_page() -> str:
    from fltheory.sweep.spec import MAX_RUNS, SWEEP_KEY_DOCS

    rows = ["| key | type | default | description |", "|---|---|---|---|"]
    for key, (words, default, meaning) in SWEEP_KEY_DOCS.items():
        rows.append(
            "| " + " | ".join(_cell(c) for c in (f"`{key}`", words, default, meaning)) + " |"
        )
    intro = f"""
The file of `fltheory sweep FILE`: a base simulation config, the seeds, and axes. The runs are
the Cartesian product of the axes × the seeds (at most {MAX_RUNS:,}); each is the base config
with the axes' values set, `seed` = that seed and `seeds` = 1. Everything is checked before a
run starts: unknown keys, dotted keys that name nothing in the base config, values its schema
refuses. The base config's `[availability]` table is the simulation's (groups included).

```toml
base = "sim.toml"
seeds = 10
[axes]
"run.lr" = [0.01, 0.03, 0.1]
"availability.groups.2.pi" = [0.1, 0.15, 0.2]
```
"""
    return _page("The sweep file", intro, [("Keys", "\n".join(rows) + "\n")])


def simulation_page() -> str:
    from fltheory.sim.config.tables import AlgorithmOptions, RunTable, SimFile

    intro = """
The file of `fltheory simulate --config FILE` (examples in `examples/sim_*.toml`). Its
`[problem]` and `[availability]` tables name a plug-in with `kind`, each `[[algorithms]]` entry
with `name`, and their other keys are that plug-in's fields, listed in
[plugins.md](plugins.md). Every unknown key, missing key, wrong type or out-of-range value is an
error naming the file, the table and the key.
"""
    return _page(
        "The simulation file",
        intro,
        [
            ("Top level", fields_table(SimFile)),
            ("`[run]`", fields_table(RunTable)),
            ("Options of every `[[algorithms]]` entry", fields_table(AlgorithmOptions)),
            ("`[availability]`", AVAILABILITY_NOTE),
        ],
    )


#: page file → its builder.
PAGES = {
    "problem_file.md": problem_page,
    "report_file.md": report_page,
    "sweep_file.md": sweep_page,
    "simulation_file.md": simulation_page,
}


def stale(folder: Path = DOCS) -> list[str]:
    """The pages whose text differs from what the schemas give."""
    out = []
    for name, build in PAGES.items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != build():
            out.append(name)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is stale")
    args = parser.parse_args()
    if args.check:
        behind = stale()
        for name in behind:
            print(
                f"docs/{name} is out of date: run python docs/build_reference.py", file=sys.stderr
            )
        return 1 if behind else 0
    for name, build in PAGES.items():
        (DOCS / name).write_text(build(), encoding="utf-8")
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
