"""Predication: an ``if``/ternary/``and``/``or`` on a tensor becomes ``torch.where`` or ``torch.cond``."""

from __future__ import annotations

import ast

from fullgraph.fixes.conditions import buffer_names, tensor_part
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.layerdrop import LayerdropPlan
from fullgraph.fixes.preconditions import IfPlan, assigned_names, bound_before, branch_value, plan_if, ternary_split
from fullgraph.fixes.slicing import continuation, function_slice, indent, splice
from fullgraph.fixes.source_comments import source_comments


def _nested_where(ctx: FixContext, conds: list[str], values: list[str]) -> str:
    """``where(c1, v1, where(c2, v2, v_else))``."""
    out = values[-1]
    for cond, value in zip(reversed(conds), reversed(values[:-1])):
        out = f"{ctx.torch}.where({cond}, {value}, {out})"
    return out


def _condition(ctx: FixContext, plan: IfPlan, index: int) -> str:
    """The lowered tensor part of test ``index`` (Python operands of the first test left out)."""
    test = plan.tests[index]
    return ctx.lowering.lower(tensor_part(test, plan.python) if index == 0 else test)


def _branch_value(ctx: FixContext, body: list[ast.stmt], name: str, buffers: set[str]) -> str:
    for stmt in body:
        if name in assigned_names([stmt], buffers):
            return ctx.text(branch_value(stmt, name, buffers))
    return name


def _conditions(ctx: FixContext, plan: IfPlan, uses: int) -> tuple[list[str], list[str]]:
    """Lowered conditions, bound to temporaries first when each is used more than once."""
    conds = [_condition(ctx, plan, i) for i in range(len(plan.tests))]
    if uses <= 1:
        return conds, []
    names = [ctx.names.fresh("cond") for _ in conds]
    return names, [f"{n} = {c}" for n, c in zip(names, conds)]


def _assign_statements(ctx: FixContext, plan: IfPlan) -> list[str]:
    buffers = buffer_names(ctx.tree)
    conds, setup = _conditions(ctx, plan, len(plan.names))
    out = list(setup)
    for name in plan.names:
        values = [_branch_value(ctx, body, name, buffers) for body in plan.bodies]
        where = _nested_where(ctx, conds, values)
        out.append(f"{name}.copy_({where})" if name.startswith("self.") else f"{name} = {where}")
    return out


def _cond_statements(ctx: FixContext, plan: IfPlan, fn: ast.AST, node: ast.If) -> list[str]:
    operands = [n for n in plan.names if bound_before(fn, node, n)]
    params = ", ".join(operands)
    outputs = ", ".join(plan.names)
    buffers = buffer_names(ctx.tree)
    defs = []
    for label, body in (("true_fn", plan.bodies[0]), ("false_fn", plan.bodies[1])):
        name = ctx.names.fresh(label)
        lines = [ctx.text(stmt) for stmt in body if not isinstance(stmt, ast.Pass)]
        assigned = assigned_names(body, buffers)
        # torch.cond rejects a branch output that aliases an input, so pass-through values are copied.
        returned = [n if n in assigned else f"{n}.clone()" for n in plan.names]
        lines.append(f"return {', '.join(returned)}")
        defs.append((name, f"def {name}({params}):\n" + indent("\n".join(lines) + "\n")))
    packed = f"({params},)" if len(operands) == 1 else f"({params})"
    cond = _condition(ctx, plan, 0)
    call = f"{outputs} = {ctx.torch}.cond({cond}, {defs[0][0]}, {defs[1][0]}, {packed})"
    return [defs[0][1], defs[1][1], call]


