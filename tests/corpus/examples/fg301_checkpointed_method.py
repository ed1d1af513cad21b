# expect: FG101, FG301
"""`torch.utils.checkpoint.checkpoint(fn, *args)` runs `fn(*args)`, and Dynamo traces it where it
breaks: a print in a checkpointed method, a tensor branch in a checkpointed block (its argument
keeps the tensor fact the call passes)."""
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def gate(h, w):
    if (h * w).sum() > 0:  # <- FG101 GB0170
        return h * 2
    return h


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def _inner(self, h):
        print("inner")  # <- FG301 GB0059
        return h + 1

    def forward(self, x):
        h = self.lin(x)
        h = torch.utils.checkpoint.checkpoint(self._inner, h, use_reentrant=False)
        return checkpoint(gate, h, w=h, use_reentrant=False)


def fullgraph_example():
    return Net(), (torch.randn(2, 3),), {}
