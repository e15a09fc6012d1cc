"""``docs/plugins.md``: every simulator plug-in and configuration table, from the registries.

Regenerate after adding or changing a plug-in (a test fails while the page is out of date)::

    python -m fltheory.sim.config.docs
"""

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from fltheory.config.schema import type_words
from fltheory.registry import Registry
from fltheory.sim.config.tables import AlgorithmOptions, RunTable, SimFile
from fltheory.sim.registries import ALGORITHMS, AVAILABILITY, LOCAL_METHODS, MODELS, PROBLEMS

PAGE = Path(__file__).resolve().parents[3] / "docs" / "plugins.md"

HEADER = """\
# Simulator plug-ins and configuration tables

Generated from the registries of `fltheory.sim.registries` by
`python -m fltheory.sim.config.docs`; do not edit by hand (a test fails when this page is out of
date). A config (`fltheory simulate --config FILE`, examples in `examples/sim_*.toml`) has the
tables below; `[problem]` and `[availability]` name a plug-in with `kind`, each
`[[algorithms]]` entry with `name`, the optional `[local]` table with `method`, and the other keys
of the table are that plug-in's fields. Every unknown key, missing required key, wrong type or
out-of-range value is an error naming the file, the table and the key. Your own algorithms,
problems, availability kinds, models and local methods register the same way from a module of
yours, loaded by `--plugin`, `FLTHEORY_PLUGINS` or entry points ([own_code.md](own_code.md)); a
plug-in algorithm needs no reference twin.
"""


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    if field.default is None:
        return "absent"
    return f"`{json.dumps(field.default)}`"


_BOUNDS = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<"}


def _constraints(field: FieldInfo) -> str:
    """ " (≥ 0)", " (length 2)" … from a field's constraints."""
    found = {}
    for item in field.metadata:
        for attr in (*_BOUNDS, "min_length", "max_length"):
            if getattr(item, attr, None) is not None:
                found[attr] = getattr(item, attr)
    words = [f"{sign} {found[attr]}" for attr, sign in _BOUNDS.items() if attr in found]
    low, high = found.get("min_length"), found.get("max_length")
    if low is not None and low == high:
        words.append(f"length {low}")
    else:
        words += [f"length {sign} {n}" for sign, n in (("≥", low), ("≤", high)) if n is not None]
    return f" ({', '.join(words)})" if words else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def fields_table(model: type[BaseModel]) -> str:
    """A markdown table of a model's fields: key, type, default, description.

    >>> from fltheory.sim.registries import NoParams
    >>> fields_table(NoParams)
    'No fields.\\n'
    """
    if not model.model_fields:
        return "No fields.\n"
    rows = ["| key | type | default | description |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        words = type_words(field.annotation) + _constraints(field)
        cells = (f"`{name}`", words, _default(field), field.description or "")
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows) + "\n"


def _registry(title: str, registry: Registry[Any], key: str, note: str) -> list[str]:
    own = [entry for entry in registry if entry.builtin]  # fltheory's, not loaded plug-ins
    out = [f"## {title}\n", f"{note} Names: {', '.join(f'`{e.name}`' for e in own)}.\n"]
    for entry in own:
        out += [f'### `{key} = "{entry.name}"`\n', f"{entry.doc}\n", fields_table(entry.params)]
    return out


def plugins_markdown() -> str:
    """The whole page (tables, then each registry's entries in name order)."""
    parts = [
        HEADER,
        "## Configuration tables\n",
        "### Top level\n",
        fields_table(SimFile),
        "### `[run]`\n",
        "The keys shared with the algorithm options are the defaults of every algorithm.\n",
        fields_table(RunTable),
        "### Options of every `[[algorithms]]` entry\n",
        "Defaults from `[run]`; an entry's own value overrides them for that algorithm.\n",
        fields_table(AlgorithmOptions),
    ]
    parts += _registry(
        "Algorithms",
        ALGORITHMS,
        "name",
        "`[[algorithms]]` entries, one module each in "
        "`fltheory/sim/algorithms/`, each with its reference-loop twin.",
    )
    parts += _registry(
        "Problems", PROBLEMS, "kind", "The `[problem]` table (`fltheory/sim/plugins/problems/`)."
    )
    parts += _registry(
        "Models",
        MODELS,
        "model",
        "Chosen by `model` in the `[problem]` table of a data problem, "
        "whose fields then go in that table too (`fltheory/sim/plugins/models/`).",
    )
    parts += _registry(
        "Local methods",
        LOCAL_METHODS,
        "method",
        "The optional `[local]` table: what each client does between two server steps "
        "(`fltheory/sim/local/`, the contract in `fltheory/sim/local/base.py`). Without it a "
        "run uses `sgd`, or `torch_sgd` when a `local_*` key of `[run]` is set or the "
        "algorithm corrects gradients (SCAFFOLD).",
    )
    parts += _registry(
        "Availability",
        AVAILABILITY,
        "kind",
        "The `[availability]` table (`fltheory/sim/plugins/availability/`), the one "
        "availability model of every command: the problem file, the report file and "
        "`fltheory chain --config` / `limit --chain` take the same table, and the Python API "
        "the same dict. Every kind also takes `n_clients`: N for a table that does not fix it "
        "(a simulation takes N from its problem and checks it). A table fixes N when it lists "
        "one value per client, has `groups` (each a `count` of identical clients, with an "
        "optional `name` used in the outputs) or reads a file. The theory commands need a "
        "stationary chain: `day_cycle` and `trace` have none.",
    )
    return "\n".join(parts)


def main() -> None:
    """Write :data:`PAGE`."""
    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(plugins_markdown())
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
