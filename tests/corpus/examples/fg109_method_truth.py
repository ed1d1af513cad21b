# expect: FG109
"""A dtype test missing its call (torchmetrics' mean absolute error): the bound method is always
true, and Dynamo cannot take its truth value on a tensor the graph computed."""
import torch


def _abs_error_update(preds: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    preds = preds if preds.is_floating_point else preds.float()  # <- FG109 GB4841
    return (preds - target).abs().sum()


@torch.compile
def mean_abs_error(preds: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return _abs_error_update(preds * 1.0, target) / target.numel()


def fullgraph_example():
    return mean_abs_error, (torch.randn(4), torch.randn(4)), {}
