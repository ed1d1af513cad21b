# expect: FG454
"""`F.one_hot` without `num_classes`."""
import torch
import torch.nn.functional as F


@torch.compile
def encode(labels: torch.Tensor) -> torch.Tensor:
    h = labels % 3
    return F.one_hot(h) * 2  # <- FG454 GB0246


def fullgraph_example():
    return encode, (torch.tensor([0, 1, 2, 4]),), {}
