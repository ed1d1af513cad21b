"""The suppression quick fix: ``# fullgraph: ignore[CODE]`` where the engine reads it for the finding.

That is the end of the finding's first line, or, when that line ends inside a multi-line string or
continues with a backslash (a comment there would be string text, or a syntax error), the end of its
last line; an ignore already there is extended. No edit when neither line can take a comment.
"""

from __future__ import annotations

import ast
import re

from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.sites import nodes_on
from fullgraph.suppression import comment_start
from fullgraph.text import split_lines, to_lf

IGNORE = re.compile(r"#\s*fullgraph:\s*ignore(\[(?P<codes>[^\]]*)\])?")


def _takes_comment(tree: ast.AST, lines: list[str], line: int) -> bool:
    """Whether a comment may end `line`: no string literal continues past it, nor a backslash."""
    if not 1 <= line <= len(lines) or lines[line - 1].endswith("\\"):
        return False
    return not any(isinstance(n, (ast.Constant, ast.JoinedStr)) and n.lineno <= line < (n.end_lineno or n.lineno)
                   for n in nodes_on(tree, line))


def comment_line(tree: ast.AST, lines: list[str], finding) -> int | None:
    """The line a comment silencing `finding` goes on: its first, else its last; None when neither."""
    return next((n for n in dict.fromkeys((finding.line, finding.end_line)) if _takes_comment(tree, lines, n)), None)


def suppression_fix(source: str | bytes, finding, tree: ast.AST | None = None) -> Fix:
    """Add ``# fullgraph: ignore[CODE]`` for the finding, or extend the ignore already there
    (`tree`: the source's, when the caller has it parsed)."""
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    lines = split_lines(text)
    title = f"Ignore {finding.code} on this line"
    try:
        tree = tree or parse_tree(to_lf(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Fix(title, (), preferred=False, kind=None)
    line = comment_line(tree, lines, finding)
    if line is None:
        return Fix(title, (), preferred=False, kind=None)
    start = finding.end_col if line != finding.line else 0  # the engine reads the last line after the finding
    at = comment_start(lines[line - 1][start:])
    match = IGNORE.search(lines[line - 1], start + at) if at is not None else None
    if match is None:
        end = len(lines[line - 1])
        edit = TextEdit(line, end, line, end, f"  # fullgraph: ignore[{finding.code}]")
        return Fix(title, (edit,), preferred=False, kind=None)
    if match.group("codes") is None:
        return Fix(title, (), preferred=False, kind=None)  # a bare ignore already covers every code
    codes = [c.strip() for c in match.group("codes").split(",") if c.strip()]
    if finding.code in codes:
        return Fix(title, (), preferred=False, kind=None)
    new = f"# fullgraph: ignore[{','.join(codes + [finding.code])}]"
    return Fix(title, (TextEdit(line, match.start(), line, match.end(), new),), preferred=False, kind=None)
