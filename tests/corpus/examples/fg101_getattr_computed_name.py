# expect: FG101
"""A first-batch flag kept as a buffer and read by a computed name (vector-quantize-pytorch's
`getattr(self, name + "_needs_init", False)`): a tensor, so the `if` is data-dependent."""
import torch
from torch import nn


class RunningAffine(nn.Module):
    def __init__(self, dim: int = 4):
        super().__init__()
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("mean_needs_init", torch.tensor(True))

    def update_with_decay(self, name: str, new_value: torch.Tensor, decay: float) -> None:
        needs_init = getattr(self, name + "_needs_init", False)
        if needs_init:  # <- FG101 GB0170
            self.register_buffer(name + "_needs_init", torch.tensor(False))
            setattr(self, name, new_value.detach())
            return
        setattr(self, name, getattr(self, name) * decay + new_value.detach() * (1 - decay))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.update_with_decay("mean", x.mean(0), 0.9)
        return x - self.mean


def fullgraph_example():
    return RunningAffine(), (torch.randn(3, 4),), {}
