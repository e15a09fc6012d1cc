"""Regression: a violation that hypothesis finds in the last evaluations of the budget was
reported as an error (hypothesis replays the failing example to shrink it; with the budget
spent the replay returns without evaluating, and hypothesis raised Flaky)."""

from fltheory.claims import Claim, Real, Source, Space, falsify


def test_violation_found_on_the_last_evaluation_is_refuted():
    budget, state = 30, {"calls": 0, "bad": None}

    def margin(inst):
        state["calls"] += 1
        if state["calls"] == budget:  # the last evaluation: in the hypothesis phase
            state["bad"] = inst["x"]
        return -1.0 if inst["x"] == state["bad"] else 1.0

    claim = Claim(
        "cafed:flaky-demo", Source("cafed", "§test", "flaky"), "x is fine",
        Space([Real("x", 0.0, 1.0)]), margin,
    )  # fmt: skip
    verdict = falsify(claim, budget=budget)
    assert verdict.verdict == "refuted", verdict.message
    assert verdict.phase == "hypothesis" and verdict.instance == {"x": state["bad"]}
