"""Parameter types shared by the plug-ins, and their conversion to arrays.

>>> per_client(0.5, 3, "pi").tolist()
[0.5, 0.5, 0.5]
>>> target_weights("uniform", 4, None).tolist()
[0.25, 0.25, 0.25, 0.25]
"""

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError

#: Target weights α of eq. (1) of a problem with data: proportional to the local sample counts,
#: uniform, or one positive number per client (normalised to sum 1).
DataAlpha = Literal["samples", "uniform"] | list[float]
#: Target weights α of a problem without data (quadratics).
Alpha = Literal["uniform"] | list[float]
#: One number for every client, or one per client.
PerClient = float | list[float]

MODEL_DOC = "the model trained (a name of the models registry; its fields go in this table)"
#: How test accuracy scores predictions (:data:`fltheory.sim.problems.Scoring`).
SCORING_DOC = (
    "how test accuracy scores predictions: 'model' (the first maximal score; a NaN score never "
    "wins a softmax) or 'authors' (the authors' metrics: a row with a NaN score predicts its "
    "first NaN class, so a diverged model predicts class 0; a NaN binary logit is never correct)"
)
ALPHA_DOC = "target weights α of eq. (1): {choices}, or one positive number per client"


def alpha_field(default: str, with_samples: bool = True) -> Any:
    """A documented ``alpha`` field with default ``default``."""
    choices = "'samples' (∝ local data size), 'uniform'" if with_samples else "'uniform'"
    return Field(default, description=ALPHA_DOC.format(choices=choices))


def target_weights(value: DataAlpha, n: int, counts: np.ndarray | None) -> np.ndarray:
    """The (N,) α of ``value`` for N clients with ``counts`` local training samples (or None)."""
    if value == "uniform":
        return np.full(n, 1.0 / n)
    if value == "samples":
        if counts is None:
            raise InputError("alpha = 'samples' needs a problem with data")
        return counts.astype(float)
    return np.asarray(value, dtype=float)


def per_client(value: PerClient, n: int, key: str) -> np.ndarray:
    """(N,) values: a number repeated for every client, or a list of exactly N numbers."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return np.full(n, float(arr))
    if arr.shape != (n,):
        raise InputError(f"'{key}' must be a number or a list of {n} numbers, got {arr.size}")
    return arr


#: Most clients an [availability] table's groups may describe.
MAX_GROUP_CLIENTS = 10_000_000


class Group(Strict):
    """One group of identical clients: ``count`` of them, an optional ``name``; the kind's own
    group class adds the per-client values (π and λ₂, or p)."""

    count: int = Field(ge=1, description="number of clients in the group")
    name: str | None = Field(
        None, min_length=1, max_length=100, description="the group's name (default 'group i')"
    )


def group_names(groups: Sequence[Group]) -> list[str]:
    """The groups' names (``group i`` for an unnamed one), refused when two coincide.

    >>> group_names([Group(count=1, name="office"), Group(count=2)])
    ['office', 'group 1']
    """
    names = [g.name or f"group {i}" for i, g in enumerate(groups)]
    for name in names:
        if names.count(name) > 1:
            raise InputError(f"two groups are named '{name}'")
    return names


def group_count(groups: Sequence[Group]) -> int:
    """Σ count: the clients the groups describe, refused beyond :data:`MAX_GROUP_CLIENTS`.

    >>> group_count([Group(count=3), Group(count=4)])
    7
    """
    total = sum(g.count for g in groups)
    if total > MAX_GROUP_CLIENTS:
        raise InputError(
            f"the groups count {total:,} clients; at most {MAX_GROUP_CLIENTS:,} are accepted"
        )
    return total


def expand_groups(
    groups: Sequence[Group], n: int, keys: Sequence[str]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """({key: (N,) values}, {group name: (N,) mask}) of ``groups`` for N clients, in order:
    the first ``count`` clients are the first group, and so on.

    >>> class G(Group):
    ...     p: float
    >>> values, masks = expand_groups([G(count=2, p=0.9, name="a"), G(count=1, p=0.1)], 3, ["p"])
    >>> values["p"].tolist(), {k: v.tolist() for k, v in masks.items()}
    ([0.9, 0.9, 0.1], {'a': [True, True, False], 'group 1': [False, False, True]})
    """
    if not groups:
        raise InputError("'groups' must list at least one group")
    names = group_names(groups)
    total = group_count(groups)
    if total != n:
        raise InputError(f"the groups count {total} clients, but the setting has {n}")
    counts = [g.count for g in groups]
    label = np.repeat(np.arange(len(groups)), counts)
    values = {
        key: np.repeat(np.array([float(getattr(g, key)) for g in groups]), counts) for key in keys
    }
    return values, {name: label == i for i, name in enumerate(names)}


def rectangular(value: list[Any], key: str, ndims: tuple[int, ...] = (2,)) -> np.ndarray:
    """An array from nested lists of equal lengths with one of ``ndims`` levels.

    >>> rectangular([[1, 2], [3]], "u")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: 'u' must be a rectangular list of lists (rows of equal length)
    """
    try:
        arr = np.asarray(value, dtype=float)
    except ValueError:
        arr = None
    if arr is None or arr.ndim not in ndims:
        levels = " or ".join("list of " * (d - 1) + "lists" for d in ndims)
        raise InputError(f"'{key}' must be a rectangular {levels} (rows of equal length)")
    return arr
