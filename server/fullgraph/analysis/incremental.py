"""Incremental parsing for the keystroke path: re-parse only the top-level blocks an edit touched.

A `ParseCache` keeps the last text that parsed, its tree and its top-level blocks. A block runs
from the line after the previous block's last statement (line 1 for the first block) to the end
of its own statements, so leading comments and decorators belong to the statement below them;
the last block runs to the end of the file.

Why parsing a span of whole blocks on its own is exact: a block starts where the tokenizer is
clean (no open bracket, string or backslash continuation: a boundary after a line ending in a
backslash is merged away; pending dedents don't matter, as a span that parses alone starts at
column 0). The unchanged prefix ends in that clean state. If the new span parses alone, it ends
clean too (an open bracket, string or continuation at the end of the input is a syntax error),
so the unchanged suffix tokenizes exactly as before and the module's body is the prefix, span
and suffix statements in turn; the suffix nodes only move by the change in line count.

Lines are those of `fullgraph.text` (CR, LF, CRLF); a span is re-joined with LF, which gives the
tree the tokenizer gives (it reads every line end as LF, inside strings too).

A re-parsed statement at the start or end of the span that is the same code as before (the edit
was in another statement of the span, or of comments or blank lines) keeps its old nodes, given
the new positions, so that what an analysis knows of them stays valid
(`fullgraph.analysis.walk_cache`).

Anything in doubt falls back to a full `ast.parse`: no text has parsed yet, an edit spanning most
of the file, a span that does not parse alone, or one that mentions
`__future__` (future imports belong to the whole file; full parses keep them out of this reasoning).
"""

from __future__ import annotations

import ast
import threading
from bisect import bisect_right
from dataclasses import dataclass

from fullgraph.analysis.nodes import same_code
from fullgraph.analysis.parsing import parse_tree
from fullgraph.text import common_ends, split_lines

_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)  # what ast.parse raises on bad input


@dataclass
class _Block:
    """Consecutive top-level statements and the lines from `start` up to the next block."""

    start: int
    stmts: list[ast.stmt]
    positions: list[dict] | None = None  # the attribute dicts of its nodes with positions, collected when first moved

    def move(self, delta: int) -> None:
        """Shift the block `delta` lines down (up when negative), in place."""
        if not delta:
            return
        if self.positions is None:  # a node's own dict: twice as fast to update as its attributes
            self.positions = [node.__dict__ for node in _positioned(self.stmts)]
        for position in self.positions:
            position["lineno"] += delta
            position["end_lineno"] += delta
        self.start += delta


class ParseCache:
    """The last good parse of one document; `lock` is held while a tree from it is in use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._lines: list[str] = []
        self._blocks: list[_Block] = []

    def parse(self, text: str, path: str) -> ast.Module:
        """`parse_tree(text, filename=path)`, re-parsing only the blocks changed since the last good text."""
        lines = split_lines(text)
        try:
            body = self._reparse(lines, path) if self._blocks else None
        except BaseException:
            self._blocks = []  # never leave a half-moved tree behind
            raise
        if body is None:
            tree = parse_tree(text, filename=path)
            self._lines, self._blocks = lines, _blocks(tree.body, lines)
            return tree
        return ast.Module(body=body, type_ignores=[])

    def tree_of(self, text: str) -> ast.Module | None:
        """The tree of `text` when it is the last text that parsed, else None (hold `lock` while
        using it: the next parse moves its nodes)."""
        if not self._blocks or split_lines(text) != self._lines:
            return None
        return ast.Module(body=self._body(), type_ignores=[])

    def _body(self) -> list[ast.stmt]:
        return [s for b in self._blocks for s in b.stmts]

    def _reparse(self, lines: list[str], path: str) -> list[ast.stmt] | None:
        """The new module body, or None when a full parse is needed."""
        old, blocks = self._lines, self._blocks
        if lines == old:
            return self._body()
        first, last = _span(old, lines, blocks)
        delta = len(lines) - len(old)
        start, end = blocks[first].start, _block_end(blocks, last, len(old)) + delta
        span = "\n".join(lines[start - 1:end])
        if 2 * (end - start + 1) > len(lines) or "__future__" in span:
            return None
        try:
            stmts = parse_tree(span, filename=path).body
        except _ERRORS:
            return None
        stmts = _same_code(stmts, [s for b in blocks[first:last + 1] for s in b.stmts])
        middle = _blocks(stmts, lines[start - 1:end])
        for block in middle:
            block.move(start - 1)
        for block in blocks[last + 1:]:
            block.move(delta)
        self._lines = lines
        # a span left without statements leaves its lines to the block before it
        self._blocks = [*blocks[:first], *middle, *blocks[last + 1:]]
        return self._body()


def _same_code(new: list[ast.stmt], old: list[ast.stmt]) -> list[ast.stmt]:
    """`new`, where a statement at its start or end is the same code as the old one there (an edit
    elsewhere, or of comments or blank lines), the old one given the new positions: analyses keep
    what they know of nodes that did not change."""
    kept = list(new)
    size = min(len(new), len(old))
    front = 0
    while front < size and _same(new[front], old[front]):
        kept[front] = old[front]
        front += 1
    back = 1
    while back <= size - front and _same(new[-back], old[-back]):
        kept[-back] = old[-back]
        back += 1
    return kept


def _same(new: ast.stmt, old: ast.stmt) -> bool:
    """Whether two statements are the same code; if so `old` takes the positions of `new`."""
    if not same_code(new, old):
        return False
    for source, target in zip(_positioned([new]), _positioned([old])):  # same shape: the same order
        target.lineno, target.col_offset = source.lineno, source.col_offset
        target.end_lineno, target.end_col_offset = source.end_lineno, source.end_col_offset
    return True


def _span(old: list[str], new: list[str], blocks: list[_Block]) -> tuple[int, int]:
    """The first and last block to re-parse: those holding the unchanged line on each side of the change."""
    prefix, suffix = common_ends(old, new)
    starts = [b.start for b in blocks]
    before, after = max(prefix, 1), min(len(old) - suffix + 1, len(old))
    return bisect_right(starts, before) - 1, bisect_right(starts, after) - 1


def _block_end(blocks: list[_Block], index: int, line_count: int) -> int:
    return blocks[index + 1].start - 1 if index + 1 < len(blocks) else line_count


def _blocks(stmts: list[ast.stmt], lines: list[str]) -> list[_Block]:
    """Split top-level statements (numbered from line 1 of `lines`) into blocks."""
    blocks: list[_Block] = []
    end = 0  # the last line of the previous statement
    for stmt in stmts:
        if blocks and (stmt.lineno <= end or lines[end - 1].endswith("\\")):
            blocks[-1].stmts.append(stmt)  # same line (`;`) or a backslash continuation
        else:
            blocks.append(_Block(end + 1, [stmt]))
        end = stmt.end_lineno
    return blocks


def _positioned(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes under `stmts` that have a line number (an explicit stack: faster than ast.walk)."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if hasattr(node, "lineno"):
            found.append(node)
        for name in node._fields:
            value = getattr(node, name)
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                todo.append(value)
    return found
