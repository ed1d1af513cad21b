"""Results computed once per syntax node and kept while the node lives.

The language server's parse cache keeps the nodes of unchanged code across edits (an edited
block gets new nodes), so what depends only on a node's own text is computed once per edit
at most, and never again for code the user did not touch.
"""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary


def per_node(compute):
    """Memoize ``compute(node, *context)`` by node identity (weakly: a dropped tree frees its
    entries); a ``context`` must be the same for the node's whole life (its file's imports)."""
    memo: WeakKeyDictionary = WeakKeyDictionary()

    def cached(node: ast.AST, *context):
        if node not in memo:
            memo[node] = compute(node, *context)
        return memo[node]

    cached.__doc__ = compute.__doc__
    return cached
