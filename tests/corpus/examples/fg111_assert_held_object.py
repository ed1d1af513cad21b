# expect: FG111
"""`assert` on a plain object `__init__` stores on `self` (a tokenizer-like helper): Dynamo tries
to lower it to a tensor check, cannot, and runs the whole function eagerly."""
import torch
from torch import nn


class Vocabulary:
    def __init__(self, size):
        self.size = size


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.vocab = Vocabulary(16)
        self.embed = nn.Embedding(16, 4)

    def forward(self, ids):
        assert self.vocab, "no vocabulary"  # <- FG111 GB0055
        return self.embed(ids.clamp(max=self.vocab.size - 1))


def fullgraph_example():
    return Embedder(), (torch.tensor([1, 3, 20]),), {}
