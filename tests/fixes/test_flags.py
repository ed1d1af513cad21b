"""Scalar reads (`.item()`, `bool()`) in asserts and flags: kept as tensors only when it is safe."""

from __future__ import annotations

import textwrap

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

HEAD = "import numpy as np\nimport torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def forward(self, x: torch.Tensor, mask: torch.Tensor):\n"


def source(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)


def finding(body: str, code: str = "FG201"):
    return next(f for f in analyze(source(body), "m.py") if f.code == code)


@pytest.mark.parametrize("body, expected, unsafe", [
    ("assert x.max().item() <= 3\nreturn x\n", "torch._assert_async(x.max() <= 3)", True),
    ("assert torch.all(x >= 0).item(), 'negative'\nreturn x\n", "torch._assert_async(torch.all(x >= 0).bool(), 'negative')",
     True),
    ("flag = mask.any().item()\nif not flag:\n    x = x * 2\nreturn x\n", "x = torch.where(torch.logical_not(flag.bool()), x * 2, x)",
     False),
])
def test_scalar_read_is_kept_as_a_tensor(body, expected, unsafe):
    """A flag is kept by fix-all; an assert is lowered only with the unsafe fixes (it raises
    RuntimeError instead of AssertionError)."""
    found = finding(body)
    if unsafe:
        assert "raises RuntimeError where the code raised AssertionError" in found.fix_blocked
        assert found.data["unsafe_fix"] and fix_all(source(body), "m.py").source == source(body)
    else:
        assert found.fix_blocked is None
    fixed = fix_all(source(body), "m.py", unsafe=unsafe).source
    assert expected in fixed and ".item()" not in fixed


@pytest.mark.parametrize("body, reason", [
    # numpy: `.item()` of a non-tensor must stay (the facts do not say tensor)
    ("eps = np.random.rand(1).item()\nif eps:\n    x = x * 2\nreturn x\n", "is NumPy code"),
    ("assert np.random.rand(1).item() < 2\nreturn x\n", "is NumPy code"),
    ("flag = mask.any().item()\nif flag:\n    x = self.proj(x)\nreturn x\n", "`flag` is tested by an `if` that can't be predicated"),
    ("flag = mask.any().item()\nif flag:\n    x = x * 2\nreturn x, flag\n", "used as a Python number"),
    ("assert x.max().item() <= 3, f'{x}'\nreturn x\n", "not a string literal"),
])
def test_scalar_read_declines_with_reason(body, reason):
    found = [f for f in analyze(source(body), "m.py") if f.code == "FG201"]
    assert found and reason in (found[0].fix_blocked or "")
    assert fix_all(source(body), "m.py").source.count(".item()") == source(body).count(".item()")


def test_bool_outside_an_if_is_not_rewritten():
    body = "flag = bool(mask.any())\nreturn x, flag\n"
    assert "outside an `if` condition" in (finding(body, "FG105").fix_blocked or "")


def test_a_runtime_error_guard_is_unsafe_for_the_gpu_only():
    """`if t.any(): raise RuntimeError(...)` lowered to `torch._assert_async` raises the same type
    on the CPU; the reason names what changes: a GPU's device-side assert, later."""
    found = finding("if torch.isnan(x).any():\n    raise RuntimeError('nan')\nreturn x\n", code="FG107")
    assert found.fix_blocked.startswith("on a GPU `torch._assert_async` fails later, as a device-side assert, where "
                                        "the code raised RuntimeError at once")
