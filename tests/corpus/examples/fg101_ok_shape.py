# expect: clean
"""Shape and rank checks are static for Dynamo: no break."""
import torch


@torch.compile
def pad_to_even(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] % 2 == 1 and x.dim() == 1:
        x = torch.cat([x, x.new_zeros(1)])
    if x.size(0) > 2 and len(x) > 2:
        x = x * 2
    return x


def fullgraph_example():
    return pad_to_even, (torch.randn(7),), {}
