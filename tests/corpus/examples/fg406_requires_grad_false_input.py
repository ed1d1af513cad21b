# expect: FG406
"""`requires_grad_(False)` on a graph input that requires grad breaks (a parameter of the
function, not a tensor it made)."""
import torch


@torch.compile
def frozen(x: torch.Tensor) -> torch.Tensor:
    x.requires_grad_(False)  # <- FG406 GB0125
    return x * 2


def fullgraph_example():
    return frozen, (torch.randn(3, requires_grad=True),), {}
