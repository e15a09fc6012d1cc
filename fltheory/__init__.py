"""fltheory: federated learning theory under heterogeneous, correlated client availability.

The five things the CLI does, as functions returning the record the CLI prints (its
``to_dict()`` is the command's ``--json`` object; see :mod:`fltheory.api`):

* :func:`chain_report` → :class:`ChainReport`: λ̄₂, λ(P), C_P, T_P of a chain (Lemma 16);
* :func:`bound_report` → :class:`BoundReport`: Theorems 1–3 for a problem file or setup;
* :func:`optimal_weights` → :class:`WeightsReport`: q* of problems (14) and (212);
* :func:`aggregation_limit` → :class:`LimitReport`: lim E[x_t] of FedAvg-type aggregation;
* :func:`simulate` → :class:`SimulationReport`: a simulated comparison from a config;
* :func:`make_report`: the report of ``fltheory report`` on a setting, written to a folder.

Each takes the availability as a chain object, an ``[availability]`` table (a dict) or a file
(:func:`availability_setting`, :class:`AvailabilitySetting`).

Your own algorithms, problems, availability processes, claims and experiments, in a module of
your own, join the registries with :func:`load_plugins` (the CLI's ``--plugin MODULE``; see
:mod:`fltheory.plugins`).

Chains to feed them: :class:`ProductChain`, :class:`MarkovChain`, :class:`ClusteredChain`
(every one an :class:`AvailabilityChain`) and :func:`ca_fed_population`. Refused input raises
:class:`FLTheoryError` (a ``ValueError``) with a one-line message.

Packages: ``markov`` (availability chains and their constants), ``problems``, ``bounds``,
``optimize``, ``limits``, ``sim``, ``claims``, ``config``, ``testing`` (hypothesis
strategies) and ``cli``. Every name loads on first use, so ``import fltheory`` stays cheap.

>>> import fltheory
>>> fltheory.chain_report(fltheory.ProductChain([0.9, 0.1], [0.5, 0.9])).lam
0.95
"""

from fltheory._exports import lazy_exports
from fltheory._version import __version__ as __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    from fltheory.api.availability import AvailabilitySetting, availability_setting
    from fltheory.api.bounds import BoundReport, bound_report
    from fltheory.api.chain import ChainReport, chain_report
    from fltheory.api.limit import LimitReport, aggregation_limit
    from fltheory.api.simulation import SimulationReport, simulate
    from fltheory.api.weights import WeightsReport, optimal_weights
    from fltheory.errors import FLTheoryError
    from fltheory.markov import (
        AvailabilityChain,
        ClusteredChain,
        MarkovChain,
        ProductChain,
        ca_fed_population,
    )
    from fltheory.plugins import load_plugins
    from fltheory.report.run import make_report

__all__ = [
    "AvailabilityChain",
    "AvailabilitySetting",
    "BoundReport",
    "ChainReport",
    "ClusteredChain",
    "FLTheoryError",
    "LimitReport",
    "MarkovChain",
    "ProductChain",
    "SimulationReport",
    "WeightsReport",
    "aggregation_limit",
    "availability_setting",
    "bound_report",
    "ca_fed_population",
    "chain_report",
    "load_plugins",
    "make_report",
    "optimal_weights",
    "simulate",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.api.availability": ("AvailabilitySetting", "availability_setting"),
        "fltheory.api.bounds": ("BoundReport", "bound_report"),
        "fltheory.api.chain": ("ChainReport", "chain_report"),
        "fltheory.api.limit": ("LimitReport", "aggregation_limit"),
        "fltheory.api.simulation": ("SimulationReport", "simulate"),
        "fltheory.api.weights": ("WeightsReport", "optimal_weights"),
        "fltheory.errors": ("FLTheoryError",),
        "fltheory.plugins": ("load_plugins",),
        "fltheory.report.run": ("make_report",),
        "fltheory.markov": (
            "AvailabilityChain",
            "ClusteredChain",
            "MarkovChain",
            "ProductChain",
            "ca_fed_population",
        ),
    },
)
