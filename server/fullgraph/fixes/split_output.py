"""An output call that starts or ends a longer branch of an ``if`` on a tensor
(``if torch.isnan(y).any(): print("nan"); y = torch.zeros_like(y)``).

Its deferral takes the ``if``'s test with it: the test is computed once before the ``if``, as a
boolean tensor the deferred call captures and the ``if`` then tests, and the ``if`` keeps the rest of
its body, which predication turns into ``torch.where`` next (GraphMend's two rewrites on one branch).
The split is offered only where that predication applies to the rest, so it never leaves the ``if``
breaking the graph on its own.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.guarded_output import marked_if
from fullgraph.fixes.preconditions import split_reason
from fullgraph.fixes.slicing import continuation


@dataclass(frozen=True)
class SplitOutput:
    """The ``if`` a deferral splits, the call's statement, and whether it starts the body (else it ends it)."""

    guard: ast.If
    stmt: ast.Expr
    first: bool

    def comment(self, ctx: FixContext) -> str:
        """The comment at the end of the call's last line, spaced to follow it ('' if none)."""
        offset = ctx.lowering.positions.ast_offset
        end = offset(self.stmt.end_lineno, self.stmt.end_col_offset)
        rest = ctx.source[end:].split("\n", 1)[0].strip()
        return f"  {rest}" if rest.startswith("#") else ""

    def texts(self, ctx: FixContext, cond: str, tested: str, site: str) -> list[str] | None:
        """The statements replacing the ``if``: ``cond = <test>``, the deferral ``site`` and the ``if``
        on ``cond`` with the rest of its body, the site where the call stood (before or after the rest);
        None when the call shares a line with other code."""
        rest = _rest_text(ctx, self.guard, self.stmt, cond)
        if rest is None:
            return None
        return [f"{cond} = {tested}", site, rest] if self.first else [f"{cond} = {tested}", rest, site]


def split_guard(tree: ast.Module, call: ast.Call, finding) -> SplitOutput | None:
    """The tensor ``if`` the engine marked around ``call`` (``tensor_if``) when the call's statement
    starts or ends a body of more statements and :func:`split_reason` finds nothing against it
    (``finding``'s data tells whether TorchScript compiles the code)."""
    found = marked_if(tree, call, finding)
    if found is None or len(found[0].body) < 2 or not isinstance(found[1], ast.Expr):
        return None
    guard, stmt, marked = found
    if split_reason(tree, guard, stmt, set(marked.get("tensors", ())), finding) is not None:
        return None
    return SplitOutput(guard, stmt, guard.body[0] is stmt)


def _rest_text(ctx: FixContext, guard: ast.If, stmt: ast.Expr, cond: str) -> str | None:
    """The ``if``'s source with its test replaced by ``cond`` and the lines of ``stmt`` left out (the
    comment after it goes with the call, :meth:`SplitOutput.comment`); None when ``stmt`` shares a line."""
    source, offset = ctx.source, ctx.lowering.positions.ast_offset
    start, end = offset(guard.lineno, guard.col_offset), offset(guard.end_lineno, guard.end_col_offset)
    test_start = offset(guard.test.lineno, guard.test.col_offset)
    test_end = offset(guard.test.end_lineno, guard.test.end_col_offset)
    call_start, call_end = offset(stmt.lineno, stmt.col_offset), offset(stmt.end_lineno, stmt.end_col_offset)
    line_start = source.rfind("\n", 0, call_start) + 1
    line_end = source.find("\n", call_end)
    line_end = len(source) if line_end < 0 else line_end
    after = source[call_end:line_end].strip()
    if source[line_start:call_start].strip() or (after and not after.startswith("#")) or line_start <= test_end:
        return None
    cut_end = min(line_end + 1, end)
    text = source[start:line_start].rstrip(" \t") + source[cut_end:end] if cut_end < end else \
        source[start:line_start].rstrip()
    text = text[:test_start - start] + cond + text[test_end - start:]
    return continuation(text.rstrip(), guard.col_offset)
