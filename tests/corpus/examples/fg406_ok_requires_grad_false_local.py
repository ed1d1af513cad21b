# expect: clean
"""`requires_grad_(False)` on noise the function made (a VAE's reparameterisation): Dynamo traces
it; only a graph input that requires grad breaks there."""
import torch
from torch import nn


class Reparameterize(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z_mean = self.mean(x)
        noise = torch.randn_like(z_mean)
        noise.requires_grad_(False)
        return z_mean + noise


def fullgraph_example():
    torch.manual_seed(0)
    return Reparameterize().train(), (torch.randn(2, 4),), {}
