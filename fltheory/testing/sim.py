"""Hypothesis strategies for the simulator: round inputs of the weight rules, small problems."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from fltheory.testing.product import two_state_params


def simplex(n: int) -> st.SearchStrategy[np.ndarray]:
    """(n,) positive weights summing to 1 (target importance α)."""
    raw = arrays(float, (n,), elements=st.floats(0.05, 1.0, allow_nan=False))
    return raw.map(lambda a: a / a.sum())


@st.composite
def round_inputs(draw: st.DrawFn, max_reps: int = 3, max_clients: int = 9) -> dict:
    """One round of a weight rule: mask (R, N), alpha (N,), pi and lam2 (R, N), the loss gaps
    F̂ − F̂* ≥ 0 (R, N) and rates r (R, N) in (0, 1]."""
    reps = draw(st.integers(1, max_reps))
    n = draw(st.integers(2, max_clients))
    mask = draw(arrays(bool, (reps, n)))
    unit = st.floats(0.05, 1.0, allow_nan=False)
    return {
        "mask": mask,
        "alpha": draw(simplex(n)),
        "pi": draw(arrays(float, (reps, n), elements=unit)),
        "lam2": draw(arrays(float, (reps, n), elements=st.floats(-0.9, 0.99, allow_nan=False))),
        "gap": draw(arrays(float, (reps, n), elements=st.floats(0.0, 5.0, allow_nan=False))),
        "r": draw(arrays(float, (reps, n), elements=unit)),
    }


@st.composite
def two_state_populations(draw: st.DrawFn, max_clients: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """(π, λ₂) arrays of admissible two-state clients with π ∈ [0.05, 0.95]."""
    n = draw(st.integers(1, max_clients))
    pairs = [draw(two_state_params(min_pi=0.05)) for _ in range(n)]
    pi, lam2 = (np.array(v, dtype=float) for v in zip(*pairs, strict=True))
    return pi, np.minimum(lam2, 0.98)
