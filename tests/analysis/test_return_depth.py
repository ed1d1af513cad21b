"""What a helper returns is worked out to a bounded depth of helpers; the answer must not depend
on which other code asked for it first (it did: a fact worked out at one depth was reused at
another, so a file's findings changed with the order of its classes, and `check --jobs 2` gave
different fix checks from run to run)."""

from __future__ import annotations

import ast

from fullgraph.analysis.walker import MAX_RETURN_DEPTH
from fullgraph.config import Config
from fullgraph.engine import analyze


def _chain() -> str:
    """`f0` returns `f1()` ... and the last helper a tensor: `f1` needs MAX_RETURN_DEPTH levels."""
    last = MAX_RETURN_DEPTH
    helpers = [f"def f{i}():\n    return f{i + 1}()\n" for i in range(last)]
    return "import torch\nfrom torch import nn\n\n" + "\n".join(helpers) + f"\ndef f{last}():\n    return torch.ones(())\n"


def _module(name: str, helper: str) -> str:
    return (f"\nclass {name}(nn.Module):\n    def forward(self, x):\n        if {helper}():\n"
            "            return x\n        return x + 1\n")


def _classes_flagged(source: str) -> set[tuple[str, str]]:
    """(class, code) of each finding of `source`."""
    classes = [c for c in ast.parse(source).body if isinstance(c, ast.ClassDef)]
    return {(next(c.name for c in classes if c.lineno <= f.line <= c.end_lineno), f.code)
            for f in analyze(source.encode(), "m.py", Config())}


def test_a_helper_chain_gives_the_same_findings_whatever_asked_for_it_first():
    near, far = _module("Near", "f1"), _module("Far", "f0")  # f0 is one level too deep
    first = _classes_flagged(_chain() + near + far)
    second = _classes_flagged(_chain() + far + near)
    assert first == second == {("Near", "FG101")}
    assert _classes_flagged(_chain() + far) == set()
