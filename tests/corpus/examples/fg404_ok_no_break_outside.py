# expect: clean
"""`graph_break()` in a function that the compiled region never calls."""
import torch


def debug_split(x):
    torch._dynamo.graph_break()
    return x


@torch.compile
def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


def fullgraph_example():
    return double, (torch.randn(4),), {}
