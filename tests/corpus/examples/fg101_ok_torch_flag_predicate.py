# expect: clean
"""A global flag read through torch's predicate functions (`are_*`, `is_*_enabled`) is a Python
bool, not a tensor; Dynamo reads these two while tracing: no break (torchmetrics' deterministic
`bincount` fallback)."""
import torch


@torch.compile
def counts(x: torch.Tensor) -> torch.Tensor:
    if torch.are_deterministic_algorithms_enabled() or not torch.is_grad_enabled():
        return torch.zeros(4).scatter_add_(0, x, torch.ones_like(x, dtype=torch.float))
    return torch.zeros(4).index_add_(0, x, torch.ones_like(x, dtype=torch.float))


def fullgraph_example():
    return counts, (torch.tensor([0, 1, 1, 3]),), {}
