"""What a helper returns is worked out to a bounded depth of helpers; the answer must not depend
on which other code asked for it first (it did: a fact worked out at one depth was reused at
another, so a file's findings changed with the order of its classes, and `check --jobs 2` gave
different fix checks from run to run)."""

from __future__ import annotations

import ast

from fullgraph.analysis.walker import MAX_RETURN_DEPTH, Walker
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


def _clique(n: int) -> str:
    """`n` helpers that each call all of them (recursion everywhere), each result branched on."""
    helpers = "".join(f"def h{i}(x):\n    if x.dim() > 2:\n        return " + " + ".join(f"h{j}(x)" for j in range(n))
                      + "\n    return x * 2\n\n" for i in range(n))
    uses = "".join(f"        y{i} = h{i}(x)\n        if y{i}.sum() > 0:\n            x = x + 1\n" for i in range(n))
    return f"import torch\nfrom torch import nn\n\n{helpers}class M(nn.Module):\n    def forward(self, x):\n{uses}        return x\n"


def test_recursive_helpers_are_walked_a_bounded_number_of_times(monkeypatch):
    """Each helper is walked once per depth it is asked at (and per set of argument facts):
    recursion is cut by the depth, and the cut answer kept for that depth, so the walks grow with
    the number of helpers. Not keeping answers that recursion cut short made them grow about with
    its fourth power (60 helpers took 69 s)."""
    walks = []
    run = Walker.run
    monkeypatch.setattr(Walker, "run", lambda self: (walks.append(self.function.qualname), run(self))[1])

    def helper_walks(n: int) -> int:
        walks.clear()
        assert len(analyze(_clique(n).encode(), "m.py", Config())) == n
        return sum(name.startswith("h") for name in walks)

    small, large = helper_walks(6), helper_walks(12)
    assert large <= 2.2 * small, (small, large)  # twice the helpers
