# expect: FG406
"""A tensor made in the region gets `requires_grad_()` and is returned."""
import torch


@torch.compile
def fresh_state(query: torch.Tensor) -> torch.Tensor:
    return torch.zeros_like(query).requires_grad_()  # <- FG406 GB8985


def fullgraph_example():
    return fresh_state, (torch.randn(3, 4),), {}
