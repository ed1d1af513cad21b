# expect: clean
"""An f-string or `str.format` of a tensor that is stored and passed on, never read as text
while tracing: Dynamo builds it lazily, without a break."""
import torch


def check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    note = "scale of {}".format(x)
    check(True, f"bad values {x}")
    return x * 2, note


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
