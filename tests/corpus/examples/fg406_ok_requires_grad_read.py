# expect: clean
"""Reading `requires_grad` is a static guard."""
import torch


@torch.compile
def maybe_detach(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    if x.requires_grad:
        return h.detach()
    return h


def fullgraph_example():
    return maybe_detach, (torch.randn(4),), {}
