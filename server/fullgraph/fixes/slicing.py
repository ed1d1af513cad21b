"""Parse only the function around a finding with libcst, and turn its rewrite into one edit."""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

import libcst as cst

from fullgraph.fixes.comments import carry_comments
from fullgraph.fixes.edits import TextEdit, minimal_edit
from fullgraph.fixes.sites import enclosing_function
from fullgraph.text import line_starts, split_lines_keepends

WRAPPER = "if True:\n"


@dataclass
class FunctionSlice:
    """One function's text parsed on its own; ``module.body`` holds the function (maybe wrapped)."""

    source: str
    tree: ast.Module
    fn: ast.FunctionDef | ast.AsyncFunctionDef
    start: int  # offset of the slice in source
    end: int
    module: cst.Module
    wrapped: bool

    @property
    def cst_fn(self) -> cst.FunctionDef:
        """The function node in the parsed slice."""
        first = self.module.body[0]
        return first.body.body[0] if self.wrapped else first

    def text(self, module: cst.Module) -> str:
        """Slice text of a (rewritten) parsed slice."""
        code = module.code
        return code[len(WRAPPER):] if self.wrapped else code

    def edit(self, module: cst.Module) -> TextEdit | None:
        """The minimal edit that puts a rewritten slice back into the source."""
        return minimal_edit(self.source, self.start, self.end, self.text(module))


