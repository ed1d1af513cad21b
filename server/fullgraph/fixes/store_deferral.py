"""Deferral of a Python value a compiled method stores on its module: while compiled, the store is
handed to ``_fullgraph_defer`` as a ``setattr`` whose tensors are captured where the store stood,
and the conversion (with any NumPy or ``math`` step around it) runs at the replay, once the module's
call returns, giving the attribute the same value (:mod:`fullgraph.fixes.stored_values` says when)."""

from __future__ import annotations

import ast

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.deferral import CapturePlan, replay_edits
from fullgraph.fixes.known import known_tensors
from fullgraph.fixes.deferral_chain import replay_targets
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.sites import enclosing_function
from fullgraph.fixes.stored_values import store_replay_reason


def defer_store(ctx: FixContext, call: ast.Call, finding, stored: tuple[ast.Assign, str]) -> list[Fix]:
    """Hand the store to ``_fullgraph_defer`` as ``setattr(self, "<attr>", <value>)`` while compiled,
    the value's tensors captured as the lambda's defaults; eager runs store it in place as before."""
    stmt, attr = stored
    fn = enclosing_function(ctx.tree, call)
    data = finding.data if isinstance(finding.data, dict) else {}
    planned = replay_targets(ctx.tree, None, data)
    if planned is None:
        return []
    plan = CapturePlan(ctx, fn, stmt.value, [stmt.value], "stored", frozenset(known_tensors(finding)))
    owner = stmt.targets[0].value.id
    queued = f"{plan.lambda_head(f'{owner}={owner}')} setattr({owner}, {attr!r}, {plan.replayed()})"
    edits = replay_edits(ctx, fn, stmt, queued, planned)
    if edits is None:
        return []
    safe = store_replay_reason(finding, call) is None
    return [Fix(f"Store `{attr}` once the module's call returns", tuple(edits), preferred=safe, kind="defer",
                unsafe=not safe)]

