# expect: clean
"""After `if mask is not None and is_compiling(): return ...`, the mask is None wherever Dynamo
traces on, so `mask is None or mask.all()` never reads a tensor there."""
import torch


def can_skip(mask: torch.Tensor | None) -> bool:
    if mask is not None and torch.compiler.is_compiling():
        return False
    if mask is None or mask.all():
        return True
    return False


@torch.compile
def attend(x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    if can_skip(mask):
        return x * 2
    return x.masked_fill(~mask, 0.0)


def fullgraph_example():
    return attend, (torch.randn(4), torch.tensor([True, False, True, True])), {}
