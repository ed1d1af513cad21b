"""An output call that starts or ends a longer branch of an ``if`` on a tensor: its deferral takes
the ``if``'s test along only where the rest of the ``if`` then predicates."""

from __future__ import annotations

import textwrap

import pytest
from fullgraph.engine import analyze
from fullgraph.fixes import fix_all, fixes_for
from fullgraph.fixes.deferral import SPLIT_TITLE

HEAD = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.lin = nn.Linear(3, 3)\n\n    def forward(self, x):\n"
        "        y = self.lin(x)\n")
HINT = "defers it with this `if`'s test"


def source_of(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return y * 2\n"


def split_offered(source: str) -> bool:
    output = next(f for f in analyze(source, "m.py") if f.code == "FG301")
    return any(fix.title == SPLIT_TITLE for fix in fixes_for(source, output))


def if_reason(source: str) -> str:
    return next(f for f in analyze(source, "m.py") if f.code == "FG101").fix_blocked or ""


def test_a_leading_print_splits_and_fix_all_removes_both_findings():
    source = source_of("if torch.isnan(y).any():\n    print('nan', y.shape)\n    y = torch.nan_to_num(y)\n"
                       "else:\n    y = y + 1\n")
    assert split_offered(source)
    assert HINT in if_reason(source)
    result = fix_all(source, "m.py")
    assert result.applied == 2 and not analyze(result.source, "m.py")
    assert "torch.where(cond.bool(), torch.nan_to_num(y), y + 1)" in result.source


@pytest.mark.parametrize("body", [
    # a trailing print of what the branch computed: after predication it would see both sides' values
    "if torch.isnan(y).any():\n    y = torch.nan_to_num(y)\n    print('replaced', y)\n",
    # the rest would not predicate: `zeros_like` carries no gradient where `y` does
    "if torch.isnan(y).any():\n    print('nan')\n    y = torch.zeros_like(y)\n",
    # a Python operand stays a real `if`: no boolean tensor stands for the whole test
    "if self.training and torch.isnan(y).any():\n    print('nan')\n    y = torch.nan_to_num(y)\n",
    # an `elif` has no place for the test before it
    "if y.sum() > 100:\n    y = y / 2\nelif torch.isnan(y).any():\n    print('nan')\n    y = torch.nan_to_num(y)\n",
    # another output call next to it: the rest would still print on both sides
    "if torch.isnan(y).any():\n    print('nan')\n    print('again')\n    y = torch.nan_to_num(y)\n",
    # the call shares its line with the rest
    "if torch.isnan(y).any():\n    print('nan'); y = torch.nan_to_num(y)\n",
])
def test_no_split_where_the_if_would_still_break(body):
    source = source_of(body)
    assert not split_offered(source)
    assert HINT not in if_reason(source)
