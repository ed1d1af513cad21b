# expect: FG101
"""A tensor stored in a dict of outputs, then tested."""
import torch
from torch import nn


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Linear(4, 2)

    def forward(self, x):
        out = {"logits": self.cls(x), "features": x}
        if out["logits"].max() > 5:  # <- FG101 GB0170
            out["logits"] = out["logits"] / 5
        return out


def fullgraph_example():
    return Heads(), (torch.randn(2, 4),), {}
