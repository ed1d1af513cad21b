"""What must hold for any input: each check raises AssertionError (with the reason) when it does not."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all
from fullgraph.fixes.deferral_chain import REPLAY

LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as Python's tokenizer and LSP count lines (not fullgraph.text: independent)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _inside(lines: list[str], line: int, col: int, end_line: int, end_col: int, what: str) -> None:
    assert 1 <= line <= end_line <= len(lines), f"{what}: lines {line}-{end_line} outside 1-{len(lines)}"
    assert 0 <= col <= len(lines[line - 1]), f"{what}: column {col} outside line {line} ({len(lines[line - 1])} long)"
    assert 0 <= end_col <= len(lines[end_line - 1]), f"{what}: end column {end_col} outside line {end_line}"
    assert (line, col) <= (end_line, end_col), f"{what}: range ends before it starts"


def summary(findings) -> list[tuple]:
    return [(f.code, f.line, f.col, f.end_line, f.end_col, f.message) for f in findings]


def check_analysis(text: str) -> list:
    """No exception escapes, no internal error, every range inside the text, FG000 exactly when
    ``ast.parse`` fails, and the same findings whatever the line ends."""
    findings = analyze(text, "fuzz.py")
    lines = LINE_BREAK.split(text.removeprefix("\ufeff"))
    for f in findings:
        assert "internal error" not in f.message, f.message
        _inside(lines, f.line, f.col, f.end_line, f.end_col, f.code)
        for r in f.related:
            _inside(lines, r.line, r.col, r.end_line, r.end_col, f"{f.code} related")
    broken = [f for f in findings if f.code == "FG000"]
    assert bool(broken) == (not parses(text.removeprefix("\ufeff"))), f"FG000 {broken} but ast.parse disagrees"
    if "\r" in text or "\n" in text:
        lf = _lf(text)
        for end in ("\r\n", "\r"):
            other = lf.replace("\n", end)
            if other != text:
                assert summary(analyze(other, "fuzz.py")) == summary(findings), f"findings change with {end!r} line ends"
    return findings


def _comments(text: str) -> Counter:
    out: Counter = Counter()
    try:
        for token in tokenize.generate_tokens(io.StringIO(_lf(text)).readline):
            if token.type == tokenize.COMMENT:
                out[token.string.strip()] += 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _functions(tree: ast.Module) -> dict[str, ast.AST]:
    """Top-level functions and class methods by qualified name."""
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            out.update({f"{node.name}.{m.name}": m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))})
    return out


def _outline(tree: ast.Module) -> list[str]:
    """Each top-level statement with every function body, and the decorator a deferral adds (to a class
    or a function), left out."""
    class Hollow(ast.NodeTransformer):
        def visit_FunctionDef(self, node):
            node.body = [ast.Pass()]
            node.decorator_list = [d for d in node.decorator_list if not (isinstance(d, ast.Name) and d.id == REPLAY)]
            return node

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_ClassDef(self, node):
            node.decorator_list = [d for d in node.decorator_list if not (isinstance(d, ast.Name) and d.id == REPLAY)]
            self.generic_visit(node)
            return node

    return [ast.dump(Hollow().visit(stmt)) for stmt in tree.body]


def _subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def check_fix_all(text: str) -> str:
    """Fix-all parses, is idempotent, keeps every comment and every statement outside the functions
    it edits, and does the same whatever the line ends."""
    result = fix_all(text, "fuzz.py")
    if not parses(text):
        assert result.source == text, "fix-all changed a text that does not parse"
        return result.source
    fixed = result.source
    assert parses(fixed), "fix-all produced code that does not parse"
    assert fix_all(fixed, "fuzz.py").source == fixed, "fix-all is not idempotent"
    lost = _comments(text) - _comments(fixed)
    assert not lost, f"fix-all dropped comments {sorted(lost)}"
    before, after = ast.parse(text), ast.parse(fixed)
    assert _subsequence(_outline(before), _outline(after)), "fix-all changed code outside the functions"
    fixable = {f.data.get("function") for f in analyze(text, "fuzz.py") if f.fix and not f.fix_blocked}
    changed = _functions(after)
    for name, node in _functions(before).items():
        if name in changed and not any(f == name or f.startswith(name + ".") for f in fixable if f):
            assert ast.dump(node) == ast.dump(changed[name]), f"fix-all edited `{name}`, which had nothing to fix"
    lf = _lf(text)
    for end in ("\r\n", "\r"):
        if lf.replace("\n", end) != text and text in (lf, lf.replace("\n", "\r\n"), lf.replace("\n", "\r")):
            assert fix_all(lf.replace("\n", end), "fuzz.py").source == _lf(fixed).replace("\n", end), \
                f"fix-all differs with {end!r} line ends"
    return fixed


def check_add_noqa(text: str) -> str:
    """`--add-noqa` on any text: the code stays the same, every comment and line end stays, each
    finding is silenced or named as left, and nothing but the left ones shows afterwards."""
    from fullgraph.commands.add_noqa import add_suppressions

    findings = analyze(text, "fuzz.py")
    new, added, left = add_suppressions(text, findings)
    assert LINE_BREAK.findall(new) == LINE_BREAK.findall(text), "add-noqa changed the lines or their ends"
    if not parses(text):
        return new
    assert parses(new) and ast.dump(ast.parse(_lf(new))) == ast.dump(ast.parse(_lf(text))), "add-noqa changed the code"
    kept = _line_comments(new)
    lost = {line: c for line, c in _line_comments(text).items() if not _keeps(kept.get(line, ""), c)}
    assert not lost, f"add-noqa changed comments {lost}"
    assert added <= len(findings), "add-noqa added more comments than there are findings"
    shown = {(f.line, f.code) for f in analyze(new, "fuzz.py")}
    assert shown <= {(f.line, f.code) for f in left}, f"findings shown after add-noqa: {sorted(shown)}"
    return new


def _line_comments(text: str) -> dict[int, str]:
    out = {}
    for token in tokenize.generate_tokens(io.StringIO(_lf(text)).readline):
        if token.type == tokenize.COMMENT:
            out[token.start[0]] = token.string
    return out


IGNORE_CODES = re.compile(r"(#\s*fullgraph:\s*ignore)\[([^\]]*)\]")


def _keeps(new: str, old: str) -> bool:
    """Whether comment `new` still holds comment `old`: it starts with it (a comment added after one
    makes one token), an ignore's code list only extended."""
    codes = [set(m.group(2).split(",")) for m in IGNORE_CODES.finditer(old)]
    now = [set(m.group(2).split(",")) for m in IGNORE_CODES.finditer(new)]
    return IGNORE_CODES.sub(r"\1", new).startswith(IGNORE_CODES.sub(r"\1", old)) and \
        all(c <= n for c, n in zip(codes, now))
