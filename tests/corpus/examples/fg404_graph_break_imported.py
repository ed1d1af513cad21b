# expect: FG404
"""`graph_break` imported by name."""
import torch
from torch import nn
from torch._dynamo import graph_break


class TwoStage(nn.Module):
    def forward(self, x):
        h = x.relu()
        graph_break()  # <- FG404 GB0025
        return h.sum()


def fullgraph_example():
    return TwoStage(), (torch.randn(4),), {}
