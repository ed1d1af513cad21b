"""Results computed once per syntax node and kept while the node lives.

The language server's parse cache keeps the nodes of unchanged code across edits (an edited
block gets new nodes), so what depends only on a node's own text is computed once per edit
at most, and never again for code the user did not touch.
"""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary


def per_node(compute):
    """Memoize ``compute(node)`` by node identity (weakly: a dropped tree frees its entries)."""
    memo: WeakKeyDictionary = WeakKeyDictionary()

    def cached(node: ast.AST):
        found = memo.get(node)
        if found is None:
            found = memo[node] = compute(node)
        return found

    cached.__doc__ = compute.__doc__
    return cached
