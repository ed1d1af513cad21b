# expect: FG411
"""A training step compiled whole: the optimizer's `zero_grad` is on Dynamo's skip list, and its
`step` calls `torch._dynamo.graph_break()`; both break the graph. A learning-rate read is fine."""
import torch
from torch import nn


class Trainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 1)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=0.01)

    def forward(self, x, y):
        self.opt.zero_grad()  # <- FG411 GB0008
        loss = ((self.net(x) - y) ** 2).mean() * self.opt.param_groups[0]["lr"]
        return loss


class Stepper(nn.Module):
    def __init__(self, net: nn.Module):
        super().__init__()
        self.opt = torch.optim.SGD(net.parameters(), lr=0.1)

    def forward(self, x):
        self.opt.step()  # <- FG411 GB0025
        return x * 2


def fullgraph_example():
    net = nn.Linear(4, 1)
    net(torch.randn(2, 4)).sum().backward()
    return [(Trainer(), (torch.randn(3, 4), torch.randn(3, 1)), {}), (Stepper(net), (torch.randn(2),), {})]
