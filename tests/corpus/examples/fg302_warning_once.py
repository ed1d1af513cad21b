# expect: FG302
"""Hugging Face style `logger.warning_once` (an lru_cache'd Logger method)."""
import functools
import logging

import torch
from torch import nn


@functools.lru_cache(None)
def _warning_once(self, *args):
    self.warning(*args)


logging.Logger.warning_once = _warning_once
logger = logging.getLogger("fg302.hf")


class Attention(nn.Module):
    def forward(self, q, k, output_attentions=False):
        scores = q @ k.transpose(-1, -2)
        if output_attentions:
            logger.warning_once("output_attentions is not supported by this implementation")  # <- FG302 GB0291
        return scores.softmax(-1)


def fullgraph_example():
    return Attention(), (torch.randn(2, 4), torch.randn(2, 4)), {"output_attentions": True}
