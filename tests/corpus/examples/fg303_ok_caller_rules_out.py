# expect: clean
"""An adapter's `unmerge` warns when there is nothing to unmerge, but compiled code calls it only
under `if self.merged:`, so the warning's branch is dead there (nothing changes `self` between the
two tests)."""
import warnings

import torch
from torch import nn


class Adapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Linear(4, 4)
        self.merged = False
        self.disabled = True

    def unmerge(self):
        if not self.merged:
            warnings.warn("Already unmerged. Nothing to do.")
            return
        self.merged = False

    def forward(self, x):
        if self.disabled:
            if self.merged:
                self.unmerge()
            return self.base(x)
        return self.base(x) * 2


def fullgraph_example():
    return Adapter(), (torch.randn(2, 4),), {}
