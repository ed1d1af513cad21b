# expect: FG453
"""Selecting padded tokens with a mask variable."""
import torch
from torch import nn


class Pool(nn.Module):
    def forward(self, hidden, attention_mask):
        keep = attention_mask.bool()
        picked = hidden[keep]  # <- FG453 GB0036
        return picked.mean(0)


def fullgraph_example():
    return Pool(), (torch.randn(5, 4), torch.tensor([1, 1, 0, 1, 0])), {}
