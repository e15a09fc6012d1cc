"""The seeded learning-rate grid search (App. G1-B(c)): it finds a planted optimum, is
deterministic in its seed, never tunes on the evaluation's draws, caches per config hash, and
drives ``cafed:table2`` and ``cafed:fig1a --setup grid`` end to end."""

import json
from typing import ClassVar

import numpy as np
import pytest

from fltheory.cli.app import main
from fltheory.experiments.catalog.common import TABLE2
from fltheory.experiments.grid import (
    APPENDIX_G,
    STORE_FILE,
    Grid,
    GridPoint,
    SimulatorObjective,
    cached_grid_search,
    caching,
    grid_search,
    remembering,
    select,
    tuning_seed,
)
from fltheory.rng import generator
from fltheory.sweep import Store

PLANTED = (0.1, 3.0)


def planted(noise: float):
    """Score = −(log10 η + 1)² − (η̄ − 3)²/10 + noise: best at (0.1, 3) by construction."""

    def evaluate(points, seed, repetitions):
        rng = generator(seed, "test/planted")
        out = {}
        for p in points:
            clean = -((np.log10(p.lr) + 1) ** 2) - (p.server_lr - 3) ** 2 / 10
            out[p] = clean + noise * rng.standard_normal(repetitions)
        return out

    return evaluate


def test_the_appendix_grids_are_the_papers():
    # P2:1584: η ∈ {2, 1, .3, .1, .03, .01}; η̄ ∈ {5..0.1} (MNIST, CIFAR), {8..1} (LEAF).
    assert APPENDIX_G["synthetic"].local == (2.0, 1.0, 0.3, 0.1, 0.03, 0.01)
    assert APPENDIX_G["synthetic"].server == tuple(float(v) for v in range(8, 0, -1))
    assert APPENDIX_G["mnist"].server == (5.0, 4.0, 3.0, 2.0, 1.0, 0.3, 0.1)
    assert len(APPENDIX_G["cifar10"].pairs()) == 42
    # Table II's pairs are inside the grids (the paper's claim that they are its argmax).
    for data, table in TABLE2.items():
        assert all(pair in APPENDIX_G[data].pairs() for pair in table.values()), data


def test_the_grid_picks_the_planted_optimum():
    result = grid_search(
        planted(0.01), ("a", "b"), APPENDIX_G["synthetic"], seed=3, purpose="t", repetitions=3
    )
    assert result.selected() == {"a": PLANTED, "b": PLANTED}
    assert len(result.scores["a"]) == 48 and result.scores["a"][PLANTED].shape == (3,)


def test_the_extra_pairs_are_searched_too():
    grid = Grid((2.0, 0.01), (8.0, 1.0))
    assert grid_search(planted(0), ("a",), grid, seed=0, purpose="t", repetitions=2).selected() == {
        "a": (0.01, 1.0)
    }
    found = grid_search(
        planted(0), ("a",), grid, seed=0, purpose="t", repetitions=2, extra=[PLANTED]
    )
    assert found.selected() == {"a": PLANTED} and len(found.scores["a"]) == 5


def test_selection_rules():
    diverged = np.array([0.9, np.nan])
    assert select({(2.0, 1.0): diverged, (1.0, 1.0): np.array([0.1, 0.1])}) == (1.0, 1.0)
    tie = np.array([0.5, 0.5])
    assert select({(1.0, 1.0): tie, (0.1, 1.0): tie}) == (1.0, 1.0)


def test_same_seed_same_selection_and_tuning_never_uses_the_evaluation_seed():
    noisy = planted(0.5)  # noise large enough for the selection to depend on the draws
    runs = [
        grid_search(noisy, ("a",), APPENDIX_G["mnist"], seed=s, purpose="t", repetitions=2)
        for s in (0, 0, 1)
    ]
    assert runs[0].selected() == runs[1].selected()
    assert runs[0].tuning_seed == runs[1].tuning_seed != runs[2].tuning_seed
    for pair, values in runs[0].scores["a"].items():
        np.testing.assert_array_equal(values, runs[1].scores["a"][pair])
    assert not np.array_equal(runs[0].scores["a"][PLANTED], runs[2].scores["a"][PLANTED])
    # Keyed by (seed, "grid/<purpose>"): a different purpose is a different stream.
    assert tuning_seed(0, "t") != tuning_seed(0, "u")
    assert all(tuning_seed(s, "t") != s for s in range(50))


