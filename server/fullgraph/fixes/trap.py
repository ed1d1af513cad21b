"""Trap lowering: tensor asserts and ``if c: raise E("msg")`` guards become ``torch._assert_async``."""

from __future__ import annotations

import ast

from fullgraph.fixes.conditions import is_shape_only
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.preconditions import decline_reason
from fullgraph.fixes.slicing import function_slice, splice


def _check(ctx: FixContext, cond: ast.expr, message: ast.expr | None, negate: bool) -> str:
    """The lowered statement asserting ``cond`` (or ``not cond``) with the original message."""
    if is_shape_only(cond):
        text = ctx.text(cond)
        text = f"not ({text})" if negate else text
        return f"{ctx.torch}._check({text}" + (f", lambda: {ctx.text(message)})" if message is not None else ")")
    if negate:
        lowered = (ctx.lowering.lower(cond.operand) if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not)
                   else f"{ctx.torch}.logical_not({ctx.lowering.lower(cond)})")
    else:
        lowered = ctx.lowering.lower(cond)
    return f"{ctx.torch}._assert_async({lowered}" + (f", {ctx.text(message)})" if message is not None else ")")


def lower_trap(ctx: FixContext, node: ast.Assert | ast.If, finding) -> list[Fix]:
    """``assert c, "msg"`` → ``torch._assert_async(c, "msg")``; ``if c: raise E("msg")`` likewise with ``not c``."""
    if decline_reason(ctx.tree, finding) is not None:
        return []
    piece = function_slice(ctx.source, ctx.tree, node)
    if piece is None:
        return []
    if isinstance(node, ast.Assert):
        new = _check(ctx, node.test, node.msg, negate=False)
    else:
        args = node.body[0].exc.args
        new = _check(ctx, node.test, args[0] if args else None, negate=True)
    return ctx.make_fix("Lower to torch._assert_async (unsafe: it raises RuntimeError instead)", splice(piece, [node], [new]),
                        "trap", preferred=False, unsafe=True)
