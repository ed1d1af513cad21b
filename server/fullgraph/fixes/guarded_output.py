"""An output call that is all an ``if`` on a tensor does (``if torch.isnan(y).any(): warn(...)``):
its deferral moves the whole ``if``, the condition computed in the graph and tested at the replay.

The engine marks such a call's finding (``tensor_if``: the test's line and what it knows is a tensor
there, from the ``if``'s own FG101 or a ``.item()`` in its test); :func:`moved_guard` is the ``if`` a
deferral replaces, where its test can be computed as a boolean tensor (Python operands of a top-level
``and`` stay a real ``if``). Where it can't, the call alone is deferred, as before.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.fixes.conditions import mixed_reason, python_params, split_python, tensor_attributes, tensor_part
from fullgraph.fixes.known import lowering_reason
from fullgraph.fixes.sites import enclosing_function, parents


def guarding_if(chain: dict, stmt: ast.stmt) -> ast.If | None:
    """The ``if`` whose whole body is ``stmt``, with no ``else``/``elif``; None otherwise."""
    holder = chain.get(stmt)
    if isinstance(holder, ast.If) and holder.body == [stmt] and not holder.orelse:
        return holder
    return None


def moved_guard(tree: ast.AST, call: ast.Call, finding) -> tuple[ast.If, list[ast.expr]] | None:
    """The tensor ``if`` the engine marked around ``call``, when it is still the one there and its
    test can move into the deferred call, with the Python operands of its top-level ``and``, which
    stay a real ``if`` around the deferral (``if self.verbose and torch.isnan(y).any():``)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    marked = data.get("tensor_if")
    fn = enclosing_function(tree, call) if isinstance(marked, dict) else None
    if fn is None:
        return None
    chain = parents(fn)
    guard = guarding_if(chain, chain.get(call))
    if guard is None or guard.lineno != marked.get("line"):
        return None
    test = guard.test
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(test)):
        return None
    flags, attrs = python_params(fn), tensor_attributes(tree)
    if mixed_reason(test, flags, attrs) is not None:
        return None
    python, _ = split_python(test, flags, attrs)
    known = set(marked.get("tensors", ()))
    return (guard, python) if lowering_reason(tensor_part(test, python), known) is None else None
