"""FG301's unsafe fix: `print(...)` becomes `torch._higher_order_ops.print(format, *values)`
(when it applies: :mod:`fullgraph.fixes.print_operator`)."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.print_operator import OPERATOR, operator_plan
from fullgraph.fixes.sites import local_parents
from fullgraph.fixes.slicing import function_slice, splice


def print_operator_fix(ctx: FixContext, call: ast.Call, finding) -> list[Fix]:
    """The rewrite, when the project's torch has the operator (``finding.data``) and every value qualifies."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "print"):
        return []
    planned = operator_plan(ctx.tree, call, finding)
    if isinstance(planned, str):
        return []
    text, values = planned
    args = [_literal(text), *(ctx.text(v) for v in values)]
    one_line = f"{ctx.torch}.{OPERATOR}({', '.join(args)})"
    stmt = local_parents(ctx.tree, call)[call]  # the call's own statement (`plan` checked it)
    piece = function_slice(ctx.source, ctx.tree, stmt)
    # the statement with the comments inside the call moved above it, laid out over lines as the call
    # was (one argument a line; the splice indents it); on a line it shares, in place
    laid_out = one_line if call.end_lineno == call.lineno else \
        f"{ctx.torch}.{OPERATOR}(\n" + "".join(f"    {a},\n" for a in args) + ")"
    edit = (splice(piece, [stmt], [laid_out]) if piece is not None else None) or ctx.expression_edit(call, one_line)
    return ctx.make_fix("Print with torch's print operator, inside the graph (unsafe: tensors that require "
                        "grad print without `grad_fn=`)", edit, "print-op", preferred=False, unsafe=True)


def _literal(text: str) -> str:
    """A string literal of ``text``, double-quoted when that needs no escape."""
    quoted = repr(text)
    return f'"{quoted[1:-1]}"' if quoted.startswith("'") and '"' not in text and "'" not in text else quoted
