"""Scalar flags: ``flag = t.item()`` (or ``bool(t)``) tested only by ``if``s keeps the tensor, and
each ``if`` that tests it is predicated in the same fix (else the break would move there)."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix, apply_edits, minimal_edit
from fullgraph.fixes.keep_tensor import converted
from fullgraph.fixes.predication import predicate_if


def kept_tensor(ctx: FixContext, call: ast.Call) -> str:
    """The tensor expression a conversion reads (``bool(t)`` as a boolean tensor)."""
    tensor = converted(call)
    return ctx.lowering.atom(tensor) if tensor is not None else ctx.lowering.lower(call.args[0])


def _if_at(tree: ast.AST, line: int, col: int) -> ast.If | None:
    return next((n for n in walk(tree) if isinstance(n, ast.If) and (n.lineno, n.col_offset) == (line, col)), None)


def keep_and_predicate(ctx: FixContext, call: ast.Call, branches: list[ast.If]) -> list[Fix]:
    """One fix: the conversion dropped, then every ``if`` on the flag predicated, last first."""
    edit = ctx.expression_edit(call, kept_tensor(ctx, call))
    if edit is None:
        return []
    text = apply_edits(ctx.source, [edit])
    shift = edit.new_text.count("\n") - (call.end_lineno - call.lineno)
    for branch in sorted(branches, key=lambda b: -b.lineno):
        step = FixContext(text, parse_tree(text))
        node = _if_at(step.tree, branch.lineno + shift, branch.col_offset)
        fixes = predicate_if(step, node) if node is not None else []
        if not fixes:
            return []
        before = text.count("\n")
        text = apply_edits(text, fixes[0].edits)
        if any(e.line < branch.lineno + shift and e.new_text.startswith("import ") for e in fixes[0].edits):
            shift += text.count("\n") - before - _added_inside(fixes[0].edits, branch.lineno + shift)
    whole = minimal_edit(ctx.source, 0, len(ctx.source), text)
    title = "Keep the tensor and predicate the `if`s that test it"
    return [] if whole is None else [Fix(title, (whole,), preferred=True, kind="keep-tensor")]


def _added_inside(edits, line: int) -> int:
    """Lines the edits at or after ``line`` added (the rest of the count comes from an import above)."""
    return sum(e.new_text.count("\n") - (e.end_line - e.line) for e in edits if e.line >= line)
