"""Theory vs simulation: every configured algorithm against its exact limit lim E[w_t].

* :mod:`~fltheory.sim.theory.rules` — which simulator rule maps to which limit (a registry,
  :func:`register_limit_rule` for outside algorithms);
* :mod:`~fltheory.sim.theory.exact` — the exact limits of a configuration before it runs
  (:func:`plan_theory`; quadratic problems, Bernoulli links or stationary Markov chains);
* :mod:`~fltheory.sim.theory.stats` — the statistic: a Bonferroni-corrected t-band over the seeds
  around the limit, and the verdict;
* :mod:`~fltheory.sim.theory.compare` — the record (:class:`TheoryComparison`: JSON, CSV, text);
* :mod:`~fltheory.sim.theory.plot` — the overlay plot.

``fltheory simulate --config FILE --theory`` and ``fltheory.simulate(FILE, theory=True)`` use
them; ``docs/theory_vs_simulation.md`` has the table of rules and limits.

>>> from fltheory.sim.theory import LIMIT_RULES
>>> "fedavg" in LIMIT_RULES and "mifa" not in LIMIT_RULES
True
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.sim.theory.compare import (
        TheoryComparison,
        compare_with_theory,
        models_of_npz,
        models_of_runs,
    )
    from fltheory.sim.theory.exact import TheoryPlan, plan_theory
    from fltheory.sim.theory.plot import overlay_png
    from fltheory.sim.theory.rules import (
        LIMIT_RULES,
        NO_LIMIT,
        LimitRule,
        RuleContext,
        register_limit_rule,
    )

__all__ = [
    "LIMIT_RULES",
    "NO_LIMIT",
    "LimitRule",
    "RuleContext",
    "TheoryComparison",
    "TheoryPlan",
    "compare_with_theory",
    "models_of_npz",
    "models_of_runs",
    "overlay_png",
    "plan_theory",
    "register_limit_rule",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.sim.theory.compare": (
            "TheoryComparison",
            "compare_with_theory",
            "models_of_npz",
            "models_of_runs",
        ),
        "fltheory.sim.theory.exact": ("TheoryPlan", "plan_theory"),
        "fltheory.sim.theory.plot": ("overlay_png",),
        "fltheory.sim.theory.rules": (
            "LIMIT_RULES",
            "NO_LIMIT",
            "LimitRule",
            "RuleContext",
            "register_limit_rule",
        ),
    },
)
