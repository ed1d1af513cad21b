"""Small helpers the rule families share."""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import assignments
from fullgraph.analysis.facts import NUMPY, VALUE
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


def numpy_origin(node: ast.expr, w, depth: int = 3) -> ast.Call | None:
    """The `t.numpy()` or `numpy.f(tensor)` call `node` is computed from (through method chains,
    attributes, indexing, the arguments of NumPy functions and, `depth` deep, the last binding of a
    name that holds a NumPy value), if any."""
    while True:
        if isinstance(node, ast.Call):
            if method_call(node, "numpy") and not node.args and w.is_tensor(node.func.value):
                return node
            q = w.resolve(node.func)
            if q is not None and q.startswith("numpy."):
                if any(w.is_tensor(a) for a in node.args):
                    return node
                inner = next((o for a in node.args if (o := numpy_origin(a, w, depth)) is not None), None)
                if inner is not None:
                    return inner
            node = node.func
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Name) and depth and w.kind(node) in (NUMPY, VALUE):  # (`t.numpy()`: a value)
            node, depth = last_binding(w.function.node, node.id, node.lineno), depth - 1
        else:
            return None


def last_binding(fn: ast.AST, name: str, line: int) -> ast.expr | None:
    """The value of the last plain `name = value` in ``fn`` before ``line`` (None if there is none)."""
    best = None
    for sub in assignments(fn):
        if sub.lineno < line and any(isinstance(t, ast.Name) and t.id == name for t in sub.targets):
            if best is None or sub.lineno > best.lineno:
                best = sub
    return best.value if best is not None else None
