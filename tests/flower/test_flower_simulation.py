"""Flower's own simulation engine (Ray, CPU, offline) runs fltheory's strategies and ends on
the model of fltheory's engine on the same fixed trace, to 1e-10 in float64.

One simulation (N nodes) runs every strategy in turn from one ServerApp; each is compared with
the vectorised engine (fltheory.sim.compare.Setup), an independent implementation of the round
loop (batched local SGD, no messages). Run with ``make test-flower``.
"""

import time

import numpy as np
import pytest

flwr = pytest.importorskip("flwr", reason="needs the flower extra: pip install 'fltheory[flower]'")

from _federation import SCHEDULE, SERVER, STEPS, D, N, T, engine_final, problem, trace  # noqa: E402

from fltheory.sim.algorithms import (  # noqa: E402
    F3AST,
    MIFA,
    AdaFed,
    CAFed,
    FedAR,
    FedAvg,
    FedPBC,
    FedVARP,
    MoreAvailable,
    Unbiased,
)
from fltheory.sim.availability import TraceReplay  # noqa: E402

pytestmark = [pytest.mark.flower, pytest.mark.slow]

MEMBERS = np.array([True, True, True, False, False])

#: name → (strategy class name, its rule parameters, oracle availability?, the engine's rule)
CASES = {
    "fedavg": ("FedAvgStrategy", {}, True, FedAvg()),
    "unbiased": ("UnbiasedStrategy", {}, True, Unbiased()),
    "unbiased_estimated": ("UnbiasedStrategy", {}, False, Unbiased()),
    "ca_fed": ("CAFedStrategy", {"kappa2": 0.25}, False, CAFed(kappa2=0.25)),
    "ca_fed_oracle": ("CAFedStrategy", {"kappa2": 0.25, "beta": 0.5}, True, None),
    "fedpbc": ("FedPBCStrategy", {}, True, FedPBC()),
    "fedpbc_active": ("FedPBCStrategy", {"compute": "active"}, True, FedPBC(compute="active")),
    "adafed": ("AdaFedStrategy", {}, True, AdaFed()),
    "more_available": ("MoreAvailableStrategy", {"members": MEMBERS}, True, None),
    "f3ast": ("F3ASTStrategy", {"k": 2, "beta": 0.1}, True, F3AST(k=2, beta=0.1)),
    "fedar": ("FedARStrategy", {"cutoff_scale": 1.0}, True, FedAR(cutoff_scale=1.0)),
    "mifa": ("MIFAStrategy", {}, True, MIFA()),
    "fedvarp": ("FedVARPStrategy", {}, True, FedVARP()),
}
ENGINE_RULES = {
    "ca_fed_oracle": CAFed(kappa2=0.25, beta=0.5),
    "more_available": MoreAvailable(members=MEMBERS),
}
BACKEND = {
    "client_resources": {"num_cpus": 1},
    "init_args": {"num_cpus": 2, "include_dashboard": False, "log_to_driver": False},
}


@pytest.fixture(scope="module")
def flower_runs() -> dict[str, tuple[np.ndarray, float]]:
    """name → (Flower's final server model, seconds per round)."""
    from flwr.app import ArrayRecord
    from flwr.serverapp import ServerApp
    from flwr.simulation import run_simulation

    import fltheory.flower as ff

    pb, tr = problem(), trace()
    process = TraceReplay(tr)
    driver = ff.AvailabilityDriver.from_trace(tr)
    out: dict[str, tuple[np.ndarray, float]] = {}
    app = ServerApp()

    @app.main()
    def main(grid, context):
        for name, (cls, params, oracle, _) in CASES.items():
            known = {"pi": process.pi, "lambda2": process.lambda2} if oracle else {}
            strategy = getattr(ff, cls)(
                alpha=pb.alpha,
                schedule=SCHEDULE,
                local_steps=STEPS,
                server=SERVER,
                driver=driver,
                run=name,
                **known,
                **params,
            )
            start = time.perf_counter()
            result = strategy.start(grid, ArrayRecord([np.zeros(D)]), num_rounds=T)
            seconds = (time.perf_counter() - start) / T
            out[name] = (result.arrays.to_numpy_ndarrays()[0], seconds)
        # no driver: every node is asked and A_t is who answers (here: everyone, every round)
        observed = ff.UnbiasedStrategy(
            alpha=pb.alpha, schedule=SCHEDULE, local_steps=STEPS, server=SERVER, run="observed"
        )
        result = observed.start(grid, ArrayRecord([np.zeros(D)]), num_rounds=T)
        out["observed"] = (result.arrays.to_numpy_ndarrays()[0], 0.0)

    run_simulation(app, ff.problem_client_app(pb), num_supernodes=N, backend_config=BACKEND)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_flower_ends_on_the_engine_model(flower_runs, name):
    _, _, oracle, rule = CASES[name]
    engine = engine_final(rule or ENGINE_RULES[name], "oracle" if oracle else "bayesian")
    flower, _ = flower_runs[name]
    assert flower.dtype == np.float64
    assert np.abs(engine).max() > 0.1  # the model moved away from w0 = 0
    np.testing.assert_allclose(flower, engine, rtol=0, atol=1e-10)


def test_without_a_driver_the_clients_that_answer_are_the_active_set(flower_runs):
    # π̂ is then estimated from rounds where everyone answered: the engine on an all-ones trace
    engine = engine_final(Unbiased(), "bayesian", np.ones((T, N), dtype=bool))
    np.testing.assert_allclose(flower_runs["observed"][0], engine, rtol=0, atol=1e-10)
    assert np.abs(engine - engine_final(Unbiased(), "bayesian")).max() > 1e-3


def test_the_rules_differ_on_this_trace(flower_runs):
    # agreement is not an accident of every rule ending at one point
    finals = [flower_runs[name][0] for name in ("fedavg", "unbiased", "ca_fed", "fedpbc")]
    gaps = [np.abs(a - b).max() for i, a in enumerate(finals) for b in finals[i + 1 :]]
    assert min(gaps) > 1e-3


def test_the_readme_example_is_the_shipped_one_and_runs():
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    example = root / "examples" / "flower_cafed.py"
    page = (root / "docs" / "flower.md").read_text()
    blocks = re.findall(r"^```py\n(.*?)^```", page, re.S | re.M)
    assert example.read_text() in blocks
    run = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=600, cwd=root
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "final model:" in run.stdout
