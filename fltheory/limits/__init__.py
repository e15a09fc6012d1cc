"""Exact limits of FedAvg-type aggregation on quadratics (FedPBC paper Prop. 1 and beyond).

* :class:`Aggregation` — the server rule, CA-Fed eq. 3 (FedAvg by default);
* :func:`bernoulli_limit` — independent Bernoulli links (Proposition 1 when FedAvg), with
  :func:`fedavg_weights` (:class:`FedAvgWeights`), the weights of Proposition 1;
* :func:`chain_limit`, :func:`markov_limit`, :func:`product_markov_limit` — Markov
  availability: any :class:`~fltheory.markov.AvailabilityChain`, a dense P, two-state clients;
  stationary mean and E‖x − x̄‖²;
* :func:`bernoulli_quadratic_limit`, :func:`markov_quadratic_limit`,
  :func:`quadratic_optimum` — general quadratics (objective inconsistency);
* :func:`fedpbc_limit` (:class:`FedPBCLimit`), :func:`mixing_rho`, :func:`lemma1_bound` —
  FedPBC's mixing matrix, its ρ (eq. 3) and Lemma 1;
* :func:`local_gain` — γ = 1 − (1 − η)^s of s exact local steps; :class:`LimitResult` — what
  the limits return; the defaults :data:`DEFAULT_LR`, :data:`DEFAULT_LOCAL_STEPS`,
  :data:`DEFAULT_SERVER_LR`.

Modules, one job each: ``bernoulli``, ``quadrature`` (the certified Gauss rule behind it),
``subset_sum`` (the paper's form, exact/symbolic and float), ``poisson_binomial`` (an O(m²)
independent route), ``normalised``, ``aggregation``, ``markov``/``transition``,
``quadratic``, ``fedpbc``, ``local``, ``result``.

>>> from fltheory.limits import fedavg_weights
>>> fedavg_weights([0.5, 1.0]).weights.round(12).tolist()  # E[1{k∈A}/|A| | A ≠ ∅]
[0.25, 0.75]
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports
from fltheory.defaults import LOCAL_LR as DEFAULT_LR
from fltheory.defaults import LOCAL_STEPS as DEFAULT_LOCAL_STEPS
from fltheory.defaults import SERVER_LR as DEFAULT_SERVER_LR

if TYPE_CHECKING:
    from fltheory.limits.aggregation import Aggregation, bernoulli_limit
    from fltheory.limits.bernoulli import FedAvgWeights, fedavg_weights
    from fltheory.limits.fedpbc import FedPBCLimit, fedpbc_limit, lemma1_bound, mixing_rho
    from fltheory.limits.local import local_gain
    from fltheory.limits.markov import chain_limit, markov_limit, product_markov_limit
    from fltheory.limits.quadratic import (
        bernoulli_quadratic_limit,
        markov_quadratic_limit,
        quadratic_optimum,
    )
    from fltheory.limits.result import LimitResult

__all__ = [
    "DEFAULT_LOCAL_STEPS",
    "DEFAULT_LR",
    "DEFAULT_SERVER_LR",
    "Aggregation",
    "FedAvgWeights",
    "FedPBCLimit",
    "LimitResult",
    "bernoulli_limit",
    "bernoulli_quadratic_limit",
    "chain_limit",
    "fedavg_weights",
    "fedpbc_limit",
    "lemma1_bound",
    "local_gain",
    "markov_limit",
    "markov_quadratic_limit",
    "mixing_rho",
    "product_markov_limit",
    "quadratic_optimum",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.limits.aggregation": ("Aggregation", "bernoulli_limit"),
        "fltheory.limits.bernoulli": ("FedAvgWeights", "fedavg_weights"),
        "fltheory.limits.fedpbc": ("FedPBCLimit", "fedpbc_limit", "lemma1_bound", "mixing_rho"),
        "fltheory.limits.local": ("local_gain",),
        "fltheory.limits.markov": ("chain_limit", "markov_limit", "product_markov_limit"),
        "fltheory.limits.quadratic": (
            "bernoulli_quadratic_limit",
            "markov_quadratic_limit",
            "quadratic_optimum",
        ),
        "fltheory.limits.result": ("LimitResult",),
    },
)
