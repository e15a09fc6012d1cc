"""Regressions for three engine defects found while registering the FedPBC/FedAR/INFOCOM claims:
shrinking could leave the space (rounding onto an open end), rounding all parameters at once
failed as soon as one of them hit an open end, and a violation found by hypothesis in its last
evaluations was reported as an error (hypothesis's replay saw the exhausted budget)."""

import numpy as np

from fltheory.claims import Claim, Integer, Real, Source, Space, falsify
from fltheory.claims.falsifier import shrink


def _claim(label, space, margin, **kw):
    return Claim(f"cafed:regression-{label}", Source("cafed", "§test", label), label, space,
                 margin, **kw)  # fmt: skip


def test_valid_checks_every_range():
    space = Space([Integer("n", 1, 3), Real("x", 0.0, 1.0), Real("v", 0.0, 2.0, size="n",
                                                                 closed=(True, True))])  # fmt: skip
    assert space.valid({"n": 2, "x": 0.5, "v": np.array([0.0, 2.0])})
    assert not space.valid({"n": 2, "x": 1.0, "v": np.array([0.0, 2.0])})  # open end
    assert not space.valid({"n": 4, "x": 0.5, "v": np.zeros(4)})  # integer out of range
    assert not space.valid({"n": 2, "x": 0.5, "v": np.array([0.0, 2.5])})
    assert not space.valid({"n": 2, "x": 0.5, "v": np.zeros(3)})  # length ≠ n


def test_shrunk_counterexample_stays_in_the_open_interval():
    edge = _claim("edge", Space([Real("x", 0.0, 1.0)]), lambda i: 1 - i["x"] - 1e-7)
    verdict = falsify(edge, budget=3000, seed=1)
    assert verdict.verdict == "refuted"
    assert 1 - 1e-7 < verdict.instance["x"] < 1.0


def test_parameters_are_also_rounded_one_at_a_time():
    claim = _claim(
        "round", Space([Real("x", 0.0, 1.0), Real("y", 0.0, 10.0)]),
        lambda i: 0.9999999 - i["x"],
    )  # fmt: skip
    inst = {"x": 0.999999937, "y": 3.14159265}
    small = shrink(claim, inst, lambda i: claim.margin(i) < 0, 600)
    assert small["y"] == 3.0  # all-at-once rounding would keep 3.1415927 (x needs 8 digits)
    assert 0.9999999 < small["x"] < 1.0


def test_a_violation_found_in_the_last_evaluations_is_refuted_not_an_error():
    budget, calls = 40, {"n": 0, "bad": None}

    def margin(inst):
        calls["n"] += 1
        if calls["n"] == budget:  # the very last evaluation, inside hypothesis's phase
            calls["bad"] = inst["x"]
        return -1.0 if inst["x"] == calls["bad"] else 1.0

    verdict = falsify(_claim("late", Space([Real("x", 0.0, 1.0)]), margin), budget=budget)
    assert verdict.verdict == "refuted" and verdict.phase == "hypothesis", verdict
