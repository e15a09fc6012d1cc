"""Availability chains and their constants (CA-Fed ToN Sections II-A, III-D; Appendices B2, F).

* :class:`AvailabilityChain`: the one interface every chain implements (runtime-checkable).
* :class:`MarkovChain`: a dense finite chain (optionally mapping states to active clients), with
  GTH stationary distribution, λ̄₂, λ(P), Jordan data and the Lemma 16 constants C_P, T_P.
* :class:`ProductChain`: independent two-state clients, never building the 2^N × 2^N matrix.
* :class:`ClusteredChain`: clusters of clients sharing one two-state chain.
* :class:`ChainConstants`: what every chain hands to the bounds.
* :class:`MixingTimeBounds`: the Appendix F1 bounds on t_mix(ε), for every chain.
* :func:`ca_fed_population`: the population of Section V-A(a).
* :func:`estimate_availability`, :func:`running_estimates`: Section IV-B estimators.
* :func:`two_state_matrix`, :func:`two_state_params`, :func:`lambda2_range`: eqs. 236–238.
* :func:`load_chain`: a dense chain from a matrix file (.csv, .npy, .json) and its state map.

>>> from fltheory.markov import AvailabilityChain, ProductChain
>>> chain: AvailabilityChain = ProductChain([0.9, 0.1], [0.5, 0.9])
>>> chain.lam, chain.exclude([1]).lam
(0.95, 0.75)
"""

from fltheory.markov.chain import MarkovChain
from fltheory.markov.clustered import ClusteredChain
from fltheory.markov.constants import ChainConstants
from fltheory.markov.estimators import estimate_availability, running_estimates
from fltheory.markov.io import load_chain
from fltheory.markov.population import ca_fed_population
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain
from fltheory.markov.spectrum import MixingTimeBounds
from fltheory.markov.two_state import lambda2_range, two_state_matrix, two_state_params

__all__ = [
    "AvailabilityChain",
    "ChainConstants",
    "ClusteredChain",
    "MarkovChain",
    "MixingTimeBounds",
    "ProductChain",
    "ca_fed_population",
    "estimate_availability",
    "lambda2_range",
    "load_chain",
    "running_estimates",
    "two_state_matrix",
    "two_state_params",
]
