# expect: FG453
"""Indexing with a Python list of booleans: torch turns it into a mask (nonzero, a data-dependent
size); a store of a number through it stays static."""
import torch


@torch.compile
def circular_tails(derivatives: torch.Tensor, tails: list) -> torch.Tensor:
    circular = [t == "circular" for t in tails]
    out = derivatives.clone()
    out[..., circular, 0] = 0.0
    out[..., circular, -1] = out[..., circular, 0]  # <- FG453 GB0036
    return out


def fullgraph_example():
    return circular_tails, (torch.randn(2, 3, 5), ["linear", "circular", "circular"]), {}
