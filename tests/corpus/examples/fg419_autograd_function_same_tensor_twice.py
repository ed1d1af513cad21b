# expect: FG419
"""One tensor passed as two inputs of an autograd Function (a mask for both sides, as YOSO's
attention does): with an input that requires grad, Dynamo breaks there."""
import torch


class Cumulate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, query_mask, key_mask, values):
        return values * query_mask.sum() + key_mask.mean()

    @staticmethod
    def backward(ctx, grad):
        return None, None, grad


@torch.compile
def attend(mask: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    shared = Cumulate.apply(mask, mask, values)  # <- FG419 GB6297
    return Cumulate.apply(mask, mask.clone(), shared)


def fullgraph_example():
    return attend, (torch.ones(4), torch.randn(4, requires_grad=True)), {}
