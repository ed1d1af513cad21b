"""Fix-all: apply every safe fix, re-analyse, repeat to a fixpoint; report one edit set."""

from __future__ import annotations

import ast
import difflib
from collections import Counter
from dataclasses import dataclass

from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.dispatch import guarded_fixes, parse
from fullgraph.fixes.edits import TextEdit, apply_edits, with_line_ends
from fullgraph.fixes.sites import enclosing_function, finding_node
from fullgraph.text import Text, common_ends, split_lines_keepends, to_lf

MAX_ROUNDS = 50


@dataclass(frozen=True)
class FixAllResult:
    """The fixed text, the edits that turn the original into it, how many fixes went in, and the
    findings of the fixed text when the last round analysed that very text (else None)."""

    source: str
    edits: tuple[TextEdit, ...]
    applied: int
    findings: tuple | None = None


def _span(positions: Text, edit: TextEdit) -> tuple[int, int]:
    return positions.offset(edit.line, edit.col), positions.offset(edit.end_line, edit.end_col)


def _identity(finding) -> tuple:
    """A finding as it is known from round to round (its line moves as fixes go in)."""
    return finding.code, finding.message, finding.data.get("function")


def _round(text: str, tree: ast.Module, findings, failed: set[tuple],
           budget: Counter, unsafe: bool = False) -> tuple[list[TextEdit], int, set[tuple]]:
    """Main fixes for this round: at most one per function, none overlapping, all on one parse;
    also the findings whose fix did not parse (``failed`` ones are not tried again). A finding is
    fixed at most once more than the original text had it (``budget``, spent here), so a fix that
    brings its own finding back cannot go round forever."""
    ctx = FixContext(text, tree)
    positions = Text(text)
    chosen: list[tuple[tuple, tuple[TextEdit, ...]]] = []  # each fix's finding and full edit set
    flat: list[TextEdit] = []  # their union, without repeats (a shared `import torch` once)
    spans: list[tuple[int, int]] = []
    seen_functions: set[int] = set()
    for finding in findings:
        # with `unsafe`, a blocked finding may still have an unsafe fix (a deferral keeps its replay's break)
        if not finding.rewritable(unsafe) or _identity(finding) in failed or budget[_identity(finding)] < 0:
            continue
        node = finding_node(tree, finding)
        fn = enclosing_function(tree, node) if node is not None else None
        key = fn.lineno if fn is not None else -finding.line
        if key in seen_functions:
            continue
        offered = guarded_fixes(ctx, finding)  # the safest first: a preferred fix, else (when asked) an unsafe one
        fix = next((f for f in offered if f.preferred), None) or next((f for f in offered if unsafe and f.unsafe), None)
        if fix is None or not fix.edits:
            continue
        new_edits = [e for e in fix.edits if e not in flat]
        new_spans = [_span(positions, e) for e in new_edits]
        if any(lo < hi2 and lo2 < hi or (lo == hi == lo2 == hi2) for lo, hi in new_spans for lo2, hi2 in spans):
            continue
        chosen.append((_identity(finding), fix.edits))
        budget[_identity(finding)] -= 1
        flat.extend(new_edits)
        spans.extend(new_spans)
        seen_functions.add(key)
    return _parsable(text, flat, chosen)


def _parsable(text: str, every: list[TextEdit], groups: list[tuple[tuple, tuple[TextEdit, ...]]]):
    """``every`` when it still parses, else the fixes (``groups``) that do, added one by one (a fix
    kept after a dropped one keeps the edits they shared, such as ``import torch``); with the count
    kept and the findings whose fix was dropped."""
    if parse(apply_edits(text, every)) is not None:
        return every, len(groups), set()
    kept: list[TextEdit] = []
    dropped: set[tuple] = set()
    for identity, group in groups:
        new = [e for e in group if e not in kept]
        if parse(apply_edits(text, kept + new)) is not None:
            kept.extend(new)
        else:
            dropped.add(identity)
    return kept, len(groups) - len(dropped), dropped


def diff_edits(old: str, new: str) -> tuple[TextEdit, ...]:
    """Line-granular, non-overlapping edits turning ``old`` into ``new`` (lines both start or end
    with are left out of the matching, which is quadratic on repeated lines)."""
    a, b = split_lines_keepends(old), split_lines_keepends(new)
    head, tail = common_ends(a, b)
    a, b = a[head:len(a) - tail], b[head:len(b) - tail]
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(TextEdit(head + i1 + 1, 0, head + i2 + 1, 0, "".join(b[j1:j2])))
    return tuple(edits)


def fix_all(source: str | bytes, path: str = "<string>", config=None, project=None, unsafe: bool = False,
            findings=None, analysis=None) -> FixAllResult:
    """Apply every safe fix to a fixpoint (with ``unsafe``, the unsafe ones too: deferrals). Never
    raises; unparsable input comes back unchanged. ``project`` (the project index `check` and the
    editor use) makes each round find what they find; ``findings``: those of ``source`` with
    that index (the editor's analysis of this text), which the first round then uses;
    ``analysis``: what finds the findings of a text, when more than the file's own analysis does
    (those other files' analyses place in it)."""
    from fullgraph.engine import analyze

    analysis = analysis or (lambda text: analyze(text, path, config, project=project))

    parsed = parse(source)
    if parsed is None:
        text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
        return FixAllResult(text, (), 0)
    original, tree = parsed
    text, applied, failed = to_lf(original), 0, set()  # rewrites run on LF text; line ends go back at the end
    start = text
    budget: Counter | None = None
    settled = None  # the findings of `text`, once a round changes nothing
    if original != text:  # they were found on the text with its CR line ends: analyse the LF one
        findings = None
    for _ in range(MAX_ROUNDS):
        findings = analysis(text) if findings is None else findings
        if budget is None:
            budget = Counter(_identity(f) for f in findings if f.fix)  # spent below zero: stop
        edits, count, dropped = _round(text, tree, findings, failed, budget, unsafe)
        failed |= dropped
        if not edits and not dropped:
            settled = tuple(findings)
            break
        text = apply_edits(text, edits)
        tree = parse_tree(text)
        applied += count
        findings = None
    edits = with_line_ends(diff_edits(start, text), original)
    if "\r" in original:  # the rounds analysed the text with LF line ends
        return FixAllResult(apply_edits(original, edits), edits, applied)
    return FixAllResult(text, edits, applied, settled)
