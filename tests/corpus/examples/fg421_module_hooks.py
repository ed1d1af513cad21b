# expect: FG421
"""Module hooks: one registered in `forward` (and its handle removed there) breaks the graph, and so
does each call of a submodule `__init__` gave a backward hook. A forward hook registered in
`__init__` is fine."""
import torch
from torch import nn


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = nn.Linear(4, 2)
        self.feats = {}
        self.dec.register_forward_hook(lambda module, args, out: None)

    def forward(self, x):
        handle = self.enc.register_forward_hook(lambda module, args, out: None)  # <- FG421 GB0467
        h = self.enc(x).relu()
        handle.remove()  # <- FG421 GB0013
        return self.dec(h)


class GradMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 4)
        self.fc2 = nn.Linear(4, 1)
        self.fc1.register_full_backward_hook(lambda module, grad_in, grad_out: None)

    def forward(self, x):
        h = torch.relu(self.fc1(x))  # <- FG421 GB0083
        return self.fc2(h)


def fullgraph_example():
    return [(Probe(), (torch.randn(2, 4),), {}), (GradMonitor(), (torch.randn(2, 4),), {})]
