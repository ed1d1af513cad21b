# expect: clean
"""`.numpy()` and back with `torch.from_numpy`."""
import torch


@torch.compile
def roundtrip(x: torch.Tensor) -> torch.Tensor:
    a = x.detach().numpy()
    return torch.from_numpy(a * 2) + 1


def fullgraph_example():
    return roundtrip, (torch.randn(4),), {}
