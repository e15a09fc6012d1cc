"""What the bounds are evaluated on: problems with exact answers, constant tables, step sizes.

* :class:`QuadraticProblem` — quadratic problems, every quantity in closed form;
* :class:`ProblemConstants` — the constants of Assumptions 2–5 for your own model;
* :class:`StepSizes` — the local step sizes η_t of Theorem 2;
* :class:`ProblemSetup` — everything Theorems 1–3 and problems 14/212 need;
* :func:`load_problem_config` — a TOML problem file (:mod:`~fltheory.problems.config`), read
  into a ``ProblemSetup``.

``fltheory.bounds`` imports this package, never the other way round.

>>> from fltheory.problems import StepSizes
>>> StepSizes.power_law(0.02, 1.0).eta([1, 4]).tolist()  # η_t = η₁/t
[0.02, 0.005]
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.problems.config import load_problem_config
    from fltheory.problems.constants import ProblemConstants
    from fltheory.problems.quadratic import QuadraticProblem
    from fltheory.problems.setup import ProblemSetup
    from fltheory.problems.steps import StepSizes

__all__ = [
    "ProblemConstants",
    "ProblemSetup",
    "QuadraticProblem",
    "StepSizes",
    "load_problem_config",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.problems.config": ("load_problem_config",),
        "fltheory.problems.constants": ("ProblemConstants",),
        "fltheory.problems.quadratic": ("QuadraticProblem",),
        "fltheory.problems.setup": ("ProblemSetup",),
        "fltheory.problems.steps": ("StepSizes",),
    },
)