def open_slice(source: str, tree: ast.Module, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> FunctionSlice:
    """Parse ``fn``'s lines (decorators included) with libcst."""
    starts = line_starts(source)
    first = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
    start = starts[first - 1]
    end = starts[fn.end_lineno] if fn.end_lineno < len(starts) else len(source)
    text = source[start:end]
    if not text.endswith(("\n", "\r")):
        text += "\n"
        end = len(source)
    wrapped = fn.col_offset > 0
    module = cst.parse_module(WRAPPER + text if wrapped else text)
    return FunctionSlice(source, tree, fn, start, end, module, wrapped)


def function_slice(source: str, tree: ast.Module, node: ast.AST) -> FunctionSlice | None:
    """The slice of the innermost function around ``node``."""
    fn = enclosing_function(tree, node)
    return None if fn is None else open_slice(source, tree, fn)


def _cst_blocks(node: cst.CSTNode) -> list[list[cst.CSTNode]]:
    """Statement blocks of a compound libcst node, flattened to small statements, in ``ast`` field order."""
    def flat(block) -> list[cst.CSTNode]:
        if isinstance(block, cst.SimpleStatementSuite):
            return list(block.body)
        out: list[cst.CSTNode] = []
        for stmt in block.body:
            out.extend(stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [stmt])
        return out

    if isinstance(node, cst.If):
        orelse = node.orelse
        if isinstance(orelse, cst.If):
            return [flat(node.body), [orelse]]
        return [flat(node.body), flat(orelse.body) if orelse else []]
    if isinstance(node, (cst.For, cst.While)):
        return [flat(node.body), flat(node.orelse.body) if node.orelse else []]
    if isinstance(node, (cst.With, cst.FunctionDef)):
        return [flat(node.body)]
    if isinstance(node, cst.Try):
        blocks = [flat(node.body)] + [flat(h.body) for h in node.handlers]
        blocks.append(flat(node.orelse.body) if node.orelse else [])
        blocks.append(flat(node.finalbody.body) if node.finalbody else [])
        return blocks
    return []


def _ast_blocks(node: ast.AST) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return [node.body, node.orelse]
    if isinstance(node, (ast.With, ast.AsyncWith, ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node.body]
    if isinstance(node, ast.Try):
        return [node.body] + [h.body for h in node.handlers] + [node.orelse, node.finalbody]
    return []


def cst_statement(piece: FunctionSlice, target: ast.stmt) -> cst.CSTNode | None:
    """The libcst statement (a compound statement or a small one) matching ``target``."""
    def walk(a_node: ast.AST, c_node: cst.CSTNode):
        if a_node is target:
            return c_node
        for a_block, c_block in zip(_ast_blocks(a_node), _cst_blocks(c_node)):
            if len(a_block) != len(c_block):
                return None
            for a_child, c_child in zip(a_block, c_block):
                if a_child.lineno <= target.lineno <= a_child.end_lineno:
                    found = walk(a_child, c_child)
                    if found is not None:
                        return found
        return None

    return walk(piece.fn, piece.cst_fn)


def statement_line(module: cst.CSTNode, small: cst.CSTNode) -> cst.CSTNode:
    """The ``SimpleStatementLine`` holding a small statement (or the statement itself)."""
    finder = _LineFinder(small)
    module.visit(finder)
    return finder.found or small


class _LineFinder(cst.CSTVisitor):
    def __init__(self, small: cst.CSTNode):
        self.small = small
        self.found: cst.CSTNode | None = None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        if any(s is self.small for s in node.body):
            self.found = node
        return False


class Replacer(cst.CSTTransformer):
    """Replace nodes by identity with a node, a list of statements, or nothing."""

    def __init__(self, replacements: dict):
        self.replacements = {id(k): v for k, v in replacements.items()}

    def on_leave(self, original, updated):
        if id(original) not in self.replacements:
            return updated
        new = self.replacements[id(original)]
        if isinstance(new, list):
            return cst.FlattenSentinel(new) if new else cst.RemovalSentinel.REMOVE
        return new


def replace(module: cst.Module, replacements: dict) -> cst.Module:
    """``module`` with the given nodes swapped out."""
    return module.visit(Replacer(replacements))


def code(node: cst.CSTNode) -> str:
    """Source text of a libcst node."""
    return cst.Module(body=[]).code_for_node(node)


def indent(text: str, prefix: str = "    ") -> str:
    """``text`` with every line indented (continuation lines included), but those that start
    inside a string, which are part of its value."""
    in_string = _lines_in_strings(text) or set()
    return "".join(prefix + line if line.strip() and n not in in_string else line
                   for n, line in enumerate(split_lines_keepends(text)))


def continuation(text: str, column: int) -> str:
    """Source cut from a block at ``column``, its continuation lines shifted so that the splice,
    which indents them again by ``column``, leaves them where they were; lines that start inside
    a string (a triple-quoted one's second line) are its value and stay as they are."""
    first, *rest = text.split("\n")
    in_string = _lines_in_strings(" " * column + text)  # tokenized where it stood: a block's dedents match
    in_string = set(range(1, len(rest) + 1)) if in_string is None else in_string  # leave all as they are
    cut = [line if n in in_string else line[column:] if line[:column].isspace() else line.lstrip()
           for n, line in enumerate(rest, start=1)]
    return "\n".join([first, *cut])


def _lines_in_strings(text: str) -> set[int] | None:
    """Indexes (0-based) of the lines of ``text`` that start inside a string token; None when
    ``text`` does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    strings = (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING))
    return {row for t in tokens if t.type in strings for row in range(t.start[0], t.end[0])}


def splice(piece: FunctionSlice, old: list[ast.stmt], new_texts: list[str]) -> TextEdit | None:
    """Replace consecutive statements ``old`` of the slice with statements parsed from ``new_texts``.

    Comments of the replaced code are kept (moved above the new code when the new code
    does not contain them). Returns None when a statement shares its line with another.
    """
    lines = []
    for stmt in old:
        node = cst_statement(piece, stmt)
        if node is None:
            return None
        if not isinstance(node, cst.BaseCompoundStatement):
            line = statement_line(piece.module, node)
            if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
                return None
            node = line
        lines.append(node)
    new = [cst.parse_statement(text if text.endswith("\n") else text + "\n") for text in new_texts]
    replacements = {lines[0]: carry_comments(lines, new)}
    replacements.update({line: [] for line in lines[1:]})
    return piece.edit(replace(piece.module, replacements))
