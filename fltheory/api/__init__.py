"""The Python API of the five things the CLI does, each returning the record the CLI prints.

===========================  ==============================  ========================
function                     returns                         CLI
===========================  ==============================  ========================
:func:`chain_report`         :class:`ChainReport`            ``fltheory chain``
:func:`bound_report`         :class:`BoundReport`            ``fltheory bound``
:func:`optimal_weights`      :class:`WeightsReport`          ``fltheory optimize-q``
:func:`aggregation_limit`    :class:`LimitReport`            ``fltheory limit``
:func:`simulate`             :class:`SimulationReport`       ``fltheory simulate``
===========================  ==============================  ========================

Each record's ``to_dict()`` is the command's ``--json`` object, each of its keys an attribute
of the record, and ``str(record)`` a readable table. Every function takes the availability as
an :class:`~fltheory.markov.AvailabilityChain`, an ``[availability]`` table (a dict, the
vocabulary of ``docs/plugins.md``) or a file (:func:`availability_setting`). These names are
also attributes of :mod:`fltheory` itself; each module loads on first use.
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.api.availability import AvailabilitySetting, availability_setting
    from fltheory.api.bounds import BoundReport, bound_report
    from fltheory.api.chain import ChainReport, chain_report
    from fltheory.api.limit import LimitReport, aggregation_limit
    from fltheory.api.simulation import SimulationReport, simulate
    from fltheory.api.weights import WeightsReport, optimal_weights

__all__ = [
    "AvailabilitySetting",
    "BoundReport",
    "ChainReport",
    "LimitReport",
    "SimulationReport",
    "WeightsReport",
    "aggregation_limit",
    "availability_setting",
    "bound_report",
    "chain_report",
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
    },
)
