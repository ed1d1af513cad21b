# expect: clean
"""Compile only the loss and call `backward()` on its result outside the region."""
import torch
import torch.nn.functional as F


@torch.compile
def loss_fn(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(x * w, y)


def fullgraph_example():
    return loss_fn, (torch.randn(4, requires_grad=True), torch.randn(4), torch.randn(4)), {}
