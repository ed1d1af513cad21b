# expect: FG208
"""A helper checks a tensor condition with `torch._check_tensor_all` while tracing, as
transformers' `torch_check` does: it reads the tensor's value (an `.item()` inside)."""
import torch
from torch import nn


def check_positive(cond: torch.Tensor) -> None:
    torch._check_tensor_all(cond, lambda: "lengths must be positive")  # <- FG208 GB0124


class Pool(nn.Module):
    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        check_positive(lengths > 0)
        return x.sum(dim=1) / lengths


def fullgraph_example():
    return Pool(), (torch.randn(2, 4, 3), torch.tensor([[4.0], [2.0]])), {}
