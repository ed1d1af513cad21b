# expect: FG101
"""A name the loop's body makes a tensor (`offset += length`, a tensor read from `lengths`) is
Python on the first iteration only: the next iteration's `if` on it needs its value."""
import torch
from torch import nn


class Segments(nn.Module):
    def forward(self, x, lengths: torch.Tensor):
        offset = 0
        total = x.new_zeros(())
        for i in range(lengths.shape[0]):
            if offset > 2:  # <- FG101 GB0170
                total = total + 1
            offset += lengths[i]
        return x * total


def fullgraph_example():
    return Segments(), (torch.randn(4), torch.tensor([2, 3, 1])), {}
