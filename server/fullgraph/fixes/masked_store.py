"""Masked stores: `x[m] = y[m]` becomes `x.copy_(torch.where(m, y, x))`, and `x[m] += v` becomes
`x.copy_(torch.where(m, x.clone().add_(v), x))`, so no selection with a data-dependent size is
made (when it holds: :mod:`fullgraph.fixes.mask_shapes`)."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.layouts import LayoutCheck
from fullgraph.fixes.mask_shapes import IN_PLACE, masked_store_reason, store_of
from fullgraph.fixes.sites import enclosing_function
from fullgraph.fixes.slicing import function_slice, splice


def masked_store(ctx: FixContext, node: ast.AST, finding) -> list[Fix]:
    """``x[m] = y[m]`` → ``x.copy_(torch.where(m, y, x))``; ``x[m] += v`` → ``x.copy_(torch.where(m,
    x.clone().add_(v), x))``."""
    if masked_store_reason(ctx.tree, node, finding) is not None:
        return []
    store = store_of(ctx.tree, node)
    piece = function_slice(ctx.source, ctx.tree, store.stmt)
    if piece is None:
        return []
    target, mask = store.target.id, ctx.text(store.mask)
    value = _unmasked(ctx, store.value)
    if store.op is not None:
        value = f"{target}.clone().{IN_PLACE[type(store.op)]}({value})"
    elif not _same_dtype(ctx, store):
        value = f"{value if value.isidentifier() else f'({value})'}.to({target}.dtype)"  # as the store casts it
    new = f"{target}.copy_({ctx.torch}.where({mask}, {value}, {target}))"
    # the statement with its comments moved above it; on a line it shares, in place (without comments)
    edit = splice(piece, [store.stmt], [new]) or ctx.expression_edit(store.stmt, new)
    return ctx.make_fix("Select with torch.where (keeps the shape)", edit, "where")


def _same_dtype(ctx: FixContext, store) -> bool:
    """Whether the stored values are known to have the target's dtype (one layout: made from the same
    tensor by the same kind of ops), so that `torch.where` promotes nothing."""
    check = LayoutCheck(enclosing_function(ctx.tree, store.stmt), store.stmt, ctx.tree)
    value = store.value.operand if isinstance(store.value, ast.UnaryOp) else store.value
    base = value.value if isinstance(value, ast.Subscript) else value
    known = check.layout(store.target)
    return known is not None and known == check.layout(base)


def _unmasked(ctx: FixContext, value: ast.expr) -> str:
    """The value's source with each `y[m]` read as the whole `y`."""
    if isinstance(value, ast.Subscript):
        return value.value.id
    if isinstance(value, ast.UnaryOp):
        sign = "-" if isinstance(value.op, ast.USub) else "+"
        inner = value.operand
        return sign + (_unmasked(ctx, inner) if isinstance(inner, ast.Subscript) else f"({_unmasked(ctx, inner)})")
    return ctx.text(value)
