# expect: FG451
"""`torch.nonzero`: output shape depends on the data."""
import torch


@torch.compile
def active(x: torch.Tensor) -> torch.Tensor:
    h = x.relu()
    return torch.nonzero(h) * 2  # <- FG451 GB0036


def fullgraph_example():
    return active, (torch.randn(8),), {}