def predicate_if(ctx: FixContext, node: ast.If) -> list[Fix]:
    """``torch.where``/``torch.cond`` for an ``if`` chain, as one edit of its function."""
    plan = plan_if(ctx.tree, node)
    if isinstance(plan, str):
        return []
    piece = function_slice(ctx.source, ctx.tree, node)
    if piece is None:
        return []
    if isinstance(plan, LayerdropPlan):
        return _layerdrop(ctx, plan, piece)
    old: list[ast.stmt] = [node]
    title = "Predicate with torch.where"
    if plan.shape in ("return", "early-return"):
        values = [ctx.text(body[-1].value) for body in plan.bodies[:-1]]
        if plan.shape == "early-return":
            values.append(ctx.text(plan.following.value))
            old.append(plan.following)
        else:
            values.append(ctx.text(plan.bodies[-1][-1].value))
        conds, setup = _conditions(ctx, plan, 1)
        new = [f"return {_nested_where(ctx, conds, values)}"]
    elif plan.shape == "assign":
        new = _assign_statements(ctx, plan)
    else:
        new = _cond_statements(ctx, plan, piece.fn, node)
        title = "Predicate with torch.cond"
    new = [continuation(ctx.lowering.segment(stmt), node.col_offset) for stmt in plan.hoisted] + new
    if plan.python:
        guard = " and ".join(ctx.text(p) for p in plan.python)
        new = [f"if {guard}:\n" + indent("\n".join(new) + "\n")]
    return ctx.make_fix(title, splice(piece, old, new), "predicate")


def _comments(text: str) -> str:
    """The comments in a piece of source, joined (kept when the piece is rewritten to one line)."""
    return "  ".join(source_comments(text) or ())


def _layerdrop(ctx: FixContext, plan: LayerdropPlan, piece) -> list[Fix]:
    """The skip flag becomes the tensor condition; the guarded layer call a ``torch.where`` over its output."""
    flag = plan.flag or ctx.names.fresh("skip_layer")
    skip_text = ctx.lowering.segment(plan.skip)
    comment = _comments(skip_text)
    assign = f"{flag} = {ctx.lowering.lower(plan.skip.test)}" + (f"  {comment}" if comment else "")
    top = ctx.lowering.segment(plan.top).replace(skip_text, assign, 1)
    target = plan.update.targets[0].id
    call = continuation(ctx.lowering.segment(plan.update.value), plan.guarded.col_offset)
    where = f"{target} = {ctx.torch}.where({ctx.torch}.as_tensor({flag}), {target}, {call})"
    if plan.reset is not None:
        old, new = [plan.reset, plan.top, plan.guarded], [ctx.lowering.segment(plan.reset), top, where]
    else:
        old, new = [plan.top, plan.guarded], [f"{flag} = False", top, where]
    return ctx.make_fix("Predicate the layer skip with torch.where", splice(piece, old, new), "predicate")


def predicate_ternary(ctx: FixContext, node: ast.IfExp) -> list[Fix]:
    """``a if c else b`` on a tensor ``c`` → ``torch.where(c, a, b)``; the Python operands of a
    top-level ``and`` (``a if p and c else b``) stay a conditional expression around it
    (``torch.where(c, a, b) if p else b``)."""
    python, _, test = ternary_split(ctx.tree, node)
    where = f"{ctx.torch}.where({ctx.lowering.lower(test)}, {ctx.text(node.body)}, {ctx.text(node.orelse)})"
    if python:
        where += f" if {' and '.join(_operand(ctx, p) for p in python)} else {ctx.text(node.orelse)}"
    return ctx.make_fix("Predicate with torch.where", ctx.expression_edit(node, where), "predicate")


def _operand(ctx: FixContext, node: ast.expr) -> str:
    """The source of an operand of ``and``, parenthesised where it binds more loosely."""
    text = ctx.text(node)
    return f"({text})" if isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) else text


def lower_boolean(ctx: FixContext, node: ast.expr) -> list[Fix]:
    """``a and b``/``a or b``/``not a`` on tensors → ``torch.logical_*``."""
    return ctx.make_fix("Use torch.logical_and/or/not", ctx.expression_edit(node, ctx.lowering.lower(node)), "predicate")
