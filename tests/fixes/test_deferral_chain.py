"""Deferral from a helper to the compiled entry's epilogue: when it applies and why it declines."""

from __future__ import annotations

import ast

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fix_all, fixes_for

SOURCE = """import torch
from torch import nn


class M(nn.Module):
    def _note(self, x):
        print("total", x.sum())
        return x + 1

    def forward(self, x):
{body}
"""


def finding(body: str):
    text = SOURCE.format(body=body)
    return text, next(f for f in analyze(text, "m.py") if f.code == "FG301")


def test_helper_call_is_queued_and_replayed_by_the_entry():
    text, found = finding("        y = self._note(x)\n        return y * 2\n")
    assert "Dynamo still breaks at the replayed call" in found.fix_blocked  # a quick fix to choose
    assert fix_all(text, "m.py").source == text
    fixed = apply_edits(text, fixes_for(text, found)[0].edits)
    ast.parse(fixed)
    assert "_fullgraph_deferred.append(lambda x_sum_for_print=x.sum(): print(\"total\", x_sum_for_print))" in fixed
    assert "result = y * 2\n        replay_deferred()\n        return result" in fixed
    assert not [f for f in analyze(fixed, "m.py") if f.code == "FG301"]


@pytest.mark.parametrize("body, reason", [
    ("        y = self._note(x)\n        return self._note(y)\n", "is called from 2 places"),
    ("        return self._note(x)\n\n    def extra_repr(self):\n        return str(self._note(1))\n", "is called from 2 places"),
    ("        for t in x:\n            return self._note(t)\n        return x\n", "returns from inside a loop"),
])
def test_helper_deferral_declines_with_reason(body, reason):
    _, found = finding(body)
    assert reason in (found.fix_blocked or "")
