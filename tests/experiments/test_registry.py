"""The experiment registry: every ID of issue 12 is registered with its source and the paper's
data; every runnable setup has a judge and configurations the simulator accepts."""

import re

import pytest

from fltheory.errors import InputError
from fltheory.experiments.data_sources import data_status
from fltheory.experiments.model import (
    FEATURES,
    MODES,
    SETUPS,
    Experiment,
    Number,
    SetupSpec,
    all_experiments,
    get,
    register,
)
from fltheory.experiments.runner import check_runnable, resolved_config
from fltheory.sim.config import build

#: The IDs the issue lists (issue 12, "IDs").
ISSUE_IDS = (
    "cafed:fig1a cafed:fig1b cafed:fig1c cafed:fig1d cafed:fig2a cafed:fig2b cafed:fig3 "
    "cafed:fig4a cafed:fig4b cafed:fig5a-c cafed:fig5d cafed:table2 cafed-infocom:fig1 "
    "cafed-infocom:fig2 cafed-infocom:fig3 cafed-infocom:table1"
).split()
#: At least these run today (issue 12's foundation).
RUNNABLE_NOW = (
    {("cafed:fig1a", "paper-table2"), ("cafed:table2", "paper")}
    | {
        (experiment_id, "paper")
        for experiment_id in (
            "cafed:fig1a",
            "cafed:fig1b",
            "cafed:fig1d",
            "cafed:fig2a",
            "cafed:fig2b",
            "cafed:fig3",
        )
    }
    | {(experiment_id, "authors") for experiment_id in ISSUE_IDS}
)
#: Setups whose configuration runs a grid search first (tested in test_grid.py).
GRID_SETUPS = {("cafed:fig1a", "grid"), ("cafed:fig1a", "authors-grid")}
WHERE = re.compile(r"(P[012]:\d+(-\d+)?|README)")


def test_every_issue_id_is_registered_and_nothing_else():
    # Issue 13's FedPBC/FedAR IDs are checked in test_catalog_fedpbc_fedar.py.
    cafed = [e.id for e in all_experiments() if e.id.startswith("cafed")]
    assert sorted(cafed) == sorted(ISSUE_IDS)


@pytest.mark.parametrize("experiment_id", ISSUE_IDS)
def test_source_and_paper_data(experiment_id):
    e = get(experiment_id)
    assert e.source.seed_file.split(" ")[0] in {
        "002_2f28135276b05638.txt",
        "001_4d8faa0e7730b5d7.txt",
    }
    assert WHERE.search(e.where), e.where
    first, last = e.source.lines  # the span of the lines it cites
    assert first <= last and str(first) in e.where and str(last) in e.where
    assert e.numbers or e.claims
    for item in (*e.numbers, *e.claims):
        assert WHERE.search(item.where), (experiment_id, item)
    for n in e.numbers:
        # A lost number says what survives instead.
        assert n.value is not None or n.note, (experiment_id, n.name)
    assert set(e.setups) >= set(SETUPS)
    for spec in e.setups.values():
        assert all(r in FEATURES for r in spec.requires)


@pytest.mark.parametrize("experiment_id", ISSUE_IDS)
def test_runnable_setups_have_a_judge_and_valid_configs(experiment_id):
    e = get(experiment_id)
    for name, spec in e.setups.items():
        for mode in MODES:
            if spec.runnable(mode) and mode in spec.measure:
                assert e.judge is not None and not e.missing(name, mode)
            elif spec.runnable(mode):
                assert e.judge is not None, (experiment_id, name)
                assert not e.missing(name, mode)
                if (experiment_id, name) in GRID_SETUPS or data_status(spec.datasets):
                    continue  # data absent: preflight says "needs data" (test_data_sources.py)
                built, _ = resolved_config(e, name, mode)
                for _, tables in built if isinstance(built, list) else [("", built)]:
                    cfg = build(tables)  # the simulator's strict parser accepts it
                    assert cfg.settings.rounds >= 1
            else:
                with pytest.raises(InputError, match="cannot run yet: needs"):
                    check_runnable(e, name, mode)
        if (experiment_id, name) in RUNNABLE_NOW and not data_status(spec.datasets):
            assert e.status(name) == "runnable"


def test_quick_configs_are_smaller_than_full():
    for experiment_id, setup in RUNNABLE_NOW:
        e = get(experiment_id)
        spec = e.setup(setup)
        assert e.seeds["quick"] < e.seeds["full"]
        if not spec.configs:  # no training (an estimator study)
            continue
        quick, full = spec.configs["quick"](), spec.configs["full"]()
        if isinstance(quick, list):  # a sweep: fewer comparisons in quick mode
            assert isinstance(full, list) and len(quick) <= len(full)
            quick, full = quick[0][1], full[0][1]
        assert isinstance(quick, dict) and isinstance(full, dict)
        assert quick["run"]["rounds"] <= full["run"]["rounds"]
        assert len(quick["algorithms"]) <= len(full["algorithms"])
        assert any(a["name"] == "ca_fed" for a in quick["algorithms"])


def test_paper_numbers_of_fig1():
    values = {i: get(i).numbers[0].value for i in ("cafed:fig1a", "cafed:fig1b", "cafed:fig1c")}
    assert values == {"cafed:fig1a": 1.56, "cafed:fig1b": 0.94, "cafed:fig1c": 1.32}


def test_lost_numbers_are_flagged_in_json():
    lost = Number("x", None, "", "P2:1", "lost").to_dict()
    assert lost["lost_in_extraction"] is True
    assert any(n.value is None for n in get("cafed:fig2b").numbers)


def test_unknown_id_suggests():
    with pytest.raises(InputError, match="did you mean 'cafed:fig1a'"):
        get("cafed:fig1aa")
    with pytest.raises(InputError, match="no setup 'code'"):
        get("cafed:fig1a").setup("code")


def test_an_id_registers_once_and_features_are_checked():
    with pytest.raises(RuntimeError, match="registered twice"):
        register(get("cafed:fig1a"))
    with pytest.raises(ValueError, match="unknown simulator feature"):
        SetupSpec("paper", "", "", requires=("warp_drive",))


def test_status_strings():
    e = get("cafed:fig1c")
    assert e.status("paper").startswith("needs data: cifar10: no data_dir given")
    assert isinstance(e, Experiment) and e.status("nope") == "—"


def test_the_record_prints_the_source_as_before():
    # One citation class (fltheory.papers.Source); the verdict record keeps its text.
    from fltheory.papers import Source

    e = get("cafed:fig1a")
    assert isinstance(e.source, Source) and e.source.paper == "cafed"
    assert e.source.lines == (300, 1584)
    assert e.source_record() == {
        "paper": "Rodio et al., CA-Fed, IEEE/ACM ToN 32(2), 2024",
        "seed_file": "002_2f28135276b05638.txt (HAL, with appendices; P2)",
        "section": "V-B(a)",
        "figure": "Fig. 1(a)",
        "lines": "P2:300-315, P2:1553-1562, P2:1572-1584",
    }
