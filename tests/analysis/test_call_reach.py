"""Functions reached only through calls that never run in compiled code (stable-baselines3's
`is_image_space` calling `is_image_space_channels_first` after `if not check_channels: return True`,
every caller leaving `check_channels` False) hold no finding."""

from __future__ import annotations

from fullgraph.engine import analyze

CODE = """\
import torch
from torch import nn


def helper(x, check=False):
    if not check:
        return x
    return strict(x)


def strict(x):
    if x.sum() > 0:
        return x
    return -x


class M(nn.Module):
    def forward(self, x):
        return {call}
"""


def lines(call: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in analyze(CODE.format(call=call))]


def test_a_function_called_only_after_an_early_return_every_call_takes_holds_no_finding():
    assert lines("helper(x)") == []
    assert lines("helper(x, check=False)") == []


def test_it_keeps_its_findings_when_a_call_may_pass_the_test():
    assert lines("helper(x, check=True)") == [("FG101", 12)]
    assert lines("helper(x, check=self.training)") == [("FG101", 12)]


def test_another_call_that_runs_keeps_it_alive():
    assert lines("helper(x) + strict(x)") == [("FG101", 12)]
