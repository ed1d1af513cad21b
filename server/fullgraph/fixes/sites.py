"""Locate the statement or expression a finding points at, in an ``ast`` tree."""

from __future__ import annotations

import ast
import copy
from bisect import bisect_right

from fullgraph.analysis.parents import child_parents

STATEMENT_CODES = {"FG101": ast.If, "FG102": ast.While, "FG104": ast.Assert, "FG107": ast.If}
EXPRESSION_CODES = {"FG103": ast.IfExp, "FG201": ast.Call, "FG204": ast.Call, "FG301": ast.Call,
                    "FG302": ast.Call, "FG303": ast.Call, "FG304": ast.Call, "FG422": ast.Call, "FG105": (ast.BoolOp, ast.UnaryOp, ast.Call, ast.Compare),
                    "FG453": ast.Subscript}


def _contains(node: ast.AST, line: int, col: int) -> bool:
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    return start <= (line, col) <= end


def _spans_line(node: ast.AST, line: int) -> bool:
    return node.lineno <= line <= (node.end_lineno or node.lineno)


def _lineno(node: ast.AST) -> int:
    return node.lineno


def children_on(node: ast.AST, line: int):
    """The children of ``node`` that may cover ``line``: a long statement list is searched by
    bisection (its statements are in line order and never overlap), so a descent from the
    root costs its depth, not the size of each body on the way."""
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list) and len(value) > 8 and isinstance(value[0], ast.stmt):
            index = bisect_right(value, line, key=_lineno) - 1
            while index >= 0 and value[index].end_lineno >= line:  # `a; b` share a line
                yield value[index]
                index -= 1
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ast.AST))


def node_at(tree: ast.AST, line: int, col: int, kind: type | tuple[type, ...],
            end: tuple[int, int] | None = None) -> ast.AST | None:
    """The node of ``kind`` spanning exactly (line, col)-``end``, else the innermost containing (line, col),
    else the first starting on ``line``.

    ``col`` is in code points while ``ast`` counts UTF-8 bytes; the line fallback keeps
    non-ASCII lines working.
    """
    exact: ast.AST | None = None
    inner: ast.AST | None = None
    by_line: ast.AST | None = None
    for node in nodes_on(tree, line):
        if isinstance(node, kind) and hasattr(node, "lineno"):
            if node.lineno == line and by_line is None:
                by_line = node
            if end is not None and (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset) == (line, col, *end):
                exact = node
            if _contains(node, line, col) and (inner is None or _contains(inner, node.lineno, node.col_offset)):
                inner = node
    return exact or inner or by_line


def nodes_on(tree: ast.AST, line: int):
    """``tree`` and the nodes under it whose lines hold ``line`` (with the nodes that have no
    position, `match` cases and the like, on the way), found by descent."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in children_on(node, line) if not hasattr(c, "lineno") or _spans_line(c, line))


def finding_node(tree: ast.AST, finding) -> ast.AST | None:
    """The node a finding is about (an ``if``, ``assert``, ternary or call), if found."""
    kind = STATEMENT_CODES.get(finding.code) or EXPRESSION_CODES.get(finding.code)
    if kind is None:
        return None
    if finding.code in ("FG101", "FG107"):
        return _if_for_test(tree, finding)
    return node_at(tree, finding.line, finding.col, kind, (finding.end_line, finding.end_col))


def _spanning(tree: ast.AST, first: int, last: int):
    """Nodes whose line range covers ``first``..``last``, outermost first (a pruned descent)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in children_on(node, first):
            if hasattr(child, "lineno") and child.lineno <= first and last <= (child.end_lineno or child.lineno):
                yield child
                stack.append(child)
            elif not hasattr(child, "lineno"):
                stack.append(child)


def _if_for_test(tree: ast.AST, finding) -> ast.If | None:
    """The ``if`` (or ``elif``) whose test holds the finding, else the one starting there."""
    best: ast.If | None = None
    for node in _spanning(tree, finding.line, finding.line):
        if isinstance(node, ast.If) and _spans_line(node.test, finding.line):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best or node_at(tree, finding.line, finding.col, ast.If)


_MEMOS: list[list[tuple]] = []  # every per_tree memo, for forget_trees()


def forget_trees() -> None:
    """Drop the trees the per_tree memos hold (a whole module's, after its quick fixes)."""
    for memo in _MEMOS:
        memo[0] = (None, None)


def per_tree(compute):
    """Memoize ``compute(tree)`` for the most recent tree (the engine asks once per finding, same scope).

    A hit may span analyses (the language server's parse cache reuses unchanged nodes), so
    ``compute`` must not depend on line numbers; the (key, value) pair is swapped as one object
    because the server analyses documents in two threads.
    """
    last: list[tuple] = [(None, None)]
    _MEMOS.append(last)

    def cached(tree: ast.AST):
        # The engine's scope is a fresh one-statement Module each analysis: key on the statement.
        key = tree.body[0] if isinstance(tree, ast.Module) and len(tree.body) == 1 else tree
        entry = last[0]
        if entry[0] is not key:
            entry = last[0] = (key, compute(tree))
        return entry[1]

    cached.__doc__ = compute.__doc__
    return cached


parents = per_tree(child_parents)


def enclosing_function(tree: ast.AST, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body contains ``node``."""
    best = None
    for candidate in _spanning(tree, node.lineno, node.end_lineno or node.lineno):
        if isinstance(candidate, (ast.FunctionDef, ast.AsyncFunctionDef)) and candidate is not node:
            best = candidate
    return best


def local_parents(tree: ast.AST, node: ast.AST) -> dict[ast.AST, ast.AST]:
    """Child → parent map of the function around ``node`` (the whole tree outside functions)."""
    return parents(enclosing_function(tree, node) or tree)


def ancestors(chain: dict, node: ast.AST, stop: ast.AST) -> list[ast.AST]:
    """The nodes around ``node`` up to ``stop`` (excluded), innermost first, from a child → parent ``chain``."""
    out = []
    node = chain.get(node)
    while node is not None and node is not stop:
        out.append(node)
        node = chain.get(node)
    return out


def without_statement(tree: ast.Module, guard: ast.If, stmt: ast.stmt) -> tuple[ast.Module, ast.If] | None:
    """A tree like ``tree`` whose ``guard`` lacks ``stmt``, and that ``if``: the nodes from the module
    down to it are copies, the rest is shared and ``tree`` is unchanged (None where the way down
    passes a block without positions, a ``match`` case)."""
    path, node = [], tree
    while node is not guard:
        step = _step_towards(node, guard)
        if step is None:
            return None
        path.append(step)
        node = getattr(node, step[1])[step[2]]
    child = copy.copy(guard)
    child.body = [s for s in guard.body if s is not stmt]
    new_guard = child
    for owner, field, index in reversed(path):
        duplicate = copy.copy(owner)
        block = list(getattr(owner, field))
        block[index] = child
        setattr(duplicate, field, block)
        child = duplicate
    return child, new_guard


def _step_towards(node: ast.AST, target: ast.stmt) -> tuple[ast.AST, str, int] | None:
    """(node, field, index) of the statement under ``node`` that is or holds ``target``."""
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        for index, child in enumerate(getattr(node, field, None) or ()):
            end = getattr(child, "end_lineno", 0) or 0
            if child is target or getattr(child, "lineno", 0) <= target.lineno <= end:
                return node, field, index
    return None
