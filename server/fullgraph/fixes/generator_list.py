"""`min`/`max` over a generator Dynamo cannot reduce: the generator becomes a list comprehension of the
same elements (`min((c, p) for p in ps)` → `min([(c, p) for p in ps])`), which Dynamo reduces."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.rules.untraceable import min_max_generator


def reduce_list(ctx: FixContext, call: ast.AST) -> list[Fix]:
    """The rewrite of an FG422 call; none when a comment sits inside the generator."""
    if not isinstance(call, ast.Call) or not min_max_generator(call):
        return []
    generator = call.args[0]
    text = ctx.lowering.segment(generator)  # `(...)`: its own parentheses, or the call's
    if not (text.startswith("(") and text.endswith(")")):
        return []
    listed = f"[{text[1:-1]}]"
    shares_call_parens = (generator.end_lineno, generator.end_col_offset) == (call.end_lineno, call.end_col_offset)
    edit = ctx.expression_edit(generator, f"({listed})" if shares_call_parens else listed)
    return ctx.make_fix("Reduce a list instead of a generator", edit, "list", needs_torch=False)
