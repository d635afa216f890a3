"""One torch thread for the Gongzhu agent tests: the nets are tiny, and on a shared 2-core
machine a second intra-op thread makes them several times slower, not faster."""

import pytest
import torch


@pytest.fixture(autouse=True, scope="session")
def _one_torch_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)
