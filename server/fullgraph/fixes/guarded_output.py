"""An output call that is all an ``if`` on a tensor does (``if torch.isnan(y).any(): warn(...)``):
its deferral moves the whole ``if``, the condition computed in the graph and tested at the replay.

The engine marks the finding of a call that starts or ends an ``if`` on a tensor (``tensor_if``: the
test's line and what it knows is a tensor there, from the ``if``'s own FG101 or a ``.item()`` in its
test); :func:`moved_guard` is the ``if`` a deferral replaces when the call is all it does, where its
test can be computed as a boolean tensor (Python operands of a top-level ``and`` stay a real ``if``);
a longer body is :mod:`fullgraph.fixes.split_output`'s. Otherwise the call alone is deferred.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.fixes.conditions import mixed_reason, python_params, split_python, tensor_attributes, tensor_part
from fullgraph.fixes.known import lowering_reason
from fullgraph.fixes.sites import enclosing_function, parents


def holding_if(chain: dict, stmt: ast.stmt) -> ast.If | None:
    """The ``if`` whose body starts or ends with ``stmt`` (all of it, or part: :mod:`split_output`)."""
    holder = chain.get(stmt)
    if isinstance(holder, ast.If) and holder.body and (holder.body[0] is stmt or holder.body[-1] is stmt):
        return holder
    return None


def marked_if(tree: ast.AST, call: ast.Call, finding) -> tuple[ast.If, ast.stmt, dict] | None:
    """The ``if`` on a tensor the engine marked (``tensor_if``) as starting or ending its body with
    ``call``'s statement, when it is still the one there: (that ``if``, the statement, the mark)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    marked = data.get("tensor_if")
    fn = enclosing_function(tree, call) if isinstance(marked, dict) else None
    if fn is None:
        return None
    chain = parents(fn)
    stmt = chain.get(call)
    guard = holding_if(chain, stmt)
    return (guard, stmt, marked) if guard is not None and guard.lineno == marked.get("line") else None


def moved_guard(tree: ast.AST, call: ast.Call, finding) -> tuple[ast.If, list[ast.expr]] | None:
    """The tensor ``if`` the engine marked around ``call``, when it is still the one there and its
    test can move into the deferred call, with the Python operands of its top-level ``and``, which
    stay a real ``if`` around the deferral (``if self.verbose and torch.isnan(y).any():``)."""
    found = marked_if(tree, call, finding)
    if found is None or found[0].body != [found[1]] or found[0].orelse:
        return None
    guard, _, marked = found
    fn = enclosing_function(tree, call)
    test = guard.test
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(test)):
        return None
    flags, attrs = python_params(fn), tensor_attributes(tree)
    if mixed_reason(test, flags, attrs) is not None:
        return None
    python, _ = split_python(test, flags, attrs)
    known = set(marked.get("tensors", ()))
    return (guard, python) if lowering_reason(tensor_part(test, python), known) is None else None
