"""`min`/`max` over a generator Dynamo cannot reduce: the generator becomes a list comprehension of the
same elements (`min((c, p) for p in ps)` → `min([(c, p) for p in ps])`), which Dynamo reduces."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.source_comments import source_comments
from fullgraph.rules.untraceable import min_max_generator


def reduce_list(ctx: FixContext, call: ast.AST) -> list[Fix]:
    """The rewrite of an FG422 call; none when a comment sits inside the generator."""
    if not isinstance(call, ast.Call) or not min_max_generator(call):
        return []
    generator = call.args[0]
    positions = ctx.lowering.positions
    start = positions.ast_offset(generator.lineno, generator.col_offset)
    end = positions.ast_offset(generator.end_lineno, generator.end_col_offset)
    text = ctx.source[start:end]
    if source_comments(text) != [] or not (text.startswith("(") and text.endswith(")")):
        return []
    func_end = positions.ast_offset(call.func.end_lineno, call.func.end_col_offset)
    shares_call_parens = not ctx.source[func_end:start].strip()  # `min(x for x in y)`: the call's own `(`
    listed = f"[{text[1:-1]}]"
    new = f"({listed})" if shares_call_parens else listed
    edit = TextEdit(*positions.position(start), *positions.position(end), new)
    return ctx.make_fix("Reduce a list instead of a generator", edit, "list", needs_torch=False)
