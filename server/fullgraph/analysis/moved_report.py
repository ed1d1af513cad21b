"""Edits of comment lines and blank lines only: the last analysis stands, moved.

Pressing Enter, or typing in a comment, changes no code: the parse cache keeps every top-level
statement's nodes, and every changed line holds no code. What the last analysis found is then
found again, only lower or higher in the file: its findings, entry points and related locations
move with the lines inserted or removed above them. A suppression comment shares its line with
code, so an edit of one is never such an edit. Nothing is reused when the settings, the project
index or the file's path changed since, or when that analysis lacked a file of the index (a
fill will ask for a new one); its record of the index (files used, names asked) is replayed,
so that the editor still re-analyses the document when one of those files changes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from fullgraph.analysis.project import IndexUse, ProjectIndex
from fullgraph.findings import Finding
from fullgraph.text import NAMES_LINE, common_ends, names_a_line


@dataclass
class LastAnalysis:
    """An analysis, with what it was made from."""

    body: list[ast.stmt]
    lines: list[str]
    path: str
    config: object
    project: ProjectIndex | None
    generation: int
    use: IndexUse | None  # what it used of the project index
    report: object  # engine.Report


def remember(body: list[ast.stmt], lines: list[str], path: str, config, project: ProjectIndex | None,
             report) -> LastAnalysis | None:
    """The analysis that just ended, when it can stand for a later edit (it lacked no file)."""
    use = project.current_use() if project is not None else None
    if use is not None and (use.missing or use.lacked):
        return None
    return LastAnalysis(list(body), lines, path, config, project, project.generation if project else 0, use, report)


def moved_report(last: LastAnalysis | None, body: list[ast.stmt], lines: list[str], path: str, config,
                 project: ProjectIndex | None):
    """`last`'s report moved to `lines`, when only comment and blank lines changed since; else None."""
    if last is None or last.path != path or last.config != config or last.project is not project \
            or (project.generation if project else 0) != last.generation or len(body) != len(last.body) \
            or any(new is not old for new, old in zip(body, last.body)):
        return None
    old = last.lines
    prefix, suffix = common_ends(old, lines)
    if not all(_no_code(line) for line in [*old[prefix:len(old) - suffix], *lines[prefix:len(lines) - suffix]]):
        return None
    delta, moved_from = len(lines) - len(old), len(old) - suffix

    def line_of(line: int) -> int:
        if line <= prefix:
            return line
        if line > moved_from:
            return line + delta
        raise _Unmovable  # on a changed line (none holds code, so none should be)

    def move(item):
        return item if item.path != path else replace(item, line=line_of(item.line), end_line=line_of(item.end_line))

    def moved(finding: Finding) -> Finding:
        """`finding` and its related locations moved; a decline reason that names a line of this
        file ("(line 355)") names where that line went."""
        out = replace(move(finding), related=tuple(move(r) for r in finding.related))
        if not delta or finding.path != path:
            return out
        if names_a_line(repr(finding.data)):
            raise _Unmovable  # a line named in its data, which is not rewritten
        if finding.fix_blocked:
            out = replace(out, fix_blocked=NAMES_LINE.sub(lambda m: f"line {line_of(int(m[1]))}", finding.fix_blocked))
        return out

    try:
        findings = [moved(f) for f in last.report.findings]
        elsewhere = [moved(f) for f in last.report.elsewhere]  # in other files: their related locations
        entries = [move(e) for e in last.report.entries]
    except _Unmovable:
        return None
    if project is not None and last.use is not None:
        project.replay(last.use)
    return replace(last.report, findings=findings, entries=entries, elsewhere=elsewhere)


class _Unmovable(Exception):
    """A position on a changed line, or a line named in a finding's data."""


def _no_code(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")

