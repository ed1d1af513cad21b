# expect: FG105
"""`and` between two tensor truth values forces a Python bool."""
import torch


@torch.compile
def in_range(x: torch.Tensor) -> torch.Tensor:
    ok = (x > -5).all() and (x < 5).all()  # <- FG105 GB0170
    return x * ok


def fullgraph_example():
    return in_range, (torch.randn(4),), {}
