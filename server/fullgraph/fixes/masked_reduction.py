"""Masked reductions: `x[m].sum()` becomes `torch.where(m, x, 0).sum()` (`any`: `False`, `all`:
`True`, `count_nonzero`: `0` in place of the unselected elements), and `x[m].mean()` becomes
`(torch.where(m, x, 0).sum() / m.sum())`, so no selection with a data-dependent size is made
(when it holds: :mod:`fullgraph.fixes.mask_shapes`)."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.mask_shapes import IDENTITIES, masked_store_reason, reduction_of
from fullgraph.fixes.sites import local_parents


def masked_reduction(ctx: FixContext, node: ast.AST, finding) -> list[Fix]:
    """Reduce over `torch.where(m, x, <identity>)` instead of the selection `x[m]` (at ``node``)."""
    reduction = reduction_of(ctx.tree, node)
    if reduction is None or masked_store_reason(ctx.tree, node, finding) is not None:
        return []
    mask, tensor = ctx.text(reduction.mask), ctx.text(reduction.tensor)
    kept = f"{ctx.torch}.where({mask}, {tensor}, {IDENTITIES[reduction.name]})"
    if reduction.name == "mean":
        new = f"{kept}.sum() / {ctx.lowering.atom(reduction.mask)}.sum()"
        new = new if _standalone(ctx.tree, reduction.call) else f"({new})"
    elif reduction.method:
        new = f"{kept}.{reduction.name}()"
    else:
        new = f"{ctx.text(reduction.call.func)}({kept})"
    edit = ctx.expression_edit(reduction.call, new)
    return ctx.make_fix("Reduce over torch.where (no selection of a data-dependent size)", edit, "where")


def _standalone(tree: ast.AST, call: ast.Call) -> bool:
    """Whether a division put in place of ``call`` needs no parentheses: it is a statement's value,
    an argument or an element."""
    parent = local_parents(tree, call).get(call)
    return isinstance(parent, (ast.stmt, ast.keyword, ast.List, ast.Tuple)) \
        or isinstance(parent, ast.Call) and any(arg is call for arg in parent.args)
