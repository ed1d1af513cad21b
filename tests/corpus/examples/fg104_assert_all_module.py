# expect: clean
# checker-xfail: torch 2.13 lowers `assert <tensor>` itself (no break), so FG104 fires where Dynamo does not break
"""Assert that all probabilities are non-negative, without a message."""
import torch
from torch import nn


class Probs(nn.Module):
    def forward(self, x):
        p = x.softmax(-1)
        assert (p >= 0).all()
        return p * 2


def fullgraph_example():
    return Probs(), (torch.randn(2, 4),), {}
