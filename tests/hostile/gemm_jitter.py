"""A pytest plug-in (``-p gemm_jitter``) that emulates a CPU whose float32 batched matrix
products round differently by batch size, as on the AMD EPYC of issue 24: results of more than
64 rows come out one ulp up. Tests that compare runs chunked differently bit for bit fail
under it; tests that promise bytes only at equal chunking, and a tolerance across chunkings,
pass. Deterministic: the same shapes give the same bits. Nothing is patched on import (the
doctest collection imports every module): :func:`install` does it, called by pytest when the
module is loaded as a plug-in.
"""

import torch

_bmm, _baddbmm = torch.bmm, torch.Tensor.baddbmm_
#: Batches above this many rows take the "other kernel".
ROWS = 64


def _nudge(out: torch.Tensor, rows: int) -> torch.Tensor:
    if out.dtype == torch.float32 and rows > ROWS:
        out.copy_(torch.nextafter(out, torch.full_like(out, float("inf"))))
    return out


def bmm(a: torch.Tensor, b: torch.Tensor, *args, **kwargs) -> torch.Tensor:
    return _nudge(_bmm(a, b, *args, **kwargs), a.shape[0])


def baddbmm_(self: torch.Tensor, a: torch.Tensor, b: torch.Tensor, **kwargs) -> torch.Tensor:
    return _nudge(_baddbmm(self, a, b, **kwargs), a.shape[0])


def install() -> None:
    """Patch torch's batched products for the rest of the process."""
    torch.bmm = bmm
    torch.Tensor.baddbmm_ = baddbmm_


def pytest_configure(config) -> None:
    install()
