"""Hypothesis strategies for users' own property tests, gathered in one place.

Each strategy lives next to the concern it draws for (``chains``, ``product``, ``problems``,
``weights``, ``limits``); this module re-exports them so that one import suffices::

    from fltheory.testing.strategies import irreducible_chains, product_chains
"""

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
    "two_state_params",
    "weight_instances",
]
