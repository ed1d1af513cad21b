# expect: FG101
"""The same shape as `fg101_ok_enum_param`, but the call passes a tensor: its test needs the value."""
import torch


@torch.compile
def pick(x, kind):
    if kind == 1:  # <- FG101 GB0170
        return x * 2
    return x - 1


def fullgraph_example():
    return [(pick, (torch.ones(4), torch.tensor(1)), {}), (pick, (torch.ones(4), torch.tensor(2)), {})]
