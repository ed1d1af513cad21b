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


MULTI = '''import torch


class M(torch.nn.Module):
    def forward(self, x):
        s = """a
        b""" if x.any() else ""
        y = x * 2 + \\
            x.sum().item()
        t = ("""c
        d""" if x.all() else "") + \\
            ""
        return y
'''


def _only(source: str, code: str, line: int) -> Finding:
    return next(f for f in analyze(source, "m.py") if f.code == code and f.line == line)


def test_a_line_ending_in_a_string_or_a_backslash_takes_no_comment():
    """The comment goes after the finding on its last line when its first ends inside a multi-line
    string (there it would be string text) or with a backslash (a syntax error); no edit when
    neither line can take it, so the quick fix is not offered."""
    ternary = _only(MULTI, "FG103", 6)
    fixed = apply_edits(MULTI, suppression_fix(MULTI, ternary).edits)
    assert '        b""" if x.any() else ""  # fullgraph: ignore[FG103]' in fixed.splitlines()
    assert [f for f in analyze(fixed, "m.py") if f.code == "FG103" and f.line == 6] == []
    item = _only(MULTI, "FG201", 9)
    assert suppression_fix(MULTI, item).edits[0].line == 9
    trapped = _only(MULTI, "FG103", 10)
    assert suppression_fix(MULTI, trapped).edits == ()


def test_an_ignore_inside_a_string_is_not_extended():
    source = SOURCE.format(comment="").replace("print(x)", 'print(x, "# fullgraph: ignore[FG1]")')
    fixed = apply_edits(source, suppression_fix(source, fg301(source)[0]).edits)
    assert 'print(x, "# fullgraph: ignore[FG1]")  # fullgraph: ignore[FG301]' in fixed
    assert fg301(fixed) == []


def test_a_finding_inside_a_match_case_takes_its_comment():
    """`match` cases carry no position: the search for a string around the line passes through
    them (it raised AttributeError, in the quick fix and in --add-noqa)."""
    source = ("import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x, mode: str):\n"
              "        match mode:\n            case \"a\":\n                print(x)\n        return x\n")
    fixed = apply_edits(source, suppression_fix(source, fg301(source)[0]).edits)
    assert "                print(x)  # fullgraph: ignore[FG301]\n" in fixed
    assert fg301(fixed) == []
