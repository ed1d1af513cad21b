# expect: FG111
"""`assert` on a module container: Dynamo tries to lower it to a tensor check, cannot convert the
module, and runs the whole `forward` eagerly."""
import torch
from torch import nn


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))

    def forward(self, x):
        assert self.layers, "no layers"  # <- FG111 GB0055
        for layer in self.layers:
            x = layer(x).relu()
        return x


def fullgraph_example():
    return Stack(), (torch.randn(2, 4),), {}
