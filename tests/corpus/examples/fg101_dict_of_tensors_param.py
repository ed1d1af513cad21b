# expect: FG101
"""A parameter annotated as a dict of tensors: its values are tensors, the dict is not."""
import torch


@torch.compile
def adjust(x: torch.Tensor, params: dict[str, torch.Tensor]) -> torch.Tensor:
    if params:
        x = x + 1
    if params["gain"] > 1:  # <- FG101 GB0170
        return x * params["gain"]
    return x


def fullgraph_example():
    return adjust, (torch.randn(4), {"gain": torch.tensor(2.0)}), {}
