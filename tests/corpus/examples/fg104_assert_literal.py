# expect: clean
# checker-xfail: torch 2.13 lowers `assert <tensor>, "literal"` itself (no break), so FG104 fires where Dynamo does not break
"""Assert on a tensor condition with a string literal message."""
import torch


@torch.compile
def checked(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    assert x.sum() > -100, "sum out of range"
    return y * 2


def fullgraph_example():
    return checked, (torch.randn(4),), {}
