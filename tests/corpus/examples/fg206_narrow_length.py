# expect: FG206
"""`narrow`'s start and length are sizes: a reduction of tensor data there is read into Python.
A length computed from shapes stays symbolic."""
import torch
from torch import nn


class Crop(nn.Module):
    def forward(self, x, lengths):
        half = x.narrow(1, 0, x.shape[1] // 2)
        longest = lengths.max()
        kept = x.narrow(1, 0, longest)  # <- FG206 GB0033
        start = torch.narrow(x, 1, lengths.min(), 2)  # <- FG206 GB0033
        return half.sum() + kept.sum() + start.sum()


def fullgraph_example():
    return Crop(), (torch.randn(2, 6), torch.tensor([2, 4])), {}
