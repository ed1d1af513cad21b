"""Names a function uses as Python sizes: evidence that a parameter nobody describes is an int.

A parameter with no call site and no annotation is guessed a tensor; one the body uses as a
slice bound (`x[..., -i:]`), as an argument of `range()`, or compared with a shape
(`self.bias.shape[-1] >= j`) is a size, and guessing it a tensor only makes false alarms.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node

_SHAPE_CALLS = frozenset(("size", "dim", "numel", "len"))


@per_node
def size_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The plain names `fn` uses as sizes (nested functions included: they see the same names)."""
    found: set[str] = set()
    for node in walk(fn):
        if isinstance(node, ast.Slice):
            for bound in (node.lower, node.upper, node.step):
                found |= _operands(bound)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            for arg in node.args:
                found |= _operands(arg)
        elif isinstance(node, ast.Compare) and any(_is_shape(side) for side in (node.left, *node.comparators)) \
                and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            for side in (node.left, *node.comparators):
                if not _is_shape(side):
                    found |= _operands(side)
    return frozenset(found)


def _operands(node: ast.AST | None) -> set[str]:
    """The names of a bound built from names, numbers, `-` and `+ - * //` (`j - i`, `-n`)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _operands(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return _operands(node.left) | _operands(node.right)
    return set()


def _is_shape(node: ast.AST) -> bool:
    """`t.shape[k]`, `t.shape`, `t.size(k)`, `t.dim()`, `len(t)`: a Python int to Dynamo."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr == "shape"
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in _SHAPE_CALLS
    return False
