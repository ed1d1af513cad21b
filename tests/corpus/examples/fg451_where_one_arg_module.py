# expect: FG451
"""MoE routing: token indices per expert with `.nonzero()`."""
import torch
from torch import nn


class Router(nn.Module):
    def forward(self, logits):
        choice = logits.argmax(-1)
        tokens = (choice == 0).nonzero()  # <- FG451 GB0036
        return tokens.sum()


def fullgraph_example():
    return Router(), (torch.randn(6, 3),), {}
