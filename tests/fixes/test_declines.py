"""``decline_reason``: the reasons a finding's fix is blocked, straight from the engine."""

from __future__ import annotations

import textwrap

import pytest

from fullgraph.engine import analyze

HEAD = "import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer('buf', torch.zeros(3))\n\n    def forward(self, x: torch.Tensor, items=None):\n"


def blocked(body: str, code: str) -> str | None:
    source = HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)
    found = [f for f in analyze(source, "m.py") if f.code == code]
    assert found, f"no {code} finding"
    return found[0].fix_blocked


@pytest.mark.parametrize("body, reason", [
    ("if x.sum() > 0:\n    y = self.proj(x)\nelse:\n    y = x\nreturn y\n", "calls `self.proj`, which would run on both sides"),
    ("y = x\nif x.sum() > 0:\n    print(x)\n    y = x * 2\nreturn y\n", "calls `print`"),
    ("if x.sum() > 0:\n    x.add_(1)\nreturn x\n", "calls `x.add_`"),
    ("y = x\nif x.sum() > 0:\n    y[0] = 1\nreturn y\n", "mutates `y[0]` in place"),
    ("y = x\nif x.sum() > 0:\n    y += 1\nreturn y\n", "updates `y` in place"),
    ("if x.sum() > 0:\n    y = None\nelse:\n    y = x\nreturn y\n", "None"),
    ("if x.sum() > 0:\n    y = [x]\nelse:\n    y = [x, x]\nreturn y\n", "not a tensor"),
    ("i = x.argmax()\nif x.sum() > 0:\n    y = x[i]\nelse:\n    y = x[0]\nreturn y\n", "data-dependent index"),
    ("if x.sum() > 0:\n    return x\ny = x * 2\nreturn y\n", "falls through into more code"),
    ("if x.sum() > 0:\n    y = x\nreturn x\n", "`y` is only assigned on some paths"),
    ("if x.sum() > 0:\n    self.other = x\nreturn x\n", "not a local name or registered buffer"),
    ("a, b = x, x\nif x.sum() > 0:\n    a, b = b, a\nreturn a - b\n", "assigns several names from each other"),
    ("a = b = x\nif x.sum() > 0:\n    a, b = self.split(x)\nreturn a - b\n", "calls `self.split`"),
    ("a, b = x, x\nif x.sum() > 0:\n    a, self.other = x, x\nreturn a\n", "`self.other`, which is not a local name"),
])
def test_predication_declines_with_reason(body, reason):
    assert reason in (blocked(body, "FG101") or "")


def test_predication_takes_buffers_and_bound_names():
    assert blocked("if x.sum() > 0:\n    self.buf = x\nreturn x\n", "FG101") is None
    assert blocked("y = x\nif x.sum() > 0:\n    y = x * 2\nreturn y\n", "FG101") is None
    assert blocked("a, b = x, x\nif x.sum() > 0:\n    a, (b, self.buf) = x * 2, (x + 1, x)\nreturn a\n", "FG101") is None


def test_defer_declines_when_result_is_used():
    assert "result is used" in blocked("n = print(x)\nreturn x\n", "FG301")


def test_defer_declines_in_try_block():
    assert "`try` block" in blocked("try:\n    print(x)\nexcept ValueError:\n    pass\nreturn x\n", "FG301")


OUTER = "\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = M()\n\n" \
        "    def forward(self, x):\n        return self.m(x) * 2\n"


def test_defer_declines_in_a_forward_another_forward_calls():
    # M.forward is analysed as Outer.forward's helper: its epilogue would sit inside Outer's graph.
    source = HEAD + textwrap.indent("y = x * 2\nprint(y)\nreturn y\n", " " * 8) + OUTER
    found = [f for f in analyze(source, "m.py") if f.code == "FG301"]
    assert len(found) == 1 and "not in the compiled entry `Outer.forward`" in found[0].fix_blocked


def test_trap_declines_from_clause_and_try():
    assert "`from` clause" in blocked("if x.sum() < 0:\n    raise ValueError('bad') from None\nreturn x\n", "FG107")
    body = "try:\n    if x.sum() < 0:\n        raise ValueError('bad')\nexcept ValueError:\n    pass\nreturn x\n"
    assert "inside a `try`" in blocked(body, "FG107")


def test_keep_tensor_declines_python_use():
    assert "Python number" in blocked("n = x.sum().item()\nreturn x.view(-1)[: int(n)]\n", "FG201")
