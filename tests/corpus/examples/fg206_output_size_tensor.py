# expect: FG206
"""`repeat_interleave` given its total as a tensor (`output_size=ptr[-1]`): Dynamo reads the value."""
import torch


@torch.compile
def batched_arange(count: torch.Tensor) -> torch.Tensor:
    ptr = count.new_zeros(count.numel() + 1)
    torch.cumsum(count, dim=0, out=ptr[1:])
    batch = torch.arange(count.numel()).repeat_interleave(count, output_size=ptr[-1])  # <- FG206 GB0033
    return batch


def fullgraph_example():
    return batched_arange, (torch.tensor([3, 2, 4]),), {}
