"""Matrix and state-map readers: formats, exact text kept for the rational path, errors."""

import json

import numpy as np
import pytest

from fltheory.errors import InputError
from fltheory.markov.io import parse_client_spec, read_matrix, read_state_clients


def test_csv_keeps_fraction_text(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("1/3, 2/3\n0.25,0.75\n")
    spec = read_matrix(path)
    assert spec.entries == [["1/3", "2/3"], ["0.25", "0.75"]]
    np.testing.assert_allclose(spec.matrix, [[1 / 3, 2 / 3], [0.25, 0.75]], rtol=0, atol=1e-16)
    assert spec.state_clients is None


def test_json_with_state_map(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"P": [[0.5, "1/2"], [1, 0]], "state_clients": [[], [0, 1]]}))
    spec = read_matrix(path)
    assert spec.matrix.tolist() == [[0.5, 0.5], [1.0, 0.0]]
    assert spec.state_clients == [[], [0, 1]]


def test_npy_roundtrip(tmp_path):
    path = tmp_path / "p.npy"
    matrix = np.array([[0.9, 0.1], [0.2, 0.8]])
    np.save(path, matrix)
    spec = read_matrix(path)
    np.testing.assert_array_equal(spec.matrix, matrix)
    assert spec.entries[0] == ["0.9", "0.1"]


def test_state_map_from_indicator_csv(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("0,0\n1,0\n0,1\n1,1\n")
    assert read_state_clients(path) == [[], [0], [1], [0, 1]]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("ragged.csv", "0.5,0.5\n1\n", "row 1 has 1 entries"),
        ("word.csv", "a,b\nc,d\n", "not a number"),
        ("bad.json", "{", "invalid JSON"),
        ("nokey.json", '{"Q": 1}', "key 'P'"),
        ("p.txt", "1", "unknown matrix format"),
    ],
)
def test_bad_matrix_files(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_matrix(path)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_matrix(tmp_path / "absent.csv")


def test_client_spec():
    assert parse_client_spec("0.9:1/2") == (0.9, 0.5)
    with pytest.raises(InputError, match="PI:LAMBDA2"):
        parse_client_spec("0.9")
