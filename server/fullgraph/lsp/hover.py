"""Hover on a flagged range: why the rule breaks the graph, the registry links, a preview of the fix."""

from __future__ import annotations

import difflib
import re

from fullgraph import fixes  # its names import libcst on first use
from fullgraph.findings import Finding, gb_doc_url
from fullgraph.rules.catalog import get_rule
from fullgraph.text import split_lines

PREVIEW_LINES = 30
WHY_CHARS = 240  # about two lines of a wide hover


def covers(finding: Finding, line: int, col: int) -> bool:
    """Whether (1-based line, code-point col) lies inside the finding's range (end inclusive)."""
    return (finding.line, finding.col) <= (line, col) <= (finding.end_line, finding.end_col)


def preview(source: str, finding: Finding, fixes_of) -> str | None:
    """A unified diff of the main fix, or None when the finding has no safe fix; ``fixes_of``
    (finding → its fixes) computes them on a parse the quick fixes share."""
    if not finding.rewritable():
        return None
    found = fixes_of(finding)
    if not found:
        return None
    fixed = fixes.apply_edits(source, found[0].edits)
    # No context lines and no hunk headers (a hover should not need scrolling); "..." between hunks.
    diff = ["..." if line.startswith("@@") else line
            for line in difflib.unified_diff(split_lines(source), split_lines(fixed), lineterm="", n=0)][3:]
    if len(diff) > PREVIEW_LINES:
        diff = diff[:PREVIEW_LINES] + ["..."]
    return "\n".join(diff) if diff else None


def _why(rule) -> str:
    """The rule's why, at most two sentences of its first paragraph."""
    first = " ".join(rule.why.strip().split("\n\n")[0].split())
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", first)
    two = " ".join(sentences[:2])
    return two if len(two) <= WHY_CHARS else sentences[0]


def _links(finding: Finding, rule) -> str:
    ids = dict.fromkeys((*(rule.gb_ids if rule else ()), *finding.gb_ids))
    links = [f"[{g}]({gb_doc_url(g)})" for g in ids]
    if rule is not None:
        links.append(f"[{rule.code} docs]({rule.doc_url})")
    return " · ".join(links)


def hover_markdown(source: str, findings: list[Finding], fixes_of) -> str:
    """Markdown for the findings under the cursor (runs in a worker thread).

    The editor already shows each diagnostic's message above the hover, so this adds only
    what the message lacks: each rule's why (two lines at most) and its registry links, once per
    rule, then one fix preview for the range.
    """
    parts, first = [], {}
    for finding in findings:
        first.setdefault(finding.code, finding)
    for code, finding in first.items():
        rule = get_rule(code)
        why = f" {_why(rule)}" if rule and rule.why else ""
        parts.append(f"**{code}**{' `' + rule.name + '`' if rule else ''}:{why} {_links(finding, rule)}")
        if finding.fix_blocked:
            parts.append(f"No safe fix here: {finding.fix_blocked}")
    for finding in findings:
        diff = preview(source, finding, fixes_of)
        if diff:
            rule = get_rule(finding.code)
            title = rule.fix_title if rule and rule.fix_title else "Fix"
            parts.append(f"{title}:\n```diff\n{diff}\n```")
            break
    return "\n\n".join(parts)
