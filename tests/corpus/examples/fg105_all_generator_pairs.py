# expect: FG105
"""`all()` over a generator of comparisons between a tensor's elements (a helper checking that
time steps increase) takes each comparison's truth value in turn."""
import torch


def is_strictly_increasing(ts):
    return all(a < b for a, b in zip(ts[:-1], ts[1:]))  # <- FG105 GB0170


@torch.compile
def integrate(y0: torch.Tensor, ts: torch.Tensor) -> torch.Tensor:
    if not is_strictly_increasing(ts):
        raise ValueError("ts must be strictly increasing")
    return y0 * ts[-1]


def fullgraph_example():
    return integrate, (torch.randn(3), torch.arange(4.0)), {}
