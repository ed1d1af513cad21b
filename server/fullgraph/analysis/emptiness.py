"""Tests that check a value for emptiness (`x.numel() == 0`, `len(x) > 0`, `not x.shape[0]`): what
they test and which way. A tensor holds elements on the common path (a batch is not empty), so a
break past such a check, on the side where the tensor holds something, is one the user's inputs
decide."""

from __future__ import annotations

import ast

SIZE_CALLS = frozenset(("numel", "nelement"))


def _counted(node: ast.expr) -> ast.expr | None:
    """`x` of `x.numel()`, `x.nelement()`, `len(x)`, `x.shape[0]`, `x.size(0)`: a count that is 0
    exactly when `x` is empty."""
    if isinstance(node, ast.Call) and not node.keywords and isinstance(node.func, ast.Attribute):
        if node.func.attr in SIZE_CALLS and not node.args:
            return node.func.value
        if node.func.attr == "size" and len(node.args) == 1 and _is(node.args[0], 0):
            return node.func.value
    if isinstance(node, ast.Call) and not node.keywords and isinstance(node.func, ast.Name) \
            and node.func.id == "len" and len(node.args) == 1:
        return node.args[0]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and _is(node.slice, 0):
        return node.value.value
    return None


def _is(node: ast.expr, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def emptiness(test: ast.expr) -> tuple[ast.expr, bool] | None:
    """(x, True) for a test that holds exactly when `x` is empty (`x.numel() == 0`, `len(x) <= 0`,
    `not x.numel()`), (x, False) for one that holds exactly when it is not (`x.numel() > 0`,
    `len(x) != 0`, `len(x) >= 1`, a bare `x.numel()`); None for any other."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = emptiness(test.operand)
        return None if inner is None else (inner[0], not inner[1])
    counted = _counted(test)
    if counted is not None:
        return counted, False
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    counted, op, right = _counted(test.left), test.ops[0], test.comparators[0]
    if counted is None:
        return None
    if _is(right, 0) and isinstance(op, (ast.Eq, ast.LtE)):
        return counted, True
    if _is(right, 0) and isinstance(op, (ast.NotEq, ast.Gt)) or _is(right, 1) and isinstance(op, ast.GtE):
        return counted, False
    return None
