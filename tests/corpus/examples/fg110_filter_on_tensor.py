# expect: FG110
"""Thresholds kept where recall is high enough, filtered element by element (torchmetrics'
precision-at-fixed-recall shape): each filter is a data-dependent branch."""
import torch


@torch.compile
def precision_at_recall(precision: torch.Tensor, recall: torch.Tensor, min_recall: float) -> torch.Tensor:
    kept = [p for p, r in zip(precision, recall) if r >= min_recall]  # <- FG110 GB0170
    return torch.stack(kept).max() if kept else precision.new_zeros(())


def fullgraph_example():
    return precision_at_recall, (torch.tensor([0.2, 0.5, 0.9]), torch.tensor([1.0, 0.7, 0.1]), 0.5), {}
