# expect: FG406
"""The same helper called with `requires_grad=True`: the detached tensor is made to require grad
inside the graph, and Dynamo breaks there."""
import torch
from torch import nn


def rand_angles(n: int, requires_grad: bool = False) -> torch.Tensor:
    alpha = 2 * torch.pi * torch.rand(n)
    return alpha.detach().requires_grad_(requires_grad)  # <- FG406 GB8985


class LearnedRotation(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.cos(rand_angles(x.shape[-1], requires_grad=True))


def fullgraph_example():
    torch.manual_seed(0)
    return LearnedRotation(), (torch.randn(2, 4),), {}
