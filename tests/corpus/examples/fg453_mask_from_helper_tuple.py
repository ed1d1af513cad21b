# expect: FG453
"""A helper returns `(padded, mask)`; the caller unpacks it and selects the real rows with the mask."""
import torch


def pad_rows(x: torch.Tensor, rows: int):
    out = x.new_zeros(rows, x.size(1))
    out[: x.size(0)] = x
    mask = torch.zeros(rows, dtype=torch.bool)
    mask[: x.size(0)] = True
    return out, mask


@torch.compile
def real_rows(x: torch.Tensor) -> torch.Tensor:
    padded, mask = pad_rows(x, 8)
    return padded[mask] * 2  # <- FG453 GB0036


def fullgraph_example():
    return real_rows, (torch.randn(5, 3),), {}
