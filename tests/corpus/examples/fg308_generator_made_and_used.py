# expect: FG308
"""A `torch.Generator` made in compiled code, and handed to a random op: two breaks."""
import torch


@torch.compile
def add_noise(x: torch.Tensor) -> torch.Tensor:
    g = torch.Generator(x.device).manual_seed(3)  # <- FG308 GB0363
    return x + torch.randn(x.shape, generator=g)  # <- FG308 GB0055


def fullgraph_example():
    return add_noise, (torch.randn(4),), {}
