"""The snippet module the rule tests wrap their examples in."""

import textwrap

PRELUDE = '''\
import copy, functools, logging, math, random, sys, time, warnings, zlib
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


@torch.compiler.disable
def debug_dump(t):
    print(t)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.rnn = nn.LSTM(4, 4)
        self.scale = nn.Parameter(torch.ones(4))
        self.register_buffer("bias", torch.zeros(4))
        self.hidden = 4

    def forward(self, x: torch.Tensor, mask=None, use_cache=None):
'''


def module_source(body: str) -> str:
    return PRELUDE + textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8) + "\n"
