# expect: FG107
"""Raise when the input has NaNs: a data-dependent guard."""
import torch


@torch.compile
def safe_log(x: torch.Tensor) -> torch.Tensor:
    if torch.isnan(x).any():  # <- FG107 GB0170
        raise ValueError("NaN in input")
    return torch.log(x.abs() + 1)


def fullgraph_example():
    return safe_log, (torch.randn(4),), {}
