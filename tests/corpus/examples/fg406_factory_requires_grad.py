# expect: FG406
"""DETR-style query embeddings made as a tensor that requires grad in training."""
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.queries = nn.Embedding(4, 8)

    def forward(self, features):
        queries = self.queries.weight.unsqueeze(0).repeat(features.shape[0], 1, 1)
        inputs = torch.zeros_like(queries, requires_grad=True)  # <- FG406 GB0225
        return inputs + queries + features.mean()


def fullgraph_example():
    return Decoder(), (torch.randn(2, 8),), {}
