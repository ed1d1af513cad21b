"""Hover on a flagged range: the rule's short explanation and a preview of its fix."""

from __future__ import annotations

import difflib

from fullgraph import fixes  # its names import libcst on first use
from fullgraph.findings import Finding
from fullgraph.rules.catalog import get_rule
from fullgraph.text import split_lines

PREVIEW_LINES = 30


def covers(finding: Finding, line: int, col: int) -> bool:
    """Whether (1-based line, code-point col) lies inside the finding's range (end inclusive)."""
    return (finding.line, finding.col) <= (line, col) <= (finding.end_line, finding.end_col)


def preview(source: str, finding: Finding) -> str | None:
    """A unified diff of the main fix, or None when the finding has no safe fix."""
    if not finding.fix or finding.fix_blocked:
        return None
    found = fixes.fixes_for(source, finding)
    if not found:
        return None
    fixed = fixes.apply_edits(source, found[0].edits)
    diff = list(difflib.unified_diff(split_lines(source), split_lines(fixed), lineterm="", n=1))[2:]
    if len(diff) > PREVIEW_LINES:
        diff = diff[:PREVIEW_LINES] + ["..."]
    return "\n".join(diff) if diff else None


def hover_markdown(source: str, findings: list[Finding]) -> str:
    """Markdown for every finding under the cursor (runs in a worker thread)."""
    parts = []
    for finding in findings:
        rule = get_rule(finding.code)
        head = f"**fullgraph {finding.code}**" + (f" `{rule.name}`: {rule.summary}" if rule else "")
        body = [head, "", finding.message]
        if rule and rule.why:
            body += ["", rule.why.strip().split("\n\n")[0]]
        if finding.fix_blocked:
            body += ["", f"No safe fix here: {finding.fix_blocked}"]
        diff = preview(source, finding)
        if diff:
            title = rule.fix_title if rule and rule.fix_title else "Fix"
            body += ["", f"{title}:", "```diff", diff, "```"]
        if rule and rule.doc_url:
            body += ["", f"[Rule documentation]({rule.doc_url})"]
        parts.append("\n".join(body))
    return "\n\n---\n\n".join(parts)
