"""FG301's in-graph fix: `print(...)` becomes `torch._higher_order_ops.print(format, *values)`
(when it applies: :mod:`fullgraph.fixes.print_operator`); unsafe when it prints values, safe for
constants alone."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.print_operator import OPERATOR, operator_plan
from fullgraph.fixes.sites import local_parents
from fullgraph.fixes.slicing import continuation, function_slice, indent, splice


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
    # laid out over lines as the call was (one argument a line), while compiled only: run eagerly the
    # statement stays as it was (`torch.jit.trace` has no kernel for the operator)
    laid_out = one_line if call.end_lineno == call.lineno else \
        f"{ctx.torch}.{OPERATOR}(\n" + "".join(f"    {a},\n" for a in args) + ")"
    original = continuation(ctx.lowering.segment(stmt), stmt.col_offset)
    guarded = (f"if {ctx.torch}.compiler.is_compiling():\n" + indent(laid_out + "\n") + "else:\n"
               + indent(original + "\n"))
    edit = splice(piece, [stmt], [guarded]) if piece is not None else None
    if edit is None:  # the statement shares its line with another
        return []
    if not values:  # constants only: the same line, printed where it was
        return ctx.make_fix("Print with torch's print operator, inside the graph", edit, "print-op", preferred=True)
    return ctx.make_fix("Print with torch's print operator, inside the graph (unsafe: tensors that require "
                        "grad print without `grad_fn=`)", edit, "print-op", preferred=False, unsafe=True)


def _literal(text: str) -> str:
    """A string literal of ``text``, double-quoted when that needs no escape."""
    quoted = repr(text)
    return f'"{quoted[1:-1]}"' if quoted.startswith("'") and '"' not in text and "'" not in text else quoted
