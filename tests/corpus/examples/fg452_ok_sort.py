# expect: clean
"""Sorting and bincount with a fixed length keep static shapes."""
import torch


@torch.compile
def counts(ids: torch.Tensor) -> torch.Tensor:
    ordered = torch.sort(ids).values
    return torch.nn.functional.one_hot(ordered, num_classes=4).sum(0)


def fullgraph_example():
    return counts, (torch.tensor([1, 2, 2, 3]),), {}
