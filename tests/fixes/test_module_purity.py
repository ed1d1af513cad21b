"""Submodule and helper calls in predicated branches: pure ones run on both sides, the rest decline."""

from __future__ import annotations

import textwrap

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

LAYER = """
class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
{init}
    def forward(self, x: torch.Tensor):
{body}
"""

LOOP = """
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer() for _ in range(2)])
        self.layerdrop = 0.5

    def forward(self, x: torch.Tensor):
        for layer in self.layers:
            to_drop = False
            if self.training:
                p = torch.rand([])
                if p < self.layerdrop:
                    to_drop = True
{after}
        return x
"""
RUN = "            if not to_drop:\n                x = layer(x)\n"


def source(init: str, body: str, after: str = RUN) -> str:
    layer = LAYER.format(init=textwrap.indent(init, " " * 8), body=textwrap.indent(body, " " * 8))
    return "import torch\nfrom torch import nn\n" + layer + LOOP.format(after=after)


def layerdrop_finding(text: str):
    return next(f for f in analyze(text, "m.py") if f.code == "FG101" and "p < self.layerdrop" in f.message)


def test_pure_layer_is_predicated():
    text = source("self.act = nn.GELU()\n", "return self.act(x) * 2 + x\n")
    assert layerdrop_finding(text).fix_blocked is None
    fixed = fix_all(text, "m.py").source
    assert "to_drop = p < self.layerdrop\n" in fixed
    assert "x = torch.where(torch.as_tensor(to_drop), x, layer(x))" in fixed
    assert "if not to_drop" not in fixed


@pytest.mark.parametrize("init, body, reason", [
    ("self.drop = nn.Dropout(0.1)\n", "return self.drop(self.fc(x))\n", "(`Dropout`), which draws random numbers"),
    ("", "return nn.functional.dropout(self.fc(x), p=0.1, training=self.training)\n", "draws random numbers in training"),
    ("self.bn = nn.BatchNorm1d(4)\n", "return self.bn(self.fc(x))\n", "running statistics"),
    ("self.act = ACT2FN['gelu']\n", "return self.act(self.fc(x))\n", "`self.act`, which is not known to be pure"),
    ("", "self.last = x\nreturn self.fc(x)\n", "assigns `self.last`"),
    ("", "x += 1\nreturn self.fc(x)\n", "updates `x` in place"),
    ("", "return self.fc(x), x\n", "does not return a single tensor"),
    ("", "print(x)\nreturn self.fc(x)\n", "`print`, which is not known to be pure"),
    ("self.emb = nn.Embedding(4, 4)\n", "return self.emb(x)\n", "not known to be pure"),
    # a skipped layer's parameters get no gradient; run on both sides they would get zeros
    ("self.norm = nn.LayerNorm(4)\n", "return self.norm(x)\n", "(`LayerNorm`), which has parameters"),
    ("self.scale = nn.Parameter(torch.ones(4))\n", "return x * 2\n", "(`Layer`), which has parameters"),
])
def test_impure_layer_declines_with_reason(init, body, reason):
    blocked = layerdrop_finding(source(init, body)).fix_blocked or ""
    assert "run it on both sides" in blocked and reason in blocked


def test_flag_read_by_another_shape_declines():
    """Predicating only the flag would move the break to `if to_drop:`."""
    after = "            if to_drop:\n                x = x * 1\n            else:\n                x = layer(x)\n"
    blocked = layerdrop_finding(source("", "return self.fc(x)\n", after)).fix_blocked or ""
    assert "would break there instead" in blocked


HELPER = """import torch
from torch import nn


def scale(x):
    return torch.tanh(x) * 2


def noisy(x):
    print(x)
    return x


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Sequential(nn.ReLU(), nn.Tanh())
        self.lin = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor):
        if x.sum() > 0:
            x = {call}
        return x
"""


@pytest.mark.parametrize("call, reason", [
    ("scale(self.proj(x))", "may not have the shape"),  # pure: only its result's shape stops it
    ("noisy(x)", "`noisy` calls `print`"),
    ("scale(self.lin(x))", "(`Linear`), which has parameters"),
])
def test_helpers_and_sequential(call, reason):
    finding = next(f for f in analyze(HELPER.format(call=call), "m.py") if f.code == "FG101")
    assert reason in (finding.fix_blocked or "")


def test_module_level_receivers_are_not_tensor_methods():
    """`logger.warning_once(...)` inside a layer is not a pure tensor method."""
    text = source("", "logger.warning_once('skipped')\nreturn self.fc(x)\n").replace(
        "from torch import nn\n", "from torch import nn\nimport logging\nlogger = logging.getLogger(__name__)\n", 1)
    blocked = layerdrop_finding(text).fix_blocked or ""
    assert "`logger.warning_once`, which is not known to be pure" in blocked
