"""`fullgraph check --add-noqa`: a `# fullgraph: ignore[CODE]` comment on every line with a finding,
as ruff's `--add-noqa` does, so a project can adopt the checker and see only new findings.

The comment goes where the quick fix "disable for this line" puts it (`fixes/suppression.py`). The
file's code must stay the same (its `ast` unchanged) and every comment added must silence its
finding; otherwise the file is not written.
"""

from __future__ import annotations

import os
from collections import defaultdict

from fullgraph.analysis.nodes import same_code
from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.edits import apply_edits
from fullgraph.fixes.suppression import suppression_fix
from fullgraph.suppression import silenced
from fullgraph.text import source_encoding, split_lines, to_lf


def add_suppressions(source: str, findings) -> tuple[str, int, list]:
    """``source`` with a suppression comment for each of ``findings`` (of this file): (new source,
    comments added or extended, the findings left without one)."""
    try:
        tree = parse_tree(to_lf(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source, 0, list(findings)
    text, added, left = source, 0, []
    for finding in sorted(findings, key=lambda f: (f.line, f.code)):
        if _silenced(text, finding):
            continue
        new = apply_edits(text, suppression_fix(text, finding, tree).edits)
        if not _silenced(new, finding):  # no line could take the comment
            left.append(finding)
            continue
        text, added = new, added + 1
    return text, added, left


def _silenced(text: str, finding) -> bool:
    """Whether the engine reads a suppression of `finding` in `text`."""
    lines = split_lines(text)
    return silenced(lambda n: lines[n - 1], finding.line, finding.end_line, finding.end_col, finding.code)


def _same_code(before: str, after: str) -> bool:
    try:
        return same_code(parse_tree(to_lf(before)), parse_tree(to_lf(after)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


NOT_CHECKED = "not in a checked file (fullgraph edits only those)"
NO_PLACE = "neither its first nor its last line can carry a comment that silences it (a multi-line string or a " \
           "backslash continuation is in the way)"
UNWRITTEN = "the file could not be read, decoded or written"
UNPARSED = "the file could not be analysed: fix that first (FG000 takes no comment)"


def add_noqa(findings, files: list[str]) -> tuple[int, int, list]:
    """Write suppressions for ``findings`` into the checked ``files`` (others are never edited):
    (comments added, files written, (finding, why) for each finding left as it was)."""
    checked = {os.path.abspath(f) for f in files if f != "-"}
    per_file = defaultdict(list)
    left = []
    for finding in findings:
        path = os.path.abspath(finding.path)
        if path in checked and finding.code != "FG000":
            per_file[path].append(finding)
        else:
            left.append((finding, NOT_CHECKED if path not in checked else UNPARSED))
    added = written = 0
    for path, found in sorted(per_file.items()):
        done = _suppressed_file(path, found)
        if done is None:
            left.extend((f, UNWRITTEN) for f in found)
            continue
        count, missed = done
        left.extend((f, NO_PLACE) for f in missed)
        added, written = added + count, written + bool(count)
    return added, written, left


def _suppressed_file(path: str, found: list) -> tuple[int, list] | None:
    """Suppress ``found`` in the file at ``path``: (comments added, findings without a place), or
    None when the file could not be read or written or its code would change."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    encoding = source_encoding(data)
    if encoding is None:
        return None
    source = data.decode(encoding)
    new, count, missed = add_suppressions(source, found)
    if count and not _same_code(source, new):
        return None
    if count:
        try:
            with open(path, "w", encoding=encoding, newline="") as handle:
                handle.write(new)
        except OSError:
            return None
    return count, missed
