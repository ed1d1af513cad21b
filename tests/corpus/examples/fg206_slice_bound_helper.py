# expect: FG206
"""A WaveNet-style gate splits channels at a bound its caller passes as a tensor."""
import torch


def gate(x: torch.Tensor, channels):
    return torch.tanh(x[:, :channels]) * torch.sigmoid(x[:, channels:])  # <- FG206 GB0124


@torch.compile
def layer(x: torch.Tensor) -> torch.Tensor:
    half = torch.tensor(x.shape[1] // 2)
    return gate(x, half)


def fullgraph_example():
    return layer, (torch.randn(2, 8),), {}
