# expect: FG451
"""`nonzero` per expert in a loop: the whole frame is skipped (GB7000)."""
import torch


@torch.compile
def per_expert(choice: torch.Tensor) -> torch.Tensor:
    total = torch.zeros(())
    for e in range(2):
        total = total + (choice == e).nonzero().sum()  # <- FG451 GB0036 GB7000
    return total


def fullgraph_example():
    return per_expert, (torch.tensor([0, 1, 1, 0]),), {}
