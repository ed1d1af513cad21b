"""A method compiled code calls only under a test on `self` starts with that test decided: its own
branch on the opposite test is dead in compiled code, until something may change `self`."""

from __future__ import annotations

import textwrap

import pytest

from fullgraph.config import Config
from fullgraph.engine import analyze

HEAD = """
import warnings
import torch
from torch import nn


class Adapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.merged = False
        self.disabled = False
        self.lin = nn.Linear(4, 4)
"""


def lines(body: str, config: Config | None = None) -> set[tuple[int, str]]:
    src = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    return {(f.line - HEAD.count("\n") - 1, f.code) for f in analyze(src, "a.py", config)}


UNMERGE = """
def unmerge(self):
    if not self.merged:
        warnings.warn("Already unmerged.")
        return
    self.merged = False
"""


def test_a_branch_every_caller_rules_out_is_not_reported():
    assert lines(UNMERGE + """
def forward(self, x):
    if self.disabled:
        if self.merged:
            self.unmerge()
    return self.lin(x)
""") == set()


def test_a_caller_without_the_test_keeps_the_finding():
    assert lines(UNMERGE + """
def forward(self, x):
    if self.merged:
        self.unmerge()
    else:
        self.unmerge()
    return self.lin(x)
""") == {(3, "FG303")}


WARNS_FIRST = """
def unmerge(self):
    if not self.merged:
        warnings.warn("Already unmerged.")
    self.merged = False
"""
CHANGES_FIRST = """
def unmerge(self):
    self.merged = False
    if not self.merged:
        warnings.warn("Already unmerged.")
"""


def forward_calling(*under_the_test: str) -> str:
    body = "".join(f"        {line}\n" for line in under_the_test)
    return f"\ndef forward(self, x):\n    if self.merged:\n{body}    return self.lin(x)\n"


@pytest.mark.parametrize("callee, caller, expected", [
    (WARNS_FIRST, forward_calling("self.reset()", "self.unmerge()") + "\ndef reset(self):\n    pass\n",
     {(3, "FG303")}),  # a call in the caller
    (CHANGES_FIRST, forward_calling("self.unmerge()"), {(4, "FG303")}),  # a store in the callee
    (WARNS_FIRST, forward_calling("for _ in range(2):", "    self.unmerge()"), {(3, "FG303")}),  # a loop
    (WARNS_FIRST, forward_calling("[self.unmerge() for _ in x]"), {(3, "FG303")}),  # a comprehension
], ids=["call-in-caller", "store-in-callee", "loop", "comprehension"])
def test_anything_that_may_change_self_in_between_keeps_the_finding(callee, caller, expected):
    assert lines(callee + caller) == expected


def test_a_method_compiled_on_its_own_keeps_the_finding():
    assert lines("""
    def unmerge(self):
        if not self.merged:
            warnings.warn("Already unmerged.")

    def forward(self, x):
        if self.merged:
            self.unmerge()
        return self.lin(x)
    """, Config(assume_compiled="all")) == {(3, "FG303")}


def test_a_flag_every_compiled_call_leaves_at_its_default_decides_the_branch():
    assert lines("""
    def merge(self, x, safe_merge=False, scale=None):
        if safe_merge and not torch.isfinite(x).all():
            raise ValueError("NaNs")
        if scale is not None:
            print(scale)
        return x

    def forward(self, x):
        return self.merge(self.lin(x))
    """) == set()


def test_a_flag_some_call_sets_or_the_body_rebinds_keeps_the_finding():
    set_by_a_call = lines("""
    def merge(self, x, safe_merge=False):
        if safe_merge and not torch.isfinite(x).all():
            raise ValueError("NaNs")
        return x

    def forward(self, x):
        return self.merge(self.lin(x)) + self.merge(x, safe_merge=True)
    """)
    rebound = lines("""
    def merge(self, x, safe_merge=False):
        safe_merge = safe_merge or x.dim() > 1
        if safe_merge and not torch.isfinite(x).all():
            raise ValueError("NaNs")
        return x

    def forward(self, x):
        return self.merge(self.lin(x))
    """)
    assert set_by_a_call == {(2, "FG107")}
    assert rebound == {(3, "FG107")}


def test_the_test_carries_through_a_method_that_only_delegates():
    delegates = lines("""
    def _unmerge(self):
        if not self.merged:
            warnings.warn("Already unmerged.")

    def unmerge(self):
        \"\"\"Unmerge.\"\"\"
        self._unmerge()

    def forward(self, x):
        if self.merged:
            self.unmerge()
        return self.lin(x)
    """)
    changes_first = lines("""
    def _unmerge(self):
        if not self.merged:
            warnings.warn("Already unmerged.")

    def unmerge(self):
        self.merged = False
        self._unmerge()

    def forward(self, x):
        if self.merged:
            self.unmerge()
        return self.lin(x)
    """)
    assert delegates == set()
    assert changes_first == {(3, "FG303")}


def test_a_call_spreading_star_args_leaves_the_flags_it_may_set_unknown():
    """`self.merge(*parts)`: what the spread sets is unknown to the literal reading of the call (it
    crashed on pyro's guides before: the literal reading is no (fact, guess) pair)."""
    assert lines("""
    def merge(self, x, safe_merge=False):
        if safe_merge and not torch.isfinite(x).all():
            raise ValueError("NaNs")
        return x

    def forward(self, x):
        parts = (self.lin(x), True)
        return self.merge(*parts)
    """) == {(2, "FG107")}
