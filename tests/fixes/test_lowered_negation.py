"""`flag = not t` then `if flag:`: fix-all lowers the negation and predicates the `if`, in one graph
with the original's results; the lowering alone, which would only move the break, is not applied."""

from __future__ import annotations

import importlib.util

import pytest
from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

SOURCE = '''import torch
from torch import nn


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        flag = not x.all()
        if flag:
            x = x * 2
        return x + 1
'''


def test_fix_all_finishes_the_rewrite_and_leaves_no_finding():
    fixed = fix_all(SOURCE, "m.py").source
    assert "flag = torch.logical_not(x.all())" in fixed and "torch.where(flag" in fixed
    assert analyze(fixed, "m.py") == []


@pytest.mark.torch
def test_fixed_module_compiles_in_one_graph_with_the_same_results(tmp_path):
    torch = pytest.importorskip("torch")
    modules = []
    for name, text in (("neg_in", SOURCE), ("neg_out", fix_all(SOURCE, "m.py").source)):
        (tmp_path / f"{name}.py").write_text(text)
        spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module.M())
    original, fixed = modules
    for x in (torch.tensor([1.0, 2.0]), torch.tensor([0.0, 2.0])):
        torch._dynamo.reset()
        with pytest.raises((torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError)):  # the original breaks
            torch.compile(original, backend="eager", fullgraph=True)(x)
        torch._dynamo.reset()
        got = torch.compile(fixed, backend="eager", fullgraph=True)(x)
        assert torch.equal(got, original(x)) and torch.equal(fixed(x), original(x))
