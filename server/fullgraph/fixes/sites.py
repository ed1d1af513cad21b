"""Locate the statement or expression a finding points at, in an ``ast`` tree."""

from __future__ import annotations

import ast

STATEMENT_CODES = {"FG101": ast.If, "FG102": ast.While, "FG104": ast.Assert, "FG107": ast.If}
EXPRESSION_CODES = {"FG103": ast.IfExp, "FG201": ast.Call, "FG204": ast.Call, "FG301": ast.Call,
                    "FG302": ast.Call, "FG303": ast.Call, "FG105": (ast.BoolOp, ast.UnaryOp)}


def _contains(node: ast.AST, line: int, col: int) -> bool:
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    return start <= (line, col) <= end


def _spans_line(node: ast.AST, line: int) -> bool:
    return node.lineno <= line <= (node.end_lineno or node.lineno)


def node_at(tree: ast.AST, line: int, col: int, kind: type | tuple[type, ...]) -> ast.AST | None:
    """The innermost node of ``kind`` containing (line, col); by line when no column matches.

    ``col`` is in code points while ``ast`` counts UTF-8 bytes; the line fallback keeps
    non-ASCII lines working.
    """
    exact: ast.AST | None = None
    by_line: ast.AST | None = None
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, kind) and hasattr(node, "lineno"):
            if node.lineno == line and by_line is None:
                by_line = node
            if _contains(node, line, col):
                if exact is None or _contains(exact, node.lineno, node.col_offset):
                    exact = node
        for child in ast.iter_child_nodes(node):
            if not hasattr(child, "lineno") or _spans_line(child, line):
                stack.append(child)
    return exact or by_line


def finding_node(tree: ast.AST, finding) -> ast.AST | None:
    """The node a finding is about (an ``if``, ``assert``, ternary or call), if found."""
    kind = STATEMENT_CODES.get(finding.code) or EXPRESSION_CODES.get(finding.code)
    if kind is None:
        return None
    if finding.code in ("FG101", "FG107"):
        return _if_for_test(tree, finding)
    return node_at(tree, finding.line, finding.col, kind)


def _if_for_test(tree: ast.AST, finding) -> ast.If | None:
    """The ``if`` (or ``elif``) whose test holds the finding, else the one starting there."""
    best: ast.If | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _spans_line(node.test, finding.line):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best or node_at(tree, finding.line, finding.col, ast.If)


def parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Child → parent map."""
    out: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[child] = node
    return out


def enclosing_function(tree: ast.AST, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body contains ``node``."""
    best = None
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn is not node:
            if fn.lineno <= node.lineno and (node.end_lineno or node.lineno) <= (fn.end_lineno or fn.lineno):
                if best is None or fn.lineno >= best.lineno:
                    best = fn
    return best
