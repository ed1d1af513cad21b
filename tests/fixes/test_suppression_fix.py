"""The suppression quick fix adds or extends ``# fullgraph: ignore[...]`` and the engine honours it."""

from __future__ import annotations

from fullgraph.engine import analyze
from fullgraph.findings import Finding
from fullgraph.fixes import apply_edits, suppression_fix

SOURCE = "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n        print(x){comment}\n        return x * 2\n"


def fg301(source: str) -> list[Finding]:
    return [f for f in analyze(source, "m.py") if f.code == "FG301"]


def test_adds_ignore_comment_and_silences_the_finding():
    source = SOURCE.format(comment="")
    fix = suppression_fix(source, fg301(source)[0])
    fixed = apply_edits(source, fix.edits)
    assert "print(x)  # fullgraph: ignore[FG301]\n" in fixed
    assert fg301(fixed) == []


def test_extends_an_existing_ignore():
    source = SOURCE.format(comment="  # fullgraph: ignore[FG101]")
    fixed = apply_edits(source, suppression_fix(source, fg301(source)[0]).edits)
    assert "# fullgraph: ignore[FG101,FG301]" in fixed
    assert fg301(fixed) == []


def test_nothing_to_do_when_already_covered():
    source = SOURCE.format(comment="")
    covered = source.replace("print(x)", "print(x)  # fullgraph: ignore[FG301]")
    found = Finding("m.py", 6, 8, 6, 16, "FG301", "")
    assert suppression_fix(covered, found).edits == ()
    bare = source.replace("print(x)", "print(x)  # fullgraph: ignore")
    assert suppression_fix(bare, found).edits == ()
