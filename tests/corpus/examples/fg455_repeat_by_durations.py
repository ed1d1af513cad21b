# expect: FG455
"""Each token is repeated by its predicted duration (a length regulator): the output length is the
sum of the durations, read from the data."""
import torch
from torch import nn


class LengthRegulator(nn.Module):
    def forward(self, tokens: torch.Tensor, durations: torch.Tensor):
        frames = torch.repeat_interleave(tokens, durations, dim=0)  # <- FG455 GB0036
        return frames * 2


def fullgraph_example():
    return LengthRegulator(), (torch.randn(3, 4), torch.tensor([1, 2, 3])), {}
