"""Hostile and well-formed data files written by the tests: IDX headers that lie, CIFAR-10
pickles that try to run code, SVHN .mat files, and :func:`missing`'s one-line reasons."""

import gzip
import os
import pickle
import struct

import numpy as np
import pytest
from scipy.io import savemat

from fltheory.errors import InputError
from fltheory.sim.datasets import (
    CIFAR_FILES,
    MAX_IDX_BYTES,
    cifar10,
    missing,
    read_idx,
    safe_unpickle,
    svhn,
    write_idx,
)


def _idx(type_code: int, dims: tuple[int, ...], payload: bytes) -> bytes:
    return bytes([0, 0, type_code, len(dims)]) + struct.pack(f">{len(dims)}i", *dims) + payload


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b"", "truncated IDX magic"),
        (b"\x00\x00", "truncated IDX magic"),
        (b"\x00\x01\x08\x01\x00\x00\x00\x01\x05", "bad magic"),
        (b"\x00\x00\x07\x01\x00\x00\x00\x01\x05", "bad magic"),  # 0x07 is no IDX type
        (_idx(8, (2, 3), b"")[:9], "truncated IDX header"),
        (_idx(8, (2, 3), bytes(5)), "truncated IDX data"),
        (_idx(8, (2, 3), bytes(7)), "does not match its header"),
        (_idx(8, (-1, 3), b""), "negative size"),
        (bytes([0, 0, 8, 200]) + bytes(800), "200 dimensions"),
        # 2^31 − 1 cubed bytes declared by a 16-byte file: refused before any allocation.
        (_idx(8, (2**31 - 1,) * 3, b""), "more than"),
        (_idx(0x0E, (2**31 - 1, 2**31 - 1), b""), "more than"),
    ],
)
@pytest.mark.parametrize("gz", [False, True])
def test_hostile_idx_files_are_refused_in_one_line(tmp_path, raw, fragment, gz):
    path = tmp_path / ("f.gz" if gz else "f")
    path.write_bytes(gzip.compress(raw) if gz else raw)
    with pytest.raises(InputError, match=fragment) as info:
        read_idx(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_idx_limits_and_broken_gzip(tmp_path):
    assert MAX_IDX_BYTES == 2**30
    path = tmp_path / "a.gz"
    write_idx(path, np.arange(50, dtype=np.int32))
    path.write_bytes(path.read_bytes()[:-9])  # cut inside the deflate stream and trailer
    with pytest.raises(InputError, match=r"a\.gz"):
        read_idx(path)
    (tmp_path / "b.gz").write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(InputError, match="not a readable IDX file"):
        read_idx(tmp_path / "b.gz")
    with pytest.raises(InputError, match=r"does not exist|not found|no such"):
        read_idx(tmp_path / "absent")
    # 3 float64 values by hand: header 0 0 0x0E 1, size 3, big-endian doubles.
    (tmp_path / "d").write_bytes(_idx(0x0E, (3,), struct.pack(">3d", 0.5, -2.0, 1e300)))
    np.testing.assert_array_equal(read_idx(tmp_path / "d"), [0.5, -2.0, 1e300])


class _Exploit:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


def _write_cifar(folder, n=4, seed=0, protocol=2):
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for name in CIFAR_FILES:
        data = rng.integers(0, 256, (n, 3072), dtype=np.uint8)
        labels = rng.integers(0, 10, n).tolist()
        written[name] = (data, labels)
        batch = {b"batch_label": b"x", b"data": data, b"labels": labels, b"filenames": [b"a"] * n}
        (folder / name).write_bytes(pickle.dumps(batch, protocol=protocol))
    return written


@pytest.mark.parametrize("protocol", [2, 5])
def test_cifar_batches_in_the_official_subfolder(tmp_path, protocol):
    written = _write_cifar(tmp_path / "cifar-10-batches-py", protocol=protocol)
    out = cifar10(tmp_path)
    # Row 2 of batch 3 is training image 4·2 + 2 = 10; channel-first layout kept as stored.
    np.testing.assert_allclose(out.x_train[10], written["data_batch_3"][0][2] / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(out.y_train[4:8], written["data_batch_2"][1])
    assert missing("cifar10", tmp_path) is None


def test_cifar_pickles_that_run_code_are_refused(tmp_path):
    _write_cifar(tmp_path)
    evil = {b"data": np.zeros((1, 3072), np.uint8), b"labels": [_Exploit()]}
    (tmp_path / "data_batch_4").write_bytes(pickle.dumps(evil))
    with pytest.raises(InputError, match=r"data_batch_4: .*refused global (posix|os)\.system"):
        cifar10(tmp_path)
    with pytest.raises(pickle.UnpicklingError, match=r"builtins\.eval"):
        safe_unpickle(pickle.dumps(eval))
    (tmp_path / "data_batch_4").write_bytes(pickle.dumps({b"data": np.zeros((2, 10), np.uint8)}))
    with pytest.raises(InputError, match="data_batch_4: not a CIFAR-10 python batch"):
        cifar10(tmp_path)
    bad = {b"data": np.zeros((1, 3072), np.uint8), b"labels": [10]}
    (tmp_path / "data_batch_4").write_bytes(pickle.dumps(bad))
    with pytest.raises(InputError, match=r"labels must lie in 0\.\.9"):
        cifar10(tmp_path)


def test_svhn_mat_files(tmp_path):
    rng = np.random.default_rng(2)
    parts = {}
    for name, n in (("train_32x32.mat", 5), ("test_32x32.mat", 3)):
        x = rng.integers(0, 256, (32, 32, 3, n), dtype=np.uint8)
        y = rng.integers(1, 11, (n, 1)).astype(np.uint8)
        y[0, 0] = 10
        parts[name] = (x, y)
        savemat(tmp_path / name, {"X": x, "y": y})
    out = svhn(tmp_path)
    x, y = parts["train_32x32.mat"]
    assert out.shape == (3, 32, 32) and out.x_train.shape == (5, 3072)
    # Image 1, channel 2, row 7, column 30 sits at 2·1024 + 7·32 + 30 of the flat vector.
    assert out.x_train[1, 2 * 1024 + 7 * 32 + 30] == pytest.approx(x[7, 30, 2, 1] / 255.0)
    assert out.y_train[0] == 0  # label 10 is the digit 0
    np.testing.assert_array_equal(out.y_train[1:], y[1:, 0] % 10)
    savemat(tmp_path / "test_32x32.mat", {"X": np.zeros((28, 28, 3, 2)), "y": np.ones((2, 1))})
    with pytest.raises(InputError, match=r"test_32x32.mat: SVHN holds X \(32, 32, 3, n\)"):
        svhn(tmp_path)
    (tmp_path / "test_32x32.mat").write_bytes(b"MATLAB 5.0 garbage")
    with pytest.raises(InputError, match=r"not an SVHN \.mat"):
        svhn(tmp_path)


def test_missing_names_what_and_where(tmp_path):
    for name, first in (("cifar10", "data_batch_1"), ("svhn", "train_32x32.mat")):
        why = missing(name, tmp_path)
        assert why is not None and first in why and str(tmp_path) in why and "\n" not in why
        assert "data_dir" in (missing(name) or "")
    assert "train-images-idx3-ubyte" in (missing("mnist", tmp_path) or "")
    assert "apt-get install dataset-fashion-mnist" in (missing("fashion_mnist", tmp_path) or "")
    assert missing("digits") is None
    write_idx(tmp_path / "train-images-idx3-ubyte.gz", np.zeros((1, 2, 2), np.uint8))
    assert "train-labels-idx1-ubyte" in (missing("mnist", tmp_path) or "")
    with pytest.raises(InputError):
        svhn(None)
