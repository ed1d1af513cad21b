# expect: FG106
"""Dynamo traces NumPy as tensor code: `range` over a NumPy product of sizes needs its value."""
import numpy as np
import torch
from torch import nn


class Autoregressive(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = nn.Linear(4, 4)

    def forward(self, inputs):
        num_inputs = np.prod(inputs.shape[1:])
        outputs = torch.zeros_like(inputs)
        for _ in range(num_inputs):  # <- FG106 GB0059
            outputs = self.step(outputs) + inputs
        return outputs


def fullgraph_example():
    return Autoregressive(), (torch.randn(2, 4),), {}
