# expect: FG206
"""Equal error rate: the threshold where the two rates cross, picked by `argmin()` without `dim`
(a 0-d tensor) and used as an index, so Dynamo must read its value (torchmetrics' EER)."""
import torch
from torch import Tensor


@torch.compile
def equal_error_rate(fpr: Tensor, tpr: Tensor) -> Tensor:
    diff = fpr - (1 - tpr)
    idx = torch.argmin(torch.abs(diff))
    return (fpr[idx] + (1 - tpr[idx])) / 2  # <- FG206 GB0033


def fullgraph_example():
    return equal_error_rate, (torch.linspace(0, 1, 8), torch.linspace(0, 1, 8).flip(0)), {}
