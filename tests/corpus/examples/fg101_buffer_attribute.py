# expect: FG101
"""Running statistics kept in `nn.Buffer`s (torch's newer spelling of `register_buffer`), as
I-BERT's activation quantizer does: an `if` on their values needs them while tracing."""
import torch
from torch import nn


class RangeTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.x_min = nn.Buffer(torch.zeros(1))
        self.x_max = nn.Buffer(torch.zeros(1))

    def forward(self, x):
        if self.x_min.min() > -1e-5 and self.x_max.max() < 1e-5:  # <- FG101 GB0170
            self.x_min = self.x_min + x.min()
            self.x_max = self.x_max + x.max()
        return x * 2


def fullgraph_example():
    return RangeTracker(), (torch.randn(8),), {}
