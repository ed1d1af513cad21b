"""The suppression quick fix: ``# fullgraph: ignore[CODE]`` on the finding's line."""

from __future__ import annotations

import re

from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.text import split_lines

IGNORE = re.compile(r"#\s*fullgraph:\s*ignore(\[(?P<codes>[^\]]*)\])?")


def suppression_fix(source: str | bytes, finding) -> Fix:
    """Add ``# fullgraph: ignore[CODE]`` to the finding's line, or extend the ignore already there."""
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    lines = split_lines(text)
    index = min(max(finding.line, 1), len(lines)) - 1
    line = lines[index]
    title = f"Ignore {finding.code} on this line"
    match = IGNORE.search(line)
    if match is None:
        edit = TextEdit(index + 1, len(line), index + 1, len(line), f"  # fullgraph: ignore[{finding.code}]")
        return Fix(title, (edit,), preferred=False, kind=None)
    if match.group("codes") is None:
        return Fix(title, (), preferred=False, kind=None)  # a bare ignore already covers every code
    codes = [c.strip() for c in match.group("codes").split(",") if c.strip()]
    if finding.code in codes:
        return Fix(title, (), preferred=False, kind=None)
    new = f"# fullgraph: ignore[{','.join(codes + [finding.code])}]"
    return Fix(title, (TextEdit(index + 1, match.start(), index + 1, match.end(), new),), preferred=False, kind=None)
