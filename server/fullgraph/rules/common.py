"""Small helpers the rule families share."""

from __future__ import annotations

import ast

MAX_SNIPPET = 60


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


def string_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def confidence(w, node: ast.AST) -> str:
    """`certain` when `node` is a known tensor, else `likely`."""
    return "certain" if w.is_tensor(node) else "likely"
