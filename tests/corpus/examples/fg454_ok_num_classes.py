# expect: clean
"""`one_hot` with `num_classes` has a static shape."""
import torch
import torch.nn.functional as F


@torch.compile
def encode(labels: torch.Tensor) -> torch.Tensor:
    return F.one_hot(labels % 3, num_classes=3) * 2


def fullgraph_example():
    return encode, (torch.tensor([0, 1, 2, 4]),), {}
