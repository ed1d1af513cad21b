# expect: FG101
"""A membership test on a tensor (`True in mask`) reads its values: `Tensor.__contains__` is
`(mask == True).any()` taken as a Python bool, so an `if` on it is data-dependent, as in an
aligner that checks whether any utterance has ended."""
import torch
from torch import nn


class Aligner(nn.Module):
    def forward(self, x, lengths):
        for t in range(1, 4):
            ended = lengths < t
            if True in ended:  # <- FG101 GB0124
                x = x - ended.sum()
        return x * 2


def fullgraph_example():
    return Aligner(), (torch.randn(4), torch.tensor([1, 3])), {}
