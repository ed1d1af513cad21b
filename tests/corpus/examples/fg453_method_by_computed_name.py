# expect: FG453
"""A base class picks the method to run by a computed name (`getattr(self, "{}_reduction".format(kind))`):
the subclass's override it may pick runs in compiled code, and its boolean-mask indexing breaks."""
import torch
from torch import nn


class BaseReducer(nn.Module):
    def forward(self, losses, kind="element"):
        reduction = self.get_reduction_func(kind)
        return reduction(losses)

    def get_reduction_func(self, kind):
        return getattr(self, "{}_reduction".format(kind))

    def element_reduction(self, losses):
        raise NotImplementedError


class ThresholdReducer(BaseReducer):
    def __init__(self, low=0.0):
        super().__init__()
        self.low = low

    def element_reduction(self, losses):
        kept = losses[losses > self.low]  # <- FG453 GB0036
        return kept.mean()


def fullgraph_example():
    return ThresholdReducer(), (torch.randn(8),), {}
