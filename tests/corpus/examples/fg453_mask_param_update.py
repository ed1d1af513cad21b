# expect: FG453
"""A `BoolTensor` parameter, moved to the data's device, selects the rows an update reads."""
import torch
from torch import nn


class Route(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, hidden: torch.Tensor, token_mask: torch.BoolTensor | None = None) -> torch.Tensor:
        hidden = hidden.clone()
        if token_mask is not None:
            token_mask = token_mask.to(hidden.device)
            hidden[token_mask] += 1.0  # <- FG453 GB0036
        return self.proj(hidden)


def fullgraph_example():
    return Route(), (torch.randn(5, 4), torch.tensor([True, False, True, False, True])), {}
