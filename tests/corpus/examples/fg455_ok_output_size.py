# expect: clean
"""The same expansion with the padded length given as `output_size`, and a repeat by a Python int:
both have static output shapes."""
import torch
from torch import nn


class LengthRegulator(nn.Module):
    def __init__(self, max_frames: int = 6):
        super().__init__()
        self.max_frames = max_frames

    def forward(self, tokens: torch.Tensor, durations: torch.Tensor):
        frames = torch.repeat_interleave(tokens, durations, dim=0, output_size=self.max_frames)
        return frames * 2 + tokens.repeat_interleave(2, dim=0).sum()


def fullgraph_example():
    return LengthRegulator(), (torch.randn(3, 4), torch.tensor([1, 2, 3])), {}
