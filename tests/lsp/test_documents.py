"""Last good findings survive a syntax error where their text is unchanged."""

from fullgraph.findings import Finding, Location
from fullgraph.lsp.documents import Analysis, carry_over


def _finding(line, code="FG301"):
    return Finding("m.py", line, 4, line, 9, code, "msg")


GOOD_LINES = ["def f(x):", "    print(x)", "    y = 1", "    print(y)", "    return x"]
GOOD = Analysis(1, "\n".join(GOOD_LINES), GOOD_LINES, [_finding(2), _finding(4)],
                [Location("m.py", 1, 0, 5, 12, "f")], [])


def test_findings_before_and_after_the_edit_are_kept_and_shifted():
    lines = GOOD_LINES[:2] + ["    y = (", "    z = 2"] + GOOD_LINES[3:]  # one line inserted, broken
    error = Finding("m.py", 3, 9, 3, 10, "FG000", "syntax error")
    findings, entries = carry_over(GOOD, lines, [error])
    assert [(f.code, f.line) for f in findings] == [("FG301", 2), ("FG000", 3), ("FG301", 5)]
    assert entries == []  # the entry spans the edited lines


def test_findings_on_edited_lines_are_dropped():
    lines = GOOD_LINES[:3] + ["    print(y"] + GOOD_LINES[4:]
    error = Finding("m.py", 4, 10, 4, 11, "FG000", "syntax error")
    findings, _ = carry_over(GOOD, lines, [error])
    assert [(f.code, f.line) for f in findings] == [("FG301", 2), ("FG000", 4)]
