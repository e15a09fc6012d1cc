"""Parameter types shared by the plug-ins, and their conversion to arrays.

>>> per_client(0.5, 3, "pi").tolist()
[0.5, 0.5, 0.5]
>>> target_weights("uniform", 4, None).tolist()
[0.25, 0.25, 0.25, 0.25]
"""

from typing import Literal

import numpy as np
from pydantic import Field

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


def alpha_field(default: str, with_samples: bool = True):
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


def rectangular(value: list, key: str, ndims: tuple[int, ...] = (2,)) -> np.ndarray:
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
