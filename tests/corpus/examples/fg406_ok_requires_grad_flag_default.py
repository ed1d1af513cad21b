# expect: clean
"""`requires_grad_(requires_grad)` on a detached tensor the helper made, where every compiled call
leaves `requires_grad` at its default False (e3nn's `rand_angles`): Dynamo traces it."""
import torch
from torch import nn


def rand_angles(n: int, requires_grad: bool = False) -> torch.Tensor:
    alpha = 2 * torch.pi * torch.rand(n)
    return alpha.detach().requires_grad_(requires_grad)


class RandomRotation(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.cos(rand_angles(x.shape[-1]))


def fullgraph_example():
    torch.manual_seed(0)
    return RandomRotation(), (torch.randn(2, 4),), {}
