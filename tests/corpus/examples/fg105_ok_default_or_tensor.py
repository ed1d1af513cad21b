# expect: clean
"""`n or t.max() + 1` hands its last operand on without testing it: no break when `n` is None."""
import torch


@torch.compile
def shift(x: torch.Tensor, index: torch.Tensor, offset=None, scale=False) -> torch.Tensor:
    offset = offset or index.max() + 1
    factor = scale and x.mean()
    return x + offset + factor


def fullgraph_example():
    return shift, (torch.randn(3), torch.tensor([0, 2, 1])), {}
