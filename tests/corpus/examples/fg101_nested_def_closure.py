# expect: FG101
"""A closure defined in `forward` and called there (RAG's `_mask_pads`, T5-style helpers):
Dynamo inlines it, so a tensor condition in its body breaks the graph."""
import torch
from torch import nn


class Loss(nn.Module):
    def forward(self, logits: torch.Tensor, target: torch.Tensor):
        def mask_pads(ll):
            pad_mask = target.eq(0)
            if pad_mask.any():  # <- FG101 GB0170
                ll = ll.masked_fill(pad_mask, 0.0)
            return ll.sum()

        return mask_pads(logits.log_softmax(-1).gather(-1, target.unsqueeze(-1)).squeeze(-1))


def fullgraph_example():
    return Loss(), (torch.randn(2, 5, 7), torch.tensor([[1, 2, 0, 0, 3], [4, 0, 5, 6, 1]])), {}
