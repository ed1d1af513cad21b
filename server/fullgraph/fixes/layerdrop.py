"""Layerdrop: a random skip of a layer in a loop becomes a ``torch.where`` over the layer's output.

Two forms, as transformers writes them::

    to_drop = False                              if self.training and self.layerdrop > 0.0:
    if self.training and self.layerdrop > 0.0:       p = torch.rand([])
        p = torch.rand([])                           if p < self.layerdrop:
        if p < self.layerdrop:                           continue
            to_drop = True                       hidden_states = layer(hidden_states, ...)
    if not to_drop:
        hidden_states = layer(hidden_states, ...)

Both become ``<flag> = p < self.layerdrop`` and
``hidden_states = torch.where(torch.as_tensor(<flag>), hidden_states, layer(hidden_states, ...))``,
which runs the layer on both sides: only when the layer is pure (no dropout, no state).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from fullgraph.analysis.nodes import walk
from fullgraph.fixes.module_purity import Purity
from fullgraph.fixes.sites import enclosing_function, local_parents


@dataclass
class LayerdropPlan:
    """The statements a layerdrop rewrite replaces and what it puts there."""

    skip: ast.If  # `if p < self.layerdrop: to_drop = True` / `continue`
    flag: str | None  # the existing flag name (None: the `continue` form, a fresh flag is made)
    reset: ast.Assign | None  # `to_drop = False` (flag form)
    guarded: ast.stmt  # `if not to_drop: x = layer(x)` or the `x = layer(x)` after the `continue`
    update: ast.Assign  # `x = layer(x, ...)`
    top: ast.stmt  # the loop-body statement holding `skip`


def _is_true(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _flag_of(skip: ast.If) -> str | None:
    """``to_drop`` in ``if c: to_drop = True``."""
    stmt = skip.body[0]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and _is_true(stmt.value):
        return stmt.targets[0].id
    return None


def _layer_update(stmt: ast.stmt) -> ast.Assign | None:
    """``x = layer(x, ...)``: one name, a call whose first argument is that name."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and isinstance(stmt.value, ast.Call) and stmt.value.args:
        first = stmt.value.args[0]
        if isinstance(first, ast.Name) and first.id == stmt.targets[0].id:
            return stmt
    return None


def _block_with(parent: ast.AST, stmt: ast.stmt) -> list[ast.stmt] | None:
    for field in ("body", "orelse"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return block
    return None


def _names_read(nodes, name: str) -> int:
    return sum(1 for node in nodes for n in walk(node)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def match(tree: ast.AST, skip: ast.If) -> LayerdropPlan | str | None:
    """The layerdrop shape around ``skip``; why a skip flag's later test can't be finished; or None
    when the ``if`` is something else."""
    if skip.orelse or len(skip.body) != 1:
        return None
    flag = _flag_of(skip)
    if flag is None and not isinstance(skip.body[0], ast.Continue):
        return None
    chain = local_parents(tree, skip)
    top, parent = skip, chain.get(skip)
    while isinstance(parent, ast.If) and _block_with(parent, top) is parent.body:  # Python guards around it
        top, parent = parent, chain.get(parent)
    if not isinstance(parent, ast.For) or _block_with(parent, top) is not parent.body:
        return None
    body = parent.body
    index = next(i for i, s in enumerate(body) if s is top)
    rest = body[index + 1:]
    if flag is None:
        if len(rest) != 1 or _layer_update(rest[0]) is None:
            return None
        return LayerdropPlan(skip, None, None, rest[0], rest[0], top)
    reset = body[index - 1] if index else None
    if not (isinstance(reset, ast.Assign) and [ast.unparse(t) for t in reset.targets] == [flag]
            and isinstance(reset.value, ast.Constant) and reset.value.value is False):
        return None
    unfinished = (f"`{flag}` would become a tensor, and the code that reads it next is not a "
                  f"`if not {flag}: x = layer(x, ...)` this fix can predicate too (it would break there instead)")
    guarded = rest[0] if rest else None
    test = getattr(guarded, "test", None)
    if not (isinstance(guarded, ast.If) and isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.Name) and test.operand.id == flag and not guarded.orelse
            and len(guarded.body) == 1):
        return unfinished
    update = _layer_update(guarded.body[0])
    fn = enclosing_function(tree, skip)
    if update is None or fn is None or _names_read([fn], flag) != 1:
        return unfinished
    return LayerdropPlan(skip, flag, reset, guarded, update, top)


def layerdrop_reason(tree: ast.AST, plan: LayerdropPlan | str) -> str | None:
    """Why running the layer on both sides is not safe (None: it is)."""
    if isinstance(plan, str):
        return plan
    fn = enclosing_function(tree, plan.skip)
    reason = Purity(tree, fn).call_reason(plan.update.value)
    if reason is not None:
        return f"skipping the layer would run it on both sides of a `torch.where`, but it {reason}"
    return None
