# expect: clean
"""An early stop that a helper turns off while compiling (kornia's distance transform): the rounds
to check are `()` under Dynamo, so the tensor test after `in` is never evaluated."""
import torch


def _can_stop(x: torch.Tensor) -> bool:
    if torch.jit.is_tracing() or torch.compiler.is_compiling():
        return False
    return not x.requires_grad


@torch.compile
def relax(x: torch.Tensor) -> torch.Tensor:
    stop_checks = (2, 4) if _can_stop(x) else ()
    for i in range(6):
        mask = x > 1
        if i + 1 in stop_checks and not bool(mask.any()):
            break
        x = torch.where(mask, x / 2, x)
    return x


def fullgraph_example():
    return relax, (torch.tensor([8.0, 3.0, 0.5]),), {}
