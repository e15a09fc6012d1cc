"""Issue 12 diagnoses of cafed:fig1b, fig1d, fig2a and fig2b: the fig1d judge measures CA-Fed's
included count against the paper's 45 (P2:1584), and each diagnosis is carried in the record."""

import numpy as np
import pytest

from fltheory.experiments import judges
from fltheory.experiments.catalog import cafed_fig1
from fltheory.experiments.diagnoses import notes_path
from fltheory.experiments.model import Measurements, get


def _counted(per_round: list[int], n_clients: int = 100, rounds: int = 20) -> Measurements:
    """CA-Fed includes ``per_round[r]`` of ``n_clients`` always-active clients in seed r."""
    seeds = len(per_round)
    active = np.ones((seeds, rounds, n_clients), dtype=bool)
    included = np.zeros_like(active)
    for r, count in enumerate(per_round):
        included[r, :, :count] = True
    weights = {"ca_fed": included.astype(float)}
    quarter = np.arange(n_clients) * 4 // n_clients
    names = [p for parts in cafed_fig1.FIG1D_GROUPS.values() for p in parts]
    groups = {name: quarter == i for i, name in enumerate(names)}
    return Measurements(
        np.array([rounds - 1]),
        {"ca_fed": np.zeros((seeds, 1))},
        included={"ca_fed": included},
        weights=weights,
        active=active,
        groups=groups,
        alpha=np.full(n_clients, 1 / n_clients),
    )


def test_fig1d_judge_reads_the_included_count_not_a_share():
    # The verdict table paired the paper's "45 clients" with a share difference (0.07):
    # the count check measures clients per round, first among the checks.
    checks = get("cafed:fig1d").judge(_counted([44, 45, 46, 45]), "full")
    count = checks[0]
    assert "45 clients" in count.claim and count.where == "P2:1584"
    assert count.measured == pytest.approx(45.0) and count.holds and count.role == "primary"
    low = cafed_fig1.included_count(_counted([33, 35, 37, 35]), "full")
    assert low is not None and low.measured == pytest.approx(35.0) and not low.holds
    assert judges.decide([low]) == "not_reproduced"


def test_fig1d_count_scales_with_n_and_is_reported_in_quick_mode():
    check = cafed_fig1.included_count(_counted([22, 23, 22, 23], n_clients=50), "quick")
    assert check is not None and check.role == "secondary"
    assert check.measured == pytest.approx(22.5) and check.holds  # 45·50/100 in the interval
    assert "of 50.00 active" in check.note
    no_trace = Measurements(np.array([0]), {"ca_fed": np.zeros((2, 1))})
    assert cafed_fig1.included_count(no_trace, "full") is None


@pytest.mark.parametrize("experiment", ["cafed:fig1b", "cafed:fig1d", "cafed:fig2a", "cafed:fig2b"])
def test_each_diagnosis_is_carried_in_the_notes(experiment: str):
    # The notes are read from the experiment's diagnosis page (results out of the code), which
    # names the command that measured them and carries an interval.
    notes = get(experiment).notes
    assert "figures/cafed_" in notes and "[" in notes
    page = notes_path(experiment).read_text(encoding="utf-8")
    assert notes in page and "`python figures/cafed_" in page
