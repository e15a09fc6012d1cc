"""Simulator tests run torch on one thread: the tensors are small, and intra-op threads spin
when the two cores are shared with other processes (see ``threads`` in fltheory.sim.config)."""

import pytest
import torch


@pytest.fixture(autouse=True)
def _one_torch_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