class Counting(SimulatorObjective):
    """The planted objective behind the simulator's interface, counting its calls."""

    calls: ClassVar[list[int]] = []

    def __call__(self, points, seed, repetitions):
        self.calls.append(seed)
        return planted(0.1)(points, seed, repetitions)


def test_the_cache_is_keyed_by_the_config_hash(tmp_path):
    base = {"run": {"rounds": 5}, "algorithms": [{"name": "a"}]}
    objective = Counting(base)
    Counting.calls.clear()
    grid = Grid((1.0, 0.1), (3.0, 1.0))
    kwargs = {"seed": 0, "purpose": "t", "repetitions": 2}
    with caching(tmp_path) as done:
        first = cached_grid_search(objective, ("a",), grid, **kwargs)
        again = cached_grid_search(objective, ("a",), grid, **kwargs)
    assert len(Counting.calls) == 2  # one batch per (algorithm, η)
    assert len(done) == 1  # the same search, recorded once
    assert [p.name for p in tmp_path.iterdir()] == [STORE_FILE]
    with Store(tmp_path / STORE_FILE) as store:
        assert len(store) == 4 and {r.seed for r in store.rows()} == {first.tuning_seed}
    assert again.selected() == first.selected() == {"a": PLANTED}
    np.testing.assert_array_equal(again.scores["a"][PLANTED], first.scores["a"][PLANTED])
    with caching(tmp_path):  # another configuration: another key, computed again
        other = cached_grid_search(Counting({**base, "run": {"rounds": 6}}), ("a",), grid, **kwargs)
    assert other.key != first.key and len(Counting.calls) == 4
    cached_grid_search(objective, ("a",), grid, **kwargs)  # no cache directory: computed
    assert len(Counting.calls) == 5


def test_a_remembered_search_is_scored_once_and_stored_by_the_locked_run(tmp_path):
    """A reproduction's preflight and folder identity (the cache read only: the folder is not
    locked yet) and its run (cache written) build a grid setup's config three times: inside
    :func:`remembering` each batch is scored once, and the run stores every point."""
    objective = Counting({"run": {"rounds": 5}, "algorithms": [{"name": "a"}]})
    Counting.calls.clear()
    grid = Grid((1.0, 0.1), (3.0, 1.0))
    kwargs = {"seed": 0, "purpose": "t", "repetitions": 2}
    cache = tmp_path / "out" / "grid"
    with remembering():
        with caching(cache, readonly=True):  # no store yet: nothing created
            first = cached_grid_search(objective, ("a",), grid, **kwargs)
            cached_grid_search(objective, ("a",), grid, **kwargs)
        assert not (tmp_path / "out").exists() and len(Counting.calls) == 1  # one batch
        with caching(cache) as done:
            again = cached_grid_search(objective, ("a",), grid, **kwargs)
        assert len(Counting.calls) == 1 and len(done) == 1
        assert again.scores["a"][PLANTED].tolist() == first.scores["a"][PLANTED].tolist()
    with Store(cache / STORE_FILE) as store:
        assert len(store) == 4
    stamp = (cache / STORE_FILE).stat().st_mtime_ns
    with remembering(), caching(cache, readonly=True):  # --resume: read, never written
        cached_grid_search(objective, ("a",), grid, **kwargs)
        cached_grid_search(objective, ("a",), grid, extra=[(0.5, 1.0)], **kwargs)  # new: scored
    assert len(Counting.calls) == 2 and (cache / STORE_FILE).stat().st_mtime_ns == stamp
    with Store(cache / STORE_FILE) as store:
        assert len(store) == 4


def test_a_diverged_score_round_trips_through_the_store_as_nan(tmp_path):
    class Diverging(SimulatorObjective):
        def __call__(self, points, seed, repetitions):
            return {p: np.array([0.5, np.nan]) for p in points}

    objective, grid = Diverging({"algorithms": [{"name": "a"}]}), Grid((1.0,), (1.0,))
    for _ in range(2):  # computed, then read back
        with caching(tmp_path):
            result = cached_grid_search(objective, ("a",), grid, seed=0, purpose="t", repetitions=2)
        values = result.scores["a"][(1.0, 1.0)]
        assert values[0] == 0.5 and np.isnan(values[1])


