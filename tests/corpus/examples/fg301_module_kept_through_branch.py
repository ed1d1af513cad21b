# expect: FG301
"""A name holding modules stays one when a branch that may not run rebinds it to something
unknown (layer dropout keeps some of the blocks): a method called on it still runs the blocks'."""
import torch
from torch import nn


def keep_some(blocks, p):
    return [b for i, b in enumerate(blocks) if i % 2 == 0 or p < 0.5]


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def step(self, x):
        print("step")  # <- FG301 GB0059 GB7000
        return self.lin(x).relu()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(), Block()])
        self.layer_dropout = 0.3

    def forward(self, x):
        blocks = self.blocks
        if self.training and self.layer_dropout > 0:
            blocks = keep_some(blocks, self.layer_dropout)
        for block in blocks:
            x = block.step(x)
        return x


def fullgraph_example():
    return Net(), (torch.randn(2, 4),), {}
