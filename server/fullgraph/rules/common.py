"""Small helpers the rule families share."""

from __future__ import annotations

import ast

from fullgraph.analysis.per_node import per_node

MAX_SNIPPET = 60


@per_node
def snippet(node: ast.AST) -> str:
    """Short source text of an expression for messages (unparsed, shortened)."""
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return "expression"
    text = " ".join(text.split())
    return text if len(text) <= MAX_SNIPPET else text[: MAX_SNIPPET - 3] + "..."


def method_call(node: ast.Call, *names: str) -> bool:
    """True for `<receiver>.name(...)` with one of `names`."""
    return isinstance(node.func, ast.Attribute) and node.func.attr in names


def builtin_call(node: ast.Call, w, *names: str) -> bool:
    """True for a call of a builtin in `names` that is not shadowed in the file."""
    return isinstance(node.func, ast.Name) and node.func.id in names and w.is_builtin(node.func.id)


def confidence(w, node: ast.AST) -> str:
    """`certain` when `node` is a known tensor, else `likely`."""
    return "certain" if w.is_tensor(node) else "likely"


def scalar_sink_operand(node: ast.Call, w) -> ast.expr | None:
    """The value a `.item()` / `.tolist()` / `int()` / `float()` / `bool()` call reads into Python."""
    if method_call(node, "item", "tolist") and not node.args:
        return node.func.value
    if builtin_call(node, w, "int", "float", "bool") and len(node.args) == 1:
        return node.args[0]
    return None


def numpy_origin(node: ast.expr, w) -> ast.Call | None:
    """The `t.numpy()` or `numpy.f(tensor)` call `node` is computed from (through method chains,
    attributes and indexing), if any."""
    while True:
        if isinstance(node, ast.Call):
            if method_call(node, "numpy") and not node.args and w.is_tensor(node.func.value):
                return node
            q = w.resolve(node.func)
            if q is not None and q.startswith("numpy.") and any(w.is_tensor(a) for a in node.args):
                return node
            node = node.func
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        else:
            return None
