# expect: FG452
"""`torch.unique` of token ids."""
import torch


@torch.compile
def vocab(ids: torch.Tensor) -> torch.Tensor:
    h = ids * 2
    return torch.unique(h) + 1  # <- FG452 GB0036


def fullgraph_example():
    return vocab, (torch.tensor([1, 2, 2, 3]),), {}
