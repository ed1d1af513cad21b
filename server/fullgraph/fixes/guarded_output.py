"""An output call that is all an ``if`` on a tensor does (``if torch.isnan(y).any(): warn(...)``):
its deferral moves the whole ``if``, the condition computed in the graph and tested at the replay.

The engine marks such a call's finding (``tensor_if``: the test's line and what it knows is a tensor
there, from the ``if``'s own FG101); :func:`moved_guard` is the ``if`` a deferral replaces, where its
test can be computed as a boolean tensor. Where it can't, the call alone is deferred, as before.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.fixes.conditions import python_params, split_python, tensor_attributes
from fullgraph.fixes.known import lowering_reason
from fullgraph.fixes.sites import enclosing_function, parents


def guarding_if(chain: dict, stmt: ast.stmt) -> ast.If | None:
    """The ``if`` whose whole body is ``stmt``, with no ``else``/``elif``; None otherwise."""
    holder = chain.get(stmt)
    if isinstance(holder, ast.If) and holder.body == [stmt] and not holder.orelse:
        return holder
    return None


def moved_guard(tree: ast.AST, call: ast.Call, finding) -> ast.If | None:
    """The tensor ``if`` the engine marked around ``call``, when it is still the one there and its
    test can move into the deferred call."""
    data = finding.data if isinstance(finding.data, dict) else {}
    marked = data.get("tensor_if")
    fn = enclosing_function(tree, call) if isinstance(marked, dict) else None
    if fn is None:
        return None
    chain = parents(fn)
    guard = guarding_if(chain, chain.get(call))
    if guard is None or guard.lineno != marked.get("line"):
        return None
    return guard if _test_moves(tree, fn, guard, marked) else None


def _test_moves(tree: ast.AST, fn: ast.AST, guard: ast.If, marked: dict) -> bool:
    """Whether the ``if``'s test can be computed in the graph as a boolean tensor: it binds no name,
    tests no Python value, and every operand is known to be a tensor."""
    test = guard.test
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(test)):
        return False
    python, _ = split_python(test, python_params(fn), tensor_attributes(tree))
    return not python and lowering_reason(test, set(marked.get("tensors", ()))) is None
