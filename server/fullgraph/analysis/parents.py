"""Child → parent maps of syntax trees."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import children, walk
from fullgraph.analysis.per_node import per_node


def child_parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Child → parent map."""
    out: dict[ast.AST, ast.AST] = {}
    for node in walk(tree):
        for child in children(node):
            out[child] = node
    return out


# One map per function node: the language server's parse cache keeps the nodes of functions the
# user did not edit, so their maps survive keystrokes.
function_parents = per_node(child_parents)
