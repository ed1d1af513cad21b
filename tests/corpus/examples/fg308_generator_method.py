# expect: FG308
"""Reseeding a generator the caller passes in (a parameter annotated `torch.Generator`)."""
import torch


@torch.compile
def reseeded(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    g.manual_seed(0)  # <- FG308 GB7650
    return x.sin() + 1


def fullgraph_example():
    return reseeded, (torch.randn(4), torch.Generator()), {}
