"""A recorded availability trace, replayed in every repetition."""

from pathlib import Path

from pydantic import Field

from fltheory.config import Strict
from fltheory.sim.availability import TraceReplay
from fltheory.sim.availability_io import load_trace
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext, Built


class TraceParams(Strict):
    """Parameters of :class:`~fltheory.sim.availability.TraceReplay`."""

    path: str = Field(description="rounds × clients 0/1 trace, .csv or .npy (relative to config)")

    def size(self, base: Path) -> int | None:
        """N, the columns of the trace."""
        return int(load_trace(base / self.path).shape[1])


@AVAILABILITY.register("trace", params=TraceParams)
def build_trace(params: TraceParams, ctx: AvailabilityContext) -> Built:
    """The first T rounds of a recorded (T', N) trace, identical in every repetition."""
    return TraceReplay(load_trace(ctx.base / params.path)), {}
