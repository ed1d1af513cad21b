# expect: FG201
"""`.item()` in a helper called from the compiled function."""
import torch


def temperature(logits):
    return logits.std().item()  # <- FG201 GB0124


@torch.compile
def soften(logits: torch.Tensor) -> torch.Tensor:
    return (logits / temperature(logits)).softmax(-1)


def fullgraph_example():
    return soften, (torch.randn(2, 4),), {}
