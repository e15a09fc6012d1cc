"""The Section V-A(a) population and the per-client CSV reader."""

import math
from pathlib import Path

import numpy as np
import pytest

from fltheory.errors import AssumptionViolation, FLTheoryError, InputError
from fltheory.markov.population import (
    GROUP_NAMES,
    ca_fed_population,
    group_sizes,
    load_clients_csv,
    read_clients_csv,
)


def test_default_population_matches_the_paper() -> None:
    pop = ca_fed_population()
    assert pop.n_clients == 100
    np.testing.assert_array_equal(np.bincount(pop.labels), [25, 25, 25, 25])
    np.testing.assert_allclose(pop.pi[pop.more_available], 0.9)
    np.testing.assert_allclose(pop.pi[~pop.more_available], 0.1)
    assert (pop.lambda2[pop.correlated] == 0.9).all()
    # blocks order: groups appear in GROUP_NAMES order, 25 clients each
    np.testing.assert_array_equal(pop.labels, np.repeat(np.arange(4), 25))
    assert pop.group_names[0] == "more available, correlated"
    # Section V-B(d): the slowest chain's hitting time max 1/((1 − λ)π) is 100
    assert pop.chain().hitting_time == pytest.approx(100.0)
    assert pop.chain().slem == pytest.approx(0.9)


def test_weak_draws_look_like_normal_0_eps() -> None:
    eps = 1e-2
    pop = ca_fed_population(n=4000, eps=eps, seed=3)
    weak = pop.lambda2[~pop.correlated]
    m = weak.size  # 2000 draws: mean within 5 s.e., sample sd within 5 s.e. of ε
    assert abs(weak.mean()) < 5 * eps / math.sqrt(m)
    assert abs(weak.std(ddof=1) - eps) < 5 * eps / math.sqrt(2 * (m - 1))


def test_seeds_and_random_split() -> None:
    a, b = ca_fed_population(seed=1), ca_fed_population(seed=1)
    np.testing.assert_array_equal(a.lambda2, b.lambda2)
    assert not np.array_equal(a.lambda2, ca_fed_population(seed=2).lambda2)
    r = ca_fed_population(seed=1, split="random")
    np.testing.assert_array_equal(np.bincount(r.labels), [25, 25, 25, 25])
    assert not np.array_equal(r.labels, a.labels)
    np.testing.assert_array_equal(r.labels, ca_fed_population(seed=1, split="random").labels)
    # same λ draws, placed on the weakly correlated clients in index order
    np.testing.assert_array_equal(r.lambda2[~r.correlated], a.lambda2[~a.correlated])
    np.testing.assert_allclose(r.pi, np.where(r.labels <= 1, 0.9, 0.1))


def test_remainders_and_parameters() -> None:
    np.testing.assert_array_equal(group_sizes(10), [3, 3, 2, 2])
    pop = ca_fed_population(n=10, g=0.25, nu=0.5, eps=0.0)
    np.testing.assert_array_equal(pop.labels, [0, 0, 0, 1, 1, 1, 2, 2, 3, 3])
    np.testing.assert_allclose(pop.pi, [0.75] * 6 + [0.25] * 4)
    np.testing.assert_array_equal(pop.lambda2, [0.5, 0.5, 0.5, 0, 0, 0, 0.5, 0.5, 0, 0])
    assert len(GROUP_NAMES) == 4


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"g": 0.0}, InputError, "(0, 1/2)"),
        ({"g": 0.5}, InputError, "(0, 1/2)"),
        ({"n": 3}, InputError, ">= 4"),
        ({"n": 10.0}, InputError, "integer"),
        ({"nu": 1.0}, AssumptionViolation, "reducible"),
        ({"eps": -1.0}, InputError, "eps"),
        ({"seed": -1}, InputError, "seed"),
        ({"split": "striped"}, InputError, "split"),
        ({"eps": 5.0}, FLTheoryError, "lambda2"),
    ],
)
def test_population_rejections(kwargs: dict, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        ca_fed_population(**kwargs)
    assert fragment in str(info.value)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "clients.csv"
    path.write_text(text)
    return path


def test_csv_reads_columns_in_any_order(tmp_path: Path) -> None:
    path = write(tmp_path, "name,lambda2,pi\na,0.9,0.1\nb,-0.05,0.9\n\nc,0,0.5\n")
    pi, lambda2 = load_clients_csv(path)
    np.testing.assert_array_equal(pi, [0.1, 0.9, 0.5])
    np.testing.assert_array_equal(lambda2, [0.9, -0.05, 0.0])


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("pi,lam\n0.5,0\n", InputError, "unknown column 'lam'; did you mean 'lambda2'?"),
        ("pi,count\n0.5,1\n", InputError, "missing column 'lambda2'"),
        ("pi,lambda2,region\n0.5,0,eu\n", InputError, "unknown column 'region' (the columns"),
        ("pi,lambda2,pi\n0.5,0,0.5\n", InputError, "column 'pi' appears twice"),
        ("pi,lambda2,count\n0.5,0,2.5\n", InputError, "line 2: count=2.5 is not a positive"),
        ("pi,lambda2,count\n0.5,0,0\n", InputError, "line 2: count=0 is not a positive"),
        ("pi,lambda2,count\n0.5,0,1e9\n", InputError, "at most 10,000,000 are accepted"),
        ("name,pi,lambda2\n,0.5,0\n", InputError, "line 2: empty name"),
        ("pi,lambda2\n0.5,0\n0.5,abc\n", InputError, "line 3: lambda2='abc'"),
        ("pi,lambda2\n0.5,0\n0.5,nan\n", InputError, "line 3: lambda2='nan'"),
        ("pi,lambda2\n0.9,-0.5\n", InputError, "line 2: lambda2=-0.5 is outside"),
        ("pi,lambda2\n0.5,0\n0.5,1\n", AssumptionViolation, "line 3: lambda2=1"),
        ("pi,lambda2\n0.5\n", InputError, "line 2: lambda2=''"),
        ("pi,lambda2\n", InputError, "no client rows"),
        ("", InputError, "empty file"),
    ],
)
def test_csv_rejections(tmp_path: Path, text: str, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        load_clients_csv(write(tmp_path, text))
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_csv_count_column_expands_rows_into_named_groups(tmp_path: Path) -> None:
    # The wall of issue 26: a count column was ignored (3 clients instead of 10).
    text = "name,pi,lambda2,count\noffice,0.85,0.2,4\nhome,0.5,0.7,4\nmobile,0.15,0.95,2\n"
    rows = read_clients_csv(write(tmp_path, text))
    assert rows.n_clients == 10
    np.testing.assert_array_equal(rows.pi, [0.85] * 4 + [0.5] * 4 + [0.15] * 2)
    np.testing.assert_array_equal(rows.lambda2, [0.2] * 4 + [0.7] * 4 + [0.95] * 2)
    sizes = {k: int(v.sum()) for k, v in rows.groups.items()}
    assert sizes == {"office": 4, "home": 4, "mobile": 2}
    # the numeric fast path (no name column) expands alike, one group per row
    rows = read_clients_csv(write(tmp_path, "pi,lambda2,count\n0.85,0.2,4\n0.15,0.95,2\n"))
    assert rows.n_clients == 6 and [int(m.sum()) for m in rows.groups.values()] == [4, 2]
    # rows of one name form one group, wherever they sit
    rows = read_clients_csv(write(tmp_path, "name,pi,lambda2\na,0.9,0\nb,0.1,0\na,0.8,0\n"))
    assert rows.groups["a"].tolist() == [True, False, True]


def test_csv_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="clients file not found"):
        load_clients_csv(tmp_path / "nope.csv")
