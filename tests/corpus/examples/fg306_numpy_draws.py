# expect: FG306
"""torch's NumPy layer draws arrays from torch's generator, and Dynamo traces them: noise drawn with
a size compiles. A scalar draw (no size) reads its value, and breaks."""
import numpy as np
import torch
from torch import nn


class Noisy(nn.Module):
    def forward(self, x):
        noise = np.random.normal(0, 0.1, size=(2, 4)).astype(np.float32)
        jitter = np.random.rand(2, 4) + np.random.randint(0, 3, size=(4,))
        x = x + torch.from_numpy(noise) + torch.from_numpy(jitter).float()
        scale = np.random.uniform(0.5, 1.5)  # <- FG306 GB0033
        return x * scale


def fullgraph_example():
    return Noisy(), (torch.randn(2, 4),), {}
