# expect: FG206, FG101
"""A dataclass field annotated `torch.Tensor` holds a tensor, whether the dataclass arrives as an
annotated argument or is built in `forward`: its value used as a slice bound or in a branch is
read into Python. Fields annotated as numbers stay Python values."""
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Batch:
    tokens: torch.Tensor
    lengths: torch.Tensor
    pad_id: int = 0


class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, batch: Batch):
        h = self.emb(batch.tokens)
        if batch.pad_id > 0:
            h = h * 2
        longest = batch.lengths.max()
        return h[:, :longest].sum(1)  # <- FG206 GB0124


class Gate(nn.Module):
    def forward(self, x):
        pair = Batch(tokens=x.sum(), lengths=x)
        if pair.tokens > 0:  # <- FG101 GB0170
            return x + 1
        return x


def fullgraph_example():
    batch = Batch(torch.randint(0, 10, (2, 5)), torch.tensor([3, 5]))
    return [(Pool(), (batch,), {}), (Gate(), (torch.randn(3),), {})]
