"""Branch-local temporaries: which move before a predicated branch, and why the others don't."""

from __future__ import annotations

import textwrap

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

HEAD = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.norm = nn.LayerNorm(4)\n        self.proj = MyProj()\n\n    def forward(self, x: torch.Tensor, y: torch.Tensor):\n")


def source(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)


def blocked(body: str) -> str | None:
    found = [f for f in analyze(source(body), "m.py") if f.code == "FG101"]
    assert found, "no FG101 finding"
    return found[0].fix_blocked


GUARD = "if {test}:\n    c = {value}\n    x = torch.clamp(x, min=-c, max=c)\nreturn x\n"


@pytest.mark.parametrize("test, value, before", [
    ("x.dtype == torch.float16 and not torch.isfinite(x).all()", "torch.finfo(x.dtype).max - 1000", "x = x + 1\n"),
    ("not torch.isfinite(x).all()", "torch.finfo(x.dtype).max - 1000", "x = self.norm(x)\n"),
    ("x.isinf().any()", "65504 - 1000", ""),  # an integer bound: no promotion
])
def test_temporary_moves_before_the_branch(test, value, before):
    body = before + GUARD.format(test=test, value=value)
    assert blocked(body) is None
    fixed = fix_all(source(body), "m.py").source
    assert f"c = {value}\n" in fixed and "torch.where(" in fixed
    if test.startswith("x.dtype"):
        assert "if x.dtype == torch.float16:\n" in fixed  # the Python part stays a real `if`


@pytest.mark.parametrize("test, value, before, reason", [
    # nothing proves `x` floating: torch.finfo would raise on the side not taken for an integer x
    ("not torch.isfinite(x).all()", "torch.finfo(x.dtype).max - 1000", "", "raises unless `x` is floating"),
    ("not torch.isfinite(x).all()", "torch.finfo(x.dtype).max - 1000", "x = self.proj(x)\n", "raises unless `x` is floating"),
    ("x.dtype == torch.float16 and not torch.isfinite(x).all()", "torch.finfo(y.dtype).max", "", "raises unless `y` is floating"),
    ("x.sum() > 0", "1000 / y.shape[0]", "", "could raise"),
    ("x.sum() > 0", "x.sum()", "", "is not known to be a Python number"),
    # a float bound makes an integer `x` float (type promotion), where the original kept it
    ("x.isinf().any()", "torch.finfo(torch.float16).max * 2", "", "may differ in dtype"),
])
def test_temporary_that_could_raise_or_is_a_tensor_declines(test, value, before, reason):
    assert reason in (blocked(before + GUARD.format(test=test, value=value)) or "")


def test_temporary_read_after_the_branch_stays():
    body = "if not torch.isfinite(x).all():\n    c = 3.0\n    x = torch.clamp(x, min=-c, max=c)\nreturn x + c\n"
    assert "`c` is only assigned on some paths" in (blocked(body) or "")


def test_each_guard_may_bind_the_same_temporary():
    """T5-style layers repeat the guard after each sub-layer, each with its own `clamp_value`."""
    guard = ("if x.dtype == torch.float16 and torch.isinf(x).any():\n"
             "    clamp_value = torch.finfo(x.dtype).max - 1000\n    x = torch.clamp(x, min=-clamp_value, max=clamp_value)\n")
    body = guard + "x = x * 2\n" + guard + "return x\n"
    result = fix_all(source(body), "m.py")
    assert result.applied == 2 and result.source.count("torch.where(") == 2


def test_temporary_read_elsewhere_before_its_own_assignment_stays():
    body = ("if x.dtype == torch.float16 and torch.isinf(x).any():\n    c = 3.0\n    x = torch.clamp(x, min=-c, max=c)\n"
            "if y.dtype == torch.float16:\n    y = y * c\nreturn x + y\n")
    assert "`c` is only assigned on some paths" in (blocked(body) or "")
