"""The LLVM-IR steps of the local-step kernel (fltheory.sim.kernel_ir) against their plain-Python
twins in fltheory.sim.cpu_kernels and against float64 numpy: the row copy exactly (every row
length around the vector width, the array's last row, the columns past f zero), the softmax
residuals to 3e-7 relative in float32 and 1e-15 in float64 (NaN and ±inf where the twin has
them, scores far outside exp's range), the momentum step to 1e-6 (float32) and 1e-14 (float64)."""

from typing import Any

import numpy as np
import pytest

from fltheory.sim import cpu_kernels

numba = pytest.importorskip("numba")


@pytest.fixture(scope="module")
def compiled() -> dict[str, Any]:
    """njit wrappers of the two intrinsics (an intrinsic runs only inside compiled code)."""
    from fltheory.sim import kernel_ir

    ir = kernel_ir.intrinsics()
    gather_ir, softmax_ir = ir["_gather_row"], ir["_softmax_lanes"]
    momentum_ir = ir["_momentum_step"]

    @numba.njit
    def gather(xb: Any, xy: Any, i: int, row: int, f: int) -> None:
        gather_ir(xb, xy, i, row, f)

    @numba.njit
    def softmax(z: Any, i: int, cls: int, scale: float) -> None:
        softmax_ir(z, i, cls, scale)

    @numba.njit
    def momentum(w: Any, g: Any, v: Any, lr: Any, mu: Any, wd: Any, ridge: Any) -> None:
        momentum_ir(w, g, v, lr, mu, wd, ridge)

    return {"gather": gather, "softmax": softmax, "momentum": momentum}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("f", [1, 3, 4, 5, 8, 9, 61, 64])
def test_gather_row_copies_f_values_and_zeroes_the_padding(
    compiled: dict[str, Any], dtype: Any, f: int
) -> None:
    """Each row of xy (the last one included, so a read past it would show in a sanitizer and
    past column f − 1 in the values) lands in xb's row i; columns f.. of that row hold 0, other
    rows are untouched — the same as the Python twin plus the zero padding."""
    rng = np.random.default_rng(f)
    xy = rng.normal(size=(5, f + 1)).astype(dtype)  # label column last, as the kernel's data
    fp = -(-f // 8) * 8
    for row in range(xy.shape[0]):
        xb = np.full((4, fp), 7.0, dtype=dtype)
        compiled["gather"](xb, xy, 2, row, f)
        twin = np.full((4, fp), 7.0, dtype=dtype)
        cpu_kernels._PYTHON["_gather_row"](twin, xy, 2, row, f)
        width = 32 // xb.itemsize
        written = -(-f // width) * width
        twin[2, f:written] = 0.0
        np.testing.assert_array_equal(xb, twin)
        assert (xb[2, :f] == xy[row, :f]).all()


def float64_softmax(z: np.ndarray, scale: float, clamp: bool) -> np.ndarray:
    """scale·softmax over axis 0 in float64 (float32's exp clamped to [−87, 88])."""
    x = z.astype(np.float64)
    x = x - x.max(axis=0)
    if clamp:
        x = np.clip(x, -87.0, 88.0)
    e = np.exp(x)
    return scale * e / e.sum(axis=0)


@pytest.mark.parametrize(("dtype", "rtol"), [(np.float32, 3e-7), (np.float64, 1e-15)])
@pytest.mark.parametrize("classes", [2, 3, 10])
def test_softmax_lanes_matches_its_twin_and_float64(
    compiled: dict[str, Any], dtype: Any, rtol: float, classes: int
) -> None:
    """Columns i .. i + width − 1 become scale·softmax; the other columns are untouched.
    Scores spread over ±200 (exponents far below float32's range flush to the clamp's
    e^−87, as in exp32), then a column with a NaN and one with +inf: NaN in every class there,
    as the twin."""
    rng = np.random.default_rng(classes)
    width = 32 // np.dtype(dtype).itemsize
    z0 = (rng.normal(size=(classes, 32)) * rng.choice([1.0, 10.0, 200.0], size=32)).astype(dtype)
    z0[1, 3] = np.nan
    z0[0, 4] = np.inf
    scale = 1 / 32
    for i in range(0, 32, width):
        z = z0.copy()
        compiled["softmax"](z, i, classes, scale)
        twin = z0.copy()
        with np.errstate(invalid="ignore"):  # inf − inf in the +inf column: NaN, as compiled
            cpu_kernels._PYTHON["_softmax_lanes"](twin, i, classes, scale)
        cols = slice(i, i + width)
        others = np.delete(np.arange(32), np.arange(32)[cols])
        np.testing.assert_array_equal(z[:, others], z0[:, others])
        assert (np.isnan(z[:, cols]) == np.isnan(twin[:, cols])).all()
        np.testing.assert_allclose(z[:, cols], twin[:, cols], rtol=4 * rtol, atol=0)
        finite = np.isfinite(z0[:, cols]).all(axis=0)
        expected = float64_softmax(z0[:, cols][:, finite], scale, dtype == np.float32)
        np.testing.assert_allclose(z[:, cols][:, finite], expected, rtol=8 * rtol, atol=1e-37)


@pytest.mark.parametrize(("dtype", "rtol"), [(np.float32, 1e-6), (np.float64, 1e-14)])
@pytest.mark.parametrize("size", [8, 64, 640])
def test_momentum_step_matches_its_twin_and_float64(
    compiled: dict[str, Any], dtype: Any, rtol: float, size: int
) -> None:
    """d = g + ridge·θ + wd·θ + μ·v, v ← d, θ ← θ − lr·d over every element (sizes that are
    whole vectors, as the kernel's padded rows), against the twin and float64."""
    rng = np.random.default_rng(size)
    w0, g, v0 = (rng.normal(size=size).astype(dtype) for _ in range(3))
    hyper = tuple(dtype(x) for x in (0.05, 0.9, 1e-2, 1e-3))  # lr, μ, wd, ridge
    w, v = w0.copy(), v0.copy()
    compiled["momentum"](w, g, v, *hyper)
    tw, tv = w0.copy(), v0.copy()
    cpu_kernels._PYTHON["_momentum_step"](tw, g, tv, *hyper)
    np.testing.assert_allclose(w, tw, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(v, tv, rtol=rtol, atol=rtol)
    lr, mu, wd, ridge = (float(x) for x in hyper)
    th, g64, v64 = (a.astype(np.float64) for a in (w0, g, v0))
    d = g64 + ridge * th + wd * th + mu * v64
    np.testing.assert_allclose(v, d, rtol=4 * rtol, atol=4 * rtol)
    np.testing.assert_allclose(w, th - lr * d, rtol=4 * rtol, atol=4 * rtol)
