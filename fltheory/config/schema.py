"""Strict configuration tables: pydantic models whose errors are one line with a suggestion.

Every configuration table of fltheory (problem files, simulation configs, sweep files, plug-in
parameters in the registries) is a subclass of :class:`Strict`: unknown keys, wrong types
(``"1"`` for a number, ``true`` for an integer), non-finite numbers and missing required keys
are errors. :func:`parse` turns pydantic's report into one :class:`~fltheory.errors.InputError`
line that names the file, the table and the key, with a "did you mean" suggestion for
misspelled keys::

    unknown key 'alhpa' in [problem] of cfg.toml; did you mean 'alpha'?

pydantic is used rather than hand-written checks because it gives, from one type-annotated
class, validation, defaults, per-field documentation and a JSON schema (for the docs).
"""

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError

from fltheory.errors import InputError


class Strict(BaseModel):
    """Base of every configuration table: no unknown keys, no type coercion, finite numbers.

    >>> class Run(Strict):
    ...     lr: float = 0.1
    >>> Run(lr=1).lr
    1.0
    """

    model_config = ConfigDict(
        extra="forbid", strict=True, allow_inf_nan=False, frozen=True, populate_by_name=True
    )


M = TypeVar("M", bound=BaseModel)


def suggest(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``choices``, or ``""``.

    >>> suggest("alhpa", ["alpha", "beta"])
    "; did you mean 'alpha'?"
    """
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{found[0]}'?" if found else ""


def key_hint(key: str, valid: Iterable[str]) -> str:
    """The suggestion for an unknown ``key``: the near miss, else the list of valid keys.

    >>> key_hint("alhpa", ["alpha", "beta"])
    "; did you mean 'alpha'?"
    >>> key_hint("zzz", ["beta", "alpha"])
    '; valid keys: alpha, beta'
    >>> key_hint("zzz", [])
    '; this table takes no keys'
    """
    valid = list(valid)
    near = suggest(key, valid)
    if near:
        return near
    return f"; valid keys: {', '.join(sorted(valid))}" if valid else "; this table takes no keys"


def table_name(table: str, source: str | Path | None) -> str:
    """``[table] of file`` (or ``the top level of file``) for messages."""
    where = "the top level" if not table else f"[{table}]"
    return where if source is None else f"{where} of {source}"


def _members(annotation: Any) -> list[Any]:
    """The alternatives of ``annotation``: union members (without None), ``Annotated`` unwrapped."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _members(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return [m for a in get_args(annotation) if a is not type(None) for m in _members(a)]
    return [annotation]


def _model(annotation: Any) -> type[BaseModel] | None:
    """The model class among the alternatives of ``annotation``, if any."""
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _element(annotation: Any, item: Any) -> tuple[Any, bool]:
    """(annotation of ``annotation[item]``, whether ``item`` is a dict key) for a list index or a
    dict key; a string that is neither names a union member and leaves the annotation as is."""
    for member in _members(annotation):
        origin, args = get_origin(member), get_args(member)
        if isinstance(item, int) and origin in (list, tuple) and args:
            return args[0], False
        if isinstance(item, str) and origin is dict and len(args) == 2:
            return args[1], True
    return annotation, False


_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
_PLURALS = {bool: "booleans", int: "integers", float: "numbers", str: "strings"}


def type_words(annotation: Any, plural: bool = False) -> str:
    """Plain words for a field type, for messages and documentation.

    >>> type_words(Literal["a", "b"] | list[float])
    "'a' or 'b' or a list of numbers"
    """
    members = _members(annotation)
    if len(members) > 1:
        return " or ".join(type_words(m, plural) for m in members)
    annotation = members[0] if members else annotation
    origin = get_origin(annotation)
    if origin is Literal:
        return " or ".join(repr(a) for a in get_args(annotation))
    if origin in (list, tuple):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        inner = type_words(args[0], plural=True) if args else "values"
        return f"lists of {inner}" if plural else f"a list of {inner}"
    if (isinstance(annotation, type) and issubclass(annotation, BaseModel)) or origin is dict:
        return "tables" if plural else "a table"
    table = _PLURALS if plural else _WORDS
    return table.get(annotation, getattr(annotation, "__name__", str(annotation)))


@dataclass
class _Where:
    """Where an error of a pydantic ``loc`` sits: tables, the key, entry indices, the owner."""

    tables: list[str] = field(default_factory=list)
    key: str = ""
    entries: list[int] = field(default_factory=list)
    owner: type[BaseModel] | None = None
    is_table: bool = False


def _locate(model: type[BaseModel], loc: Sequence[Any]) -> _Where:
    """Follow ``loc`` through ``model``: sub-tables (fields that are models, arrays and dicts of
    models) extend the table path, union member tags are skipped, list indices below a key are
    the entry of that key."""
    where = _Where(owner=model, is_table=True)
    current: Any = model
    for item in loc:
        sub = _model(current)
        if sub is not None and not where.entries:
            if where.key:
                where.tables.append(where.key)
            where.owner, where.key = sub, str(item)
            found = sub.model_fields.get(where.key)
            current = None if found is None else found.annotation
            where.is_table = found is not None and _model(current) is not None
            continue
        current, is_key = _element(current, item)
        if isinstance(item, int):
            if _model(current) is not None:  # an array of tables: [[key]] entry item
                where.key = f"{where.key}.{item}"
            else:
                where.entries.append(item)
        elif is_key:
            where.key = f"{where.key}.{item}"
    return where


#: Error types meaning "this value has the wrong type" (one per union member, when a union).
_EXPECTED = {
    "float_type": "a number",
    "int_type": "an integer",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}


def _expected(error: Any) -> str | None:
    """What a wrong-type error expected ("a number", "'uniform'"), else None."""
    if error["type"] == "literal_error":
        return str(error["ctx"]["expected"])
    return _EXPECTED.get(error["type"])


def _rank(error: Any) -> tuple[int, int]:
    """Prefer the error that went deepest into the input, then one about a value over a type."""
    return (len(error["loc"]), 0 if _expected(error) else 1)


#: Constraint errors (``Field(gt=...)`` and friends), in the words of the messages.
_CONSTRAINTS = {
    "greater_than": "must be > {gt}",
    "greater_than_equal": "must be >= {ge}",
    "less_than": "must be < {lt}",
    "less_than_equal": "must be <= {le}",
    "too_short": "must have at least {min_length} entries",
    "too_long": "must have at most {max_length} entries",
}


def _message(error: Any) -> str:
    """The complaint of one error, lower-case, without pydantic's prefixes."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "finite_number":
        return "must be a finite number"
    if kind in _CONSTRAINTS:
        return _CONSTRAINTS[kind].format(**ctx)
    expected = _expected(error)
    if expected:
        return f"must be {expected}"
    message = str(error["msg"]).removeprefix("Value error, ").rstrip(".")
    return message[:1].lower() + message[1:]


def _describe(value: Any) -> str:
    """A short rendering of an input value and its type (TOML/JSON spelling of booleans)."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({type(value).__name__})"


def error_line(
    err: ValidationError, model: type[BaseModel], table: str, source: str | Path | None
) -> str:
    """One line for the first failing key of ``err`` (the other errors are usually consequences),
    unknown keys first.

    When the key's type is a union (``float | list[float]``), pydantic reports one error per
    alternative: the line keeps the one that matched the input's shape, or lists what was
    expected when none did. A rule of a whole table (a model validator) names the table.

    >>> from pydantic import Field
    >>> class Run(Strict):
    ...     sigma: float | list[Annotated[float, Field(ge=0)]]
    >>> try:
    ...     Run.model_validate({"sigma": [1.0, -2.0]})
    ... except ValidationError as err:
    ...     print(error_line(err, Run, "", "f.toml"))
    key 'sigma' in the top level of f.toml: entry [1] must be >= 0.0, got -2.0 (float)
    """
    # An unknown key first: a misspelt required key also reports that key as missing.
    errors = sorted(err.errors(), key=lambda e: e["type"] != "extra_forbidden")
    spots = [_locate(model, e["loc"]) for e in errors]
    same = [i for i, w in enumerate(spots) if (w.tables, w.key) == (spots[0].tables, spots[0].key)]
    pick = max(same, key=lambda i: _rank(errors[i]))
    best, spot = errors[pick], spots[pick]
    kind = best["type"]
    tables = ".".join(p for p in (table, *spot.tables) if p)
    full = ".".join(p for p in (tables, spot.key) if p)
    if kind == "extra_forbidden":
        fields = list(spot.owner.model_fields) if spot.owner is not None else []
        where = table_name(tables, source)
        return f"unknown key '{spot.key}' in {where}{key_hint(spot.key, fields)}"
    if kind == "missing":
        if spot.is_table:
            return f"missing table [{full}]" + ("" if source is None else f" in {source}")
        return f"missing key '{spot.key}' in {table_name(tables, source)}"
    if spot.is_table and not _expected(best):  # a rule of a whole table (model validator)
        return f"{table_name(full, source)}: {_message(best)}"
    message = _message(best)
    if all(_expected(errors[i]) for i in same) and len(same) > 1:
        found = spot.owner.model_fields.get(spot.key) if spot.owner is not None else None
        if found is not None and not spot.entries:
            message = f"must be {type_words(found.annotation)}"
        else:
            message = "must be " + " or ".join(
                dict.fromkeys(str(_expected(errors[i])) for i in same)
            )
    entry = "".join(f"[{i}]" for i in spot.entries)
    subject = f"entry {entry} " if entry else ""
    head = f"key '{spot.key}' in {table_name(tables, source)}"
    return f"{head}: {subject}{message}, got {_describe(best.get('input'))}"


def parse(model: type[M], data: Any, *, table: str = "", source: str | Path | None = None) -> M:
    """Validate ``data`` (a dict from TOML/JSON or keyword arguments) as ``model``.

    >>> class Problem(Strict):
    ...     alpha: float = 1.0
    >>> parse(Problem, {"alhpa": 2}, table="problem", source="cfg.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown key 'alhpa' in [problem] of cfg.toml; did you mean 'alpha'?
    """
    if not isinstance(data, dict):
        raise InputError(f"{table_name(table, source)} must be a table, got {_describe(data)}")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InputError(error_line(err, model, table, source)) from None


def check_keys(
    data: dict[str, Any], allowed: Iterable[str], *, table: str = "", source: str | Path | None
) -> None:
    """Refuse keys of ``data`` outside ``allowed`` (for tables read without a model).

    >>> check_keys({"rounds": 10, "sedd": 0}, ["rounds", "seed"], table="run", source="c.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown key 'sedd' in [run] of c.toml; did you mean 'seed'?
    """
    allowed = list(allowed)
    for key in data:
        if key not in allowed:
            raise InputError(
                f"unknown key '{key}' in {table_name(table, source)}{key_hint(key, allowed)}"
            )
