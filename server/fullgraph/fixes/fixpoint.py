"""Fix-all: apply every safe fix, re-analyse, repeat to a fixpoint; report one edit set."""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.dispatch import guarded_fixes, parse
from fullgraph.fixes.edits import TextEdit, apply_edits, line_starts, offset_of
from fullgraph.fixes.sites import enclosing_function, finding_node

MAX_ROUNDS = 50


@dataclass(frozen=True)
class FixAllResult:
    """The fixed text, the edits that turn the original into it, and how many fixes went in."""

    source: str
    edits: tuple[TextEdit, ...]
    applied: int


def _span(text: str, starts: list[int], edit: TextEdit) -> tuple[int, int]:
    return offset_of(starts, text, edit.line, edit.col), offset_of(starts, text, edit.end_line, edit.end_col)


def _round(text: str, tree: ast.Module, findings) -> tuple[list[TextEdit], int]:
    """Main fixes for this round: at most one per function, none overlapping, all on one parse."""
    ctx = FixContext(text, tree)
    starts = line_starts(text)
    chosen: list[list[TextEdit]] = []
    spans: list[tuple[int, int]] = []
    seen_functions: set[int] = set()
    for finding in findings:
        if not finding.fix or finding.fix_blocked:
            continue
        node = finding_node(tree, finding)
        fn = enclosing_function(tree, node) if node is not None else None
        key = fn.lineno if fn is not None else -finding.line
        if key in seen_functions:
            continue
        fix = next((f for f in guarded_fixes(ctx, finding) if f.preferred), None)
        if fix is None or not fix.edits:
            continue
        flat = [e for group in chosen for e in group]
        new_edits = [e for e in fix.edits if e not in flat]
        new_spans = [_span(text, starts, e) for e in new_edits]
        if any(lo < hi2 and lo2 < hi or (lo == hi == lo2 == hi2) for lo, hi in new_spans for lo2, hi2 in spans):
            continue
        chosen.append(new_edits)
        spans.extend(new_spans)
        seen_functions.add(key)
    return _parsable(text, chosen)


def _parsable(text: str, groups: list[list[TextEdit]]) -> tuple[list[TextEdit], int]:
    """The edit groups whose application still parses (checked together, then one by one on failure)."""
    every = [e for group in groups for e in group]
    if parse(apply_edits(text, every)) is not None:
        return every, len(groups)
    kept: list[TextEdit] = []
    count = 0
    for group in groups:
        if parse(apply_edits(text, kept + group)) is not None:
            kept.extend(group)
            count += 1
    return kept, count


def diff_edits(old: str, new: str) -> tuple[TextEdit, ...]:
    """Line-granular, non-overlapping edits turning ``old`` into ``new``."""
    a, b = old.splitlines(True), new.splitlines(True)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(TextEdit(i1 + 1, 0, i2 + 1, 0, "".join(b[j1:j2])))
    return tuple(edits)


def fix_all(source: str | bytes, path: str = "<string>", config=None) -> FixAllResult:
    """Apply every safe fix to a fixpoint. Never raises; unparsable input comes back unchanged."""
    from fullgraph.engine import analyze

    parsed = parse(source)
    if parsed is None:
        text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
        return FixAllResult(text, (), 0)
    original, tree = parsed
    text, applied = original, 0
    for _ in range(MAX_ROUNDS):
        edits, count = _round(text, tree, analyze(text, path, config))
        if not edits:
            break
        text = apply_edits(text, edits)
        tree = ast.parse(text)
        applied += count
    return FixAllResult(text, diff_edits(original, text), applied)