KILLED = """
import os, signal, sys
from pathlib import Path
import numpy as np
from fltheory.experiments.grid import Grid, SimulatorObjective, cached_grid_search, caching

class Dying(SimulatorObjective):
    def __call__(self, points, seed, repetitions):
        if points[0].lr == 0.1:  # the second batch: killed while scoring it
            os.kill(os.getpid(), signal.SIGKILL)
        return {p: np.full(repetitions, p.lr + p.server_lr) for p in points}

with caching(Path(sys.argv[1])):
    cached_grid_search(Dying({"algorithms": [{"name": "a"}]}), ("a",),
                       Grid((1.0, 0.1, 0.01), (3.0, 1.0)), seed=0, purpose="t", repetitions=2)
"""


def test_a_killed_and_restarted_search_skips_the_finished_points(tmp_path):
    """kill -9 while the second batch (η = 0.1) is scored; the restart scores only the points
    not stored (η = 0.1 and 0.01) and gives the scores of an uninterrupted search."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", KILLED, str(tmp_path / "k")], env=env)
    assert done.returncode == -9
    with Store(tmp_path / "k" / STORE_FILE) as store:
        assert sorted(r.swept["lr"] for r in store.rows()) == [1.0, 1.0]

    scored: list[tuple[float, float]] = []

    class Sum(SimulatorObjective):
        def __call__(self, points, seed, repetitions):
            scored.extend((p.lr, p.server_lr) for p in points)
            return {p: np.full(repetitions, p.lr + p.server_lr) for p in points}

    objective, grid = Sum({"algorithms": [{"name": "a"}]}), Grid((1.0, 0.1, 0.01), (3.0, 1.0))
    kwargs = {"seed": 0, "purpose": "t", "repetitions": 2}
    with caching(tmp_path / "k"):
        resumed = cached_grid_search(objective, ("a",), grid, **kwargs)
    assert scored == [(0.1, 3.0), (0.1, 1.0), (0.01, 3.0), (0.01, 1.0)]
    scored.clear()
    with caching(tmp_path / "fresh"):
        fresh = cached_grid_search(objective, ("a",), grid, **kwargs)
    assert len(scored) == 6 and resumed.key == fresh.key
    assert resumed.selected() == fresh.selected() == {"a": (1.0, 3.0)}
    for pair, values in fresh.scores["a"].items():
        np.testing.assert_array_equal(resumed.scores["a"][pair], values)
    with Store(tmp_path / "k" / STORE_FILE) as store:
        assert len(store) == 6


def test_batches_score_like_the_whole_grid():
    """The simulator scores a point alike in a batch of its (algorithm, η) and in the whole
    grid (one comparison each: same tuning draws), so a resumed search is unchanged."""
    base = {
        "device": "cpu",
        "run": {"rounds": 4, "local_steps": 2, "batch_size": 4, "eval_every": 2},
        "problem": {"kind": "synthetic_leaf", "n_clients": 5, "gamma": 0.5, "delta": 0.5},
        "availability": {"kind": "bernoulli", "p": 0.7},
        "algorithms": [{"name": "unbiased"}],
    }
    objective = SimulatorObjective(base)
    points = [GridPoint("unbiased", lr, slr) for lr in (0.3, 0.03) for slr in (1.0, 2.0)]
    whole = objective(points, 5, 2)
    for p in points:
        np.testing.assert_array_equal(objective([p], 5, 2)[p], whole[p])


def test_the_simulator_objective_is_deterministic():
    base = {
        "device": "cpu",
        "run": {"rounds": 4, "local_steps": 1, "batch_size": 8, "eval_every": 2},
        "problem": {"kind": "synthetic_leaf", "n_clients": 6, "gamma": 0.5, "delta": 0.5},
        "availability": {"kind": "bernoulli", "p": 0.8},
        "algorithms": [{"name": "unbiased"}],
    }
    objective = SimulatorObjective(base)
    points = [GridPoint("unbiased", 0.1, 1.0), GridPoint("unbiased", 0.01, 1.0)]
    a, b = objective(points, 7, 2), objective(points, 7, 2)
    for p in points:
        assert a[p].shape == (2,)
        np.testing.assert_array_equal(a[p], b[p])
    assert objective.tables(points, 7)["algorithms"][1] == {
        "name": "unbiased",
        "lr": 0.01,
        "server_lr": 1.0,
        "label": "unbiased|0.01|1",
    }


def test_table2_quick_end_to_end_and_a_rerun_reuses_the_grid(capsys, tmp_path):
    out = tmp_path / "t2"
    argv = ["reproduce", "cafed:table2", "--out", str(out), "--json"]
    assert main(argv) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["mode"] == "quick" and record["seeds"] == 2
    assert sorted(p.name for p in (out / "grid").iterdir()) == [STORE_FILE]
    with Store(out / "grid" / STORE_FILE) as store:
        assert len(store) == 2 * 6 + 1  # the grid's points and the reference acc(0) run
    assert len(record["grid"]) == 1  # the acc(0) helper run is not a search of its own
    search = record["grid"][0]
    assert search["criterion"] == "acc_end" and search["tuning_seed"] != 0
    claims = [c["claim"] for c in record["checks"]]
    for alg in ("ca_fed", "adafed"):
        lr, slr = TABLE2["synthetic"][alg]
        trains = next(c for c in record["checks"] if c["claim"].startswith(f"{alg}: Table II"))
        assert f"{lr:g}/{slr:g}" in trains["claim"] and trains["role"] == "primary"
        chosen = next(c for c in record["checks"] if c["claim"].startswith(f"{alg}: grid-selected"))
        best = search["selected"][alg]
        assert chosen["measured"]["selected"] == f"{best[0]:g}/{best[1]:g}"
        assert chosen["paper"] == f"{lr:g}/{slr:g}"
    assert len(claims) == 4
    rows = [r.split(",") for r in (out / "grid.csv").read_text().splitlines()[1:]]
    assert rows[0] == ["algorithm", "lr", "server_lr", "acc_end_mean", "acc_end_sd", "repetitions"]
    assert len(rows) - 1 == 2 * 6  # 2 algorithms × (4 corners + both Table II pairs)
    assert (out / "grid.png").read_bytes()[:4] == b"\x89PNG"
    summary = (out / "summary.md").read_text()
    assert f"tuning draws of seed {search['tuning_seed']}" in summary
    # The argmax of the CSV is the selection reported.
    ca = [r for r in rows[1:] if r[0] == "ca_fed"]
    top = max(ca, key=lambda r: float(r[3]))
    assert [float(top[1]), float(top[2])] == search["selected"]["ca_fed"]
    # A re-run over the result reads the cached grid (same selection, same scores).
    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "grid").iterdir()}
    assert main([*argv, "--overwrite"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["grid"] == record["grid"] and again["checks"] == record["checks"]
    assert {p.name: p.stat().st_mtime_ns for p in (out / "grid").iterdir()} == stamps


@pytest.mark.slow
def test_fig1a_grid_setup_runs_at_the_selected_rates(capsys, tmp_path):
    out = tmp_path / "g"
    argv = ["reproduce", "cafed:fig1a", "--setup", "grid", "--seeds", "2", "--out", str(out)]
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    selected = record["grid"][0]["selected"]
    assert set(selected) == {"ca_fed", "adafed", "unbiased"}
    for table in record["config"]["algorithms"]:
        assert [table["lr"], table["server_lr"]] == selected[table["name"]]
    assert record["checks"]


def test_authors_base_finds_f3ast_by_its_label():
    # The authors' setup runs F3AST as "f3ast_code" labelled "f3ast": the grid's points name
    # the algorithm by label (KeyError 'f3ast' in cafed:table2 --setup authors --full before).
    from fltheory.experiments.catalog.cafed_fig1 import TABLE2, fig1a_config
    from fltheory.experiments.catalog.common import to_authors
    from fltheory.experiments.grid import GridPoint

    base = to_authors(fig1a_config(10, ("adafed", "f3ast"), 5, TABLE2["synthetic"]))
    tables = SimulatorObjective(base).tables([GridPoint("f3ast", 0.01, 0.1)], seed=3)
    (entry,) = tables["algorithms"]
    assert entry["name"] == "f3ast_code" and (entry["lr"], entry["server_lr"]) == (0.01, 0.1)
    assert entry["label"] == "f3ast|0.01|0.1"
