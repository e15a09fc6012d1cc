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

Each record's ``to_dict()`` is the command's ``--json`` object. All ten names are also
attributes of :mod:`fltheory` itself; each module loads on first use.
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.api.bounds import BoundReport, bound_report
    from fltheory.api.chain import ChainReport, chain_report
    from fltheory.api.limit import LimitReport, aggregation_limit
    from fltheory.api.simulation import SimulationReport, simulate
    from fltheory.api.weights import WeightsReport, optimal_weights

__all__ = [
    "BoundReport",
    "ChainReport",
    "LimitReport",
    "SimulationReport",
    "WeightsReport",
    "aggregation_limit",
    "bound_report",
    "chain_report",
    "optimal_weights",
    "simulate",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.api.bounds": ("BoundReport", "bound_report"),
        "fltheory.api.chain": ("ChainReport", "chain_report"),
        "fltheory.api.limit": ("LimitReport", "aggregation_limit"),
        "fltheory.api.simulation": ("SimulationReport", "simulate"),
        "fltheory.api.weights": ("WeightsReport", "optimal_weights"),
    },
)
