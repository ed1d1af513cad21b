# expect: FG406
"""maskformer's query embeddings: made with `requires_grad=self.training`, then turned on again under
`if self.training:`. The factory call breaks; the `requires_grad_(True)` on a tensor that already
requires grad changes nothing, and Dynamo traces it."""
import torch
from torch import nn


class Queries(nn.Module):
    def forward(self, q):
        emb = torch.zeros_like(q, requires_grad=self.training)  # <- FG406 GB0225
        if self.training:
            emb.requires_grad_(True)
        return emb + q


def fullgraph_example():
    return Queries().train(), (torch.randn(4),), {}
