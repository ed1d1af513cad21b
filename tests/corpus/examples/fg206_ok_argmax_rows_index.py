# expect: clean
"""`argmax(-1)` of a matrix is a tensor of indices, not a 0-d one: indexing with it is tensor
indexing Dynamo traces."""
import torch
from torch import Tensor


@torch.compile
def best_scores(scores: Tensor, values: Tensor) -> Tensor:
    best = scores.argmax(-1)
    return values[best] * 2


def fullgraph_example():
    return best_scores, (torch.randn(3, 5), torch.randn(5)), {}
