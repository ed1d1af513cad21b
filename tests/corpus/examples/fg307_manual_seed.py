# expect: FG307
"""Re-seeding inside the region."""
import torch


@torch.compile
def sample(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    torch.manual_seed(0)  # <- FG307 GB0007
    return h * torch.rand(4)


def fullgraph_example():
    return sample, (torch.randn(4),), {}
