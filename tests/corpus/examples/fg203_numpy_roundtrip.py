# expect: clean
# checker-xfail: torch 2.13 traces `.numpy()` and numpy ops on it (trace_numpy=True), so a round trip does not break
"""`.numpy()` and back with `torch.from_numpy`."""
import torch


@torch.compile
def roundtrip(x: torch.Tensor) -> torch.Tensor:
    a = x.detach().numpy()
    return torch.from_numpy(a * 2) + 1


def fullgraph_example():
    return roundtrip, (torch.randn(4),), {}
