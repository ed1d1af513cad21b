# expect: FG407
"""`torch.nn.Parameter` in a compiled function."""
import torch


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    p = torch.nn.Parameter(torch.full((4,), 2.0))  # <- FG407 GB0264
    return x * p


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
