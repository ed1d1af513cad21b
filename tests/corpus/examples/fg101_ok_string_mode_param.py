# expect: clean
"""A compiled function's mode compared with string literals: never a tensor test."""
import torch


@torch.compile
def act(x, style):
    if style == "relu":
        return x.relu()
    elif style in ("tanh", "sigmoid"):
        return x.tanh()
    return x + 1


def fullgraph_example():
    return [(act, (torch.randn(4), "relu"), {}), (act, (torch.randn(4), "tanh"), {}), (act, (torch.randn(4), "id"), {})]
