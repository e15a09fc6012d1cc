"""The one configuration layer: safe file readers and strict, documented tables.

* :mod:`~fltheory.config.files` — regular files only, bounded size and nesting, TOML/JSON;
* :mod:`~fltheory.config.numbers` — numbers typed by users, bounded before exact parsing;
* :mod:`~fltheory.config.schema` — :class:`Strict` tables and :func:`parse`, whose errors name
  the file, the table, the key and a suggestion.
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.config.files import load_json, load_toml, read_bytes, read_text, regular_file
    from fltheory.config.schema import Strict, check_keys, parse, suggest

__all__ = [
    "Strict",
    "check_keys",
    "load_json",
    "load_toml",
    "parse",
    "read_bytes",
    "read_text",
    "regular_file",
    "suggest",
]

# Lazy (PEP 562): the file readers serve the chain readers of ``fltheory.markov``, which must not
# pull pydantic (the schema layer) into ``import fltheory``.
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.config.files": (
            "load_json",
            "load_toml",
            "read_bytes",
            "read_text",
            "regular_file",
        ),
        "fltheory.config.schema": ("Strict", "check_keys", "parse", "suggest"),
    },
)
