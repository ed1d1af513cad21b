"""Epilogue position: a side-effect call after which nothing is traced.

Dynamo still breaks at a print/logging/warnings call, but when only further such calls and a
plain ``return`` follow it, the graph before the break already holds all the tensor work: the
break costs no second graph. The check is a backwards scan over the statement lists that hold
the call (its block, then each enclosing ``if``'s block up to the function body).
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable

from fullgraph.analysis.facts import TENSOR_ATTRS
from fullgraph.analysis.nodes import children

CONVERSION_CALLS = frozenset(("str", "repr", "format", "round", "float", "int", "bool", "len", "abs"))
CONVERSION_METHODS = frozenset(("item", "tolist", "format", "join"))
_BREAKING_CALLS = CONVERSION_CALLS - {"abs", "round"}  # these two are tensor operations on tensors
_NEUTRAL = (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr, ast.keyword, ast.Starred, ast.BoolOp)
_IDENTITY_OPS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_OPERATORS = (ast.expr_context, ast.operator, ast.cmpop, ast.boolop, ast.unaryop)

Deferred = Callable[[ast.Call], bool]  # is this call a print/logging/warnings (or replay) call?
Tensorish = Callable[[ast.expr], bool]  # may this expression hold a tensor?


def in_epilogue(fn: ast.AST, parents: list[ast.AST], deferred: Deferred,
                tensorish: Tensorish = lambda node: False, scan: EpilogueScan | None = None) -> bool:
    """Whether the call at ``parents[-1]`` (an expression statement, ``parents`` its ancestors from
    a statement of ``fn``'s body down, through ``if`` blocks only) comes after some work and is
    followed, on every path, only by quiet epilogue statements and then a plain ``return`` or
    the end of ``fn``. Pass the same ``scan`` for the calls of one function: it remembers what it
    judged, so a function's calls cost time linear in its length."""
    if len(parents) < 2 or not isinstance(parents[-1], ast.Call) or not isinstance(parents[-2], ast.Expr):
        return False
    if not _quiet(parents[-1].args + parents[-1].keywords, broken=False):
        return False  # a tensor operation after a conversion inside the call itself
    scan = scan or EpilogueScan(fn, deferred, tensorish)
    verdict, worked = None, False
    for level in range(len(parents) - 2, -1, -1):
        holder = parents[level - 1] if level else fn
        if holder is not fn and not isinstance(holder, ast.If):
            return False  # loops repeat, `with`/`try` blocks have exits of their own
        block = _block_of(holder, parents[level])
        index = _index_of(block, parents[level])
        if verdict is None:
            verdict = scan.tail(block, index + 1)
            if verdict is False:
                return False
        worked = worked or scan.first_work(block) < index
    return worked  # a call before any work is where Dynamo's graph starts, not where it ends


class EpilogueScan:
    """Judges the statements around the epilogue calls of one function, each statement once."""

    def __init__(self, fn: ast.AST, deferred: Deferred, tensorish: Tensorish = lambda node: False) -> None:
        self.deferred, self.tensorish = deferred, tensorish
        self.replays = {s.name for s in fn.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self._tails: dict[int, tuple[list, dict[int, bool | None]]] = {}
        self._first_work: dict[int, tuple[list, int]] = {}

    def tail(self, block: list[ast.stmt], start: int) -> bool | None:
        """For ``block[start:]``: True at a plain ``return``, False at anything else that is not an
        epilogue statement, None when the block runs out (the enclosing block decides)."""
        memo = self._tails.setdefault(id(block), (block, {}))[1]
        walked, index = [], start
        while index < len(block) and index not in memo:
            stmt = block[index]
            if isinstance(stmt, ast.Return):
                memo[index] = stmt.value is None or plain_value(stmt.value)
            elif not self.statement(stmt):
                memo[index] = False
            else:
                walked.append(index)
                index += 1
        verdict = memo.get(index)
        memo.update(dict.fromkeys(walked, verdict))
        return verdict

    def first_work(self, block: list[ast.stmt]) -> int:
        """Index of the first statement of ``block`` that does work (``len(block)`` when none does)."""
        found = self._first_work.get(id(block))
        if found is None:
            index = next((i for i, stmt in enumerate(block) if not self.setup(stmt)), len(block))
            found = self._first_work[id(block)] = (block, index)
        return found[1]

    def setup(self, stmt: ast.stmt) -> bool:
        """A statement that does no work Dynamo would trace: a docstring, a nested def, ``pass``,
        a constant or empty-container assignment, or an epilogue statement."""
        if isinstance(stmt, ast.Assign):
            value = stmt.value
            return isinstance(value, ast.Constant) or (isinstance(value, (ast.List, ast.Dict, ast.Tuple))
                                                       and not getattr(value, "elts", getattr(value, "keys", None)))
        return isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Pass)) or (
            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)) or self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> bool:
        """A quiet deferred call, a replay-function call, or an ``if`` on a Python value around them."""
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            replay = isinstance(call.func, ast.Name) and call.func.id in self.replays
            return (replay or self.deferred(call)) and _quiet([call.func, *call.args, *call.keywords], broken=True)
        if isinstance(stmt, ast.If):
            return (_quiet([stmt.test], broken=True) and not self.tensorish(stmt.test)
                    and all(self.statement(s) for s in (*stmt.body, *stmt.orelse)))
        return False


