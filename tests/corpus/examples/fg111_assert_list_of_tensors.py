# expect: FG111
"""`assert` on a list of tensors is no tensor check Dynamo can lower: it gives up on the function."""
import torch


@torch.compile
def mean_of(xs: list[torch.Tensor], w: torch.Tensor) -> torch.Tensor:
    assert xs  # <- FG111 GB0112
    return (xs[0] + xs[-1]) * w


def fullgraph_example():
    return mean_of, ([torch.randn(3), torch.randn(3)], torch.randn(3)), {}
