"""Branch-local temporaries: Python values a branch computes only for its own use.

``clamp_value = torch.finfo(hidden_states.dtype).max - 1000`` at the top of a tensor branch
is moved before the branch so the rest can be predicated. Only Python numbers built from
constants and tensor metadata move, and only when they cannot raise on the side not taken
(``torch.finfo`` needs a floating dtype, which the condition or the value's source proves).
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import children, walk
from fullgraph.fixes.conditions import is_torch_dtype
from fullgraph.fixes.module_purity import init_value, owner_class
from fullgraph.analysis.imports import dotted
from fullgraph.fixes.sites import local_parents

FLOAT_DTYPES = frozenset(("float16", "half", "bfloat16", "float32", "float", "float64", "double"))
# Layers whose output has the floating dtype of their weights (an integer input makes them raise).
FLOATING_LAYERS = frozenset(("LayerNorm", "Linear", "GroupNorm", "RMSNorm", "Conv1d", "Conv2d", "Conv3d",
                             "BatchNorm1d", "BatchNorm2d", "Embedding"))
SAFE_BINOPS = (ast.Add, ast.Sub, ast.Mult)
FINFO_FIELDS = frozenset(("max", "min", "eps", "tiny", "smallest_normal", "resolution", "bits"))


def is_float_dtype(node: ast.AST) -> bool:
    """``torch.float16`` and the other floating dtypes."""
    return is_torch_dtype(node) and node.attr in FLOAT_DTYPES


def _dtype_guards(test: ast.expr) -> set[str]:
    """Names the condition proves floating (``x.dtype == torch.float16`` under a top-level ``and``)."""
    values = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    names = set()
    for value in values:
        if isinstance(value, ast.Compare) and len(value.ops) == 1 and isinstance(value.ops[0], ast.Eq):
            sides = [value.left, value.comparators[0]]
            for a, b in (sides, sides[::-1]):
                if isinstance(a, ast.Attribute) and a.attr == "dtype" and is_float_dtype(b):
                    name = dotted(a.value)
                    if name is not None:
                        names.add(name)
    return names


class _Floating:
    """Which names are known to hold floating tensors at an ``if``."""

    def __init__(self, tree: ast.AST, fn: ast.AST, node: ast.If):
        self.tree, self.fn, self.node = tree, fn, node
        self.guarded = _dtype_guards(node.test)

    def __call__(self, name: str) -> bool:
        return name in self.guarded or self._from_layer(name)

    def _from_layer(self, name: str) -> bool:
        """The statement right before the ``if`` (or its enclosing blocks) assigns ``name`` from a
        floating layer such as ``self.final_layer_norm(...)``."""
        chain = local_parents(self.tree, self.node)
        stmt = self.node
        while stmt is not None and stmt is not self.fn:
            parent = chain.get(stmt)
            block = next((b for b in (getattr(parent, f, None) for f in ("body", "orelse")) if isinstance(b, list) and stmt in b), None)
            if block is None:
                return False
            for before in reversed(block[:block.index(stmt)]):
                if isinstance(before, ast.Assign) and [dotted(t) for t in before.targets] == [name]:
                    return self._layer_call(before.value)
                if isinstance(before, ast.Expr) and isinstance(before.value, ast.Constant):
                    continue
                if name in _stored(before):
                    return False
            if isinstance(parent, ast.If) and name in _stored_in(parent.test):
                return False
            stmt = parent if isinstance(parent, ast.If) else None
        return False

    def _layer_call(self, value: ast.expr) -> bool:
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and dotted(value.func.value) == "self"):
            return False
        built = init_value(owner_class(self.tree, self.fn), value.func.attr)
        callee = dotted(built.func) if isinstance(built, ast.Call) else None
        return callee is not None and callee.rpartition(".")[2] in FLOATING_LAYERS


def _local_to(fn: ast.AST, node: ast.If, name: str) -> bool:
    """Whether every read of ``name`` outside ``node`` follows its own assignment in the same block
    (another guard's ``clamp_value``), so moving ``node``'s assignment changes no value read."""
    inside = {id(n) for n in walk(node)}
    for block in _blocks(fn):
        assigned = False
        for stmt in block:
            if id(stmt) in inside:
                continue
            reads = [n for n in _shallow(stmt) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
            if reads and not assigned:
                return False
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                assigned = True
    return True


def _blocks(fn: ast.AST):
    """Every statement list in ``fn`` (nested ones included)."""
    for sub in walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(sub, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _shallow(stmt: ast.stmt):
    """The nodes of ``stmt`` outside its nested statement blocks (those are checked as blocks)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        yield node
        for child in children(node):
            if not isinstance(child, ast.stmt):
                todo.append(child)


def _stored(stmt: ast.AST) -> set[str]:
    return {dotted(n) for n in walk(stmt) if isinstance(n, (ast.Name, ast.Attribute))
            and isinstance(n.ctx, ast.Store)} - {None}


def _stored_in(expr: ast.AST) -> set[str]:
    return {n.target.id for n in walk(expr) if isinstance(n, ast.NamedExpr)}


def _python_number(value: ast.expr, floating, earlier: set[str]) -> str | None:
    """Why ``value`` is not a Python number that is safe to compute on either side, or None
    (``earlier``: temporaries already moved, which it may read)."""
    if isinstance(value, ast.Name) and value.id in earlier:
        return None
    if isinstance(value, ast.Constant):
        return None if isinstance(value.value, (int, float)) and not isinstance(value.value, bool) else "not a number"
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        return _python_number(value.operand, floating, earlier)
    if isinstance(value, ast.BinOp):
        if not isinstance(value.op, SAFE_BINOPS):
            return f"`{ast.unparse(value)}` could raise"
        return _python_number(value.left, floating, earlier) or _python_number(value.right, floating, earlier)
    if isinstance(value, ast.Attribute) and value.attr in FINFO_FIELDS and isinstance(value.value, ast.Call):
        call = value.value
        if dotted(call.func) == "torch.finfo" and len(call.args) == 1 and not call.keywords:
            arg = call.args[0]
            if isinstance(arg, ast.Attribute) and arg.attr == "dtype" and dotted(arg.value) is not None:
                if floating(dotted(arg.value)):
                    return None
                return f"`{ast.unparse(call)}` raises unless `{dotted(arg.value)}` is floating, which is not known here"
            if is_float_dtype(arg):
                return None
    return f"`{ast.unparse(value)}` is not known to be a Python number"


def branch_temporaries(tree: ast.AST, fn: ast.AST | None, node: ast.If) -> tuple[list[ast.Assign], str | None]:
    """The leading statements of an ``if`` body (no ``elif``/``else``) that bind branch-local
    Python numbers, and why the next candidate could not move (None when nothing blocked)."""
    if fn is None or node.orelse:
        return [], None
    floating = _Floating(tree, fn, node)
    temps: list[ast.Assign] = []
    for stmt in node.body[:-1]:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            break
        name = stmt.targets[0].id
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        if name in params or not _local_to(fn, node, name):
            break
        earlier = {t.targets[0].id for t in temps}
        reason = _python_number(stmt.value, floating, earlier)
        if reason is not None:
            return temps, f"the branch computes `{name}` before its update, and {reason}"
        temps.append(stmt)
    return temps, None