def plain_value(node: ast.expr) -> bool:
    """A returned value that needs no tensor operation: a name, a constant, a non-tensor
    attribute of one, or a tuple of those."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return node.attr not in TENSOR_ATTRS and plain_value(node.value)
    return isinstance(node, ast.Tuple) and all(plain_value(e) for e in node.elts)


def _block_of(holder: ast.AST, stmt: ast.stmt) -> list[ast.stmt]:
    body = holder.body  # an `if`'s body ends on a line before its `else` block starts
    return body if not isinstance(holder, ast.If) or stmt.lineno <= body[-1].end_lineno else holder.orelse


def _index_of(block: list[ast.stmt], stmt: ast.stmt) -> int:
    """Where ``stmt`` is in ``block`` (found by its line: statements are in line order)."""
    index = bisect_left(block, stmt.lineno, key=_lineno)
    while block[index] is not stmt:
        index += 1
    return index


def _lineno(stmt: ast.stmt) -> int:
    return stmt.lineno


def _quiet(nodes, broken: bool) -> bool:
    """Whether evaluating ``nodes`` in order runs no operation after a Python conversion (which
    Dynamo breaks at) or, when ``broken``, no operation at all: conversions, names, constants,
    metadata attributes, containers and identity tests only."""
    for node in nodes:
        ok, broken = _trace(node, broken)
        if not ok:
            return False
    return True


def _trace(node: ast.AST, broken: bool) -> tuple[bool, bool]:
    """(no operation after a break, whether a break happened) for one expression."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True, broken
    if isinstance(node, ast.Attribute) and node.attr not in TENSOR_ATTRS:
        return _trace(node.value, broken)
    for child in children(node):
        if not isinstance(child, _OPERATORS):
            ok, broken = _trace(child, broken)
            if not ok:
                return False, broken
    if _converts(node):
        return True, True
    neutral = isinstance(node, _NEUTRAL) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)) or (
        isinstance(node, ast.Compare) and all(isinstance(op, _IDENTITY_OPS) for op in node.ops))
    return neutral or not broken, broken


def _converts(node: ast.AST) -> bool:
    """A conversion of a (possibly tensor) value into Python: Dynamo breaks there."""
    if isinstance(node, ast.FormattedValue):
        return True
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in _BREAKING_CALLS
    return isinstance(func, ast.Attribute) and (func.attr in ("item", "tolist") or (
        func.attr in CONVERSION_METHODS and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)))
