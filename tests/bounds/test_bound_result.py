"""BoundResult: holds/vacuous semantics and JSON output."""

import json
import math

import pytest

from fltheory.bounds.result import BoundResult, mark_vacuous
from fltheory.cli.output import emit_json


def test_holds_compares_exact_with_value_up_to_rounding():
    assert BoundResult.from_value(1.0, "eq. 11", exact=1.0 + 1e-12).holds is True
    assert BoundResult.from_value(1.0, "eq. 11", exact=1.0 + 1e-6).holds is False
    assert BoundResult.from_value(0.0, "eq. 11", exact=1e-14).holds is True
    assert BoundResult.from_value(0.0, "eq. 11", exact=1e-9).holds is False
    assert BoundResult.from_value(2.0, "eq. 11").holds is None
    assert BoundResult.from_log(math.inf, "eq. 11", exact=1e300).holds is True


def test_log_and_value_agree_and_overflow_keeps_the_log():
    r = BoundResult.from_log(math.log(3.5), "eq. 13")
    assert r.value == pytest.approx(3.5)
    big = BoundResult.from_log(1e4, "eq. 13")
    assert big.value == math.inf and big.log_value == 1e4
    assert BoundResult.from_value(0.0, "eq. 15").log_value == -math.inf


def test_vacuous_against_a_trivial_bound():
    r = BoundResult.from_value(5.0, "eq. 13")
    mark_vacuous(r, 4.0)
    assert r.vacuous is True and r.trivial == 4.0
    mark_vacuous(r, 6.0)
    assert r.vacuous is False
    mark_vacuous(r, None)
    assert r.vacuous is None
    inf = BoundResult.from_log(math.inf, "eq. 11")
    mark_vacuous(inf, None)
    assert inf.vacuous is True


def test_to_dict_is_json_serialisable(capsys):
    r = BoundResult.from_log(
        1e4, "eq. 13", terms={"a": math.inf, "b": 1.0}, log_terms={"a": 1e4, "b": 0.0},
        exact=None, conditions=["T ≥ T_P fails"],
    )  # fmt: skip
    emit_json(r.to_dict())
    out = json.loads(capsys.readouterr().out)
    assert out["value"] is None and out["log_value"] == 1e4
    assert out["terms"] == {"a": None, "b": 1.0} and out["conditions"] == ["T ≥ T_P fails"]
    assert out["holds"] is None
