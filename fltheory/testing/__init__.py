"""Hypothesis strategies for users' own property tests (also gathered in
:mod:`fltheory.testing.strategies`): chains (irreducible, rational, defective, reducible,
periodic, product, clustered), two-state parameters, problems, step sizes, chain constants,
aggregation rules, link probabilities and weight-optimisation instances; and the Hypothesis
profiles ``ci`` and ``thorough`` for a ``conftest.py`` (:func:`register_profiles`). Every
strategy, its parameters and its boundary behaviour: ``docs/testing.md``.

>>> from hypothesis import given, settings
>>> from fltheory.testing import product_chains
>>> @settings(max_examples=10, derandomize=True, database=None)
... @given(product_chains(max_clients=3))
... def test_lambda(chain):
...     assert 0.5 <= chain.lam < 1.0  # λ(P) = (λ̄₂ + 1)/2 (eq. 229)
>>> test_lambda()
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.testing.chains import (
        defective_chains,
        irreducible_chains,
        periodic_chains,
        rational_chains,
        reducible_chains,
    )
    from fltheory.testing.limits import aggregations, probability_vectors
    from fltheory.testing.problems import chain_constants, power_law_steps, quadratic_problems
    from fltheory.testing.product import (
        availabilities,
        clustered_chains,
        product_chains,
        two_state_params,
    )
    from fltheory.testing.profiles import register_profiles
    from fltheory.testing.weights import weight_instances

__all__ = [
    "aggregations",
    "availabilities",
    "chain_constants",
    "clustered_chains",
    "defective_chains",
    "irreducible_chains",
    "periodic_chains",
    "power_law_steps",
    "probability_vectors",
    "product_chains",
    "quadratic_problems",
    "rational_chains",
    "reducible_chains",
    "register_profiles",
    "two_state_params",
    "weight_instances",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.testing.chains": (
            "defective_chains",
            "irreducible_chains",
            "periodic_chains",
            "rational_chains",
            "reducible_chains",
        ),
        "fltheory.testing.limits": ("aggregations", "probability_vectors"),
        "fltheory.testing.problems": ("chain_constants", "power_law_steps", "quadratic_problems"),
        "fltheory.testing.profiles": ("register_profiles",),
        "fltheory.testing.product": (
            "availabilities",
            "clustered_chains",
            "product_chains",
            "two_state_params",
        ),
        "fltheory.testing.weights": ("weight_instances",),
    },
)
