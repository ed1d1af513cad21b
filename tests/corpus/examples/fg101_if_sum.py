# expect: FG101
"""`if` on a tensor reduction: Dynamo cannot know the branch at trace time."""
import torch


@torch.compile
def shift(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0:  # <- FG101 GB0170
        return x - 1
    return x + 1


def fullgraph_example():
    return shift, (torch.randn(8),), {}
