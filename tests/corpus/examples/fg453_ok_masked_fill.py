# expect: clean
"""`masked_fill` and multiplying by the mask keep static shapes."""
import torch


@torch.compile
def masked_mean(hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    keep = mask.bool()
    zeroed = hidden.masked_fill(~keep[:, None], 0.0)
    return zeroed.sum(0) / mask.sum() + hidden[0] * keep[0]


def fullgraph_example():
    return masked_mean, (torch.randn(5, 4), torch.tensor([1, 1, 0, 1, 0])), {}
