# expect: FG105
"""`or` between tensor truth values in an assignment."""
import torch


@torch.compile
def outliers(x: torch.Tensor):
    h = x * 2
    flag = (h > 5).any() or (h < -5).any()  # <- FG105 GB0170
    return h, flag


def fullgraph_example():
    return outliers, (torch.randn(4),), {}
