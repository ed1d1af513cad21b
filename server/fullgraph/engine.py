"""`analyze()`: source text in, sorted findings out. Never raises."""

from __future__ import annotations

import ast
import copy
import io
import sys
import tokenize
from collections import deque
from contextlib import nullcontext
from dataclasses import dataclass, field

from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex
from fullgraph.analysis.walker import Raw, Visit, Walker
from fullgraph.config import Config
from fullgraph.findings import Finding, Location
from fullgraph.fixes.preconditions import decline_reason
from fullgraph.rules.catalog import RULES, checks
from fullgraph.suppression import suppressed
from fullgraph.text import Text, code_point_col, split_lines

CHECKS = checks()
RECURSION_LIMIT = 20_000  # expressions nested as deep as ast.parse accepts (a few thousand levels)
LOOP_NOTE = " (inside a loop: Dynamo skips the whole function)"
_HEADER_ONLY = (ast.If, ast.While)  # reported on `if <test>` / `while <test>`, not the whole block


@dataclass
class Report:
    """The findings of one document and its compiled entry points."""

    findings: list[Finding] = field(default_factory=list)
    entries: list[Location] = field(default_factory=list)


class _Lines:
    """The source split into lines on demand; converts UTF-8 byte columns to code points."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[str] | None = None

    def line(self, number: int) -> str:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines[number - 1] if 0 < number <= len(self._lines) else ""

    def col(self, number: int, byte_col: int) -> int:
        return code_point_col(self.line(number), byte_col)


def decode(source: str | bytes) -> str | None:
    """Source text, honouring a PEP 263 coding line for bytes; None when undecodable."""
    if isinstance(source, str):
        return source.removeprefix("\ufeff")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None


def _fg000(path: str, message: str, line: int = 1, col: int = 0, end_line: int | None = None,
           end_col: int | None = None) -> Finding:
    line = max(line, 1)
    col = max(col, 0)
    end_line = max(end_line or line, line)
    end_col = end_col if end_col is not None and (end_line > line or end_col > col) else col + 1
    return Finding(path, line, col, end_line, end_col, "FG000", message, severity="error")


def _inside(finding: Finding, text: str) -> Finding:
    """``finding`` with its range inside the text: an error at the end of a line (or past the last
    line) gets an empty range there; an empty or inverted range inside a line gets the character at its start."""
    positions = Text(text)
    line = min(finding.line, positions.line_count)
    length = len(positions.line(line))
    col = min(finding.col, length)
    end_line = min(max(finding.end_line, line), positions.line_count)
    end_col = min(finding.end_col, len(positions.line(end_line)))
    if (end_line, end_col) <= (line, col):
        end_line = line
        end_col = min(col + 1, length)
    return finding.with_(line=line, col=col, end_line=end_line, end_col=end_col)


def _parse(text: str, path: str, cache: ParseCache | None) -> ast.Module | Finding:
    try:
        return cache.parse(text, path) if cache is not None else ast.parse(text, filename=path)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = (exc.offset or 1) - 1
        end_line = exc.end_lineno if exc.end_lineno and exc.end_lineno >= line else line
        end_col = (exc.end_offset or 0) - 1 if exc.end_offset and exc.end_offset > 0 else None
        return _fg000(path, f"syntax error: {exc.msg}", line, col, end_line, end_col)
    except ValueError as exc:  # null bytes
        return _fg000(path, f"cannot parse: {exc}")
    except (RecursionError, MemoryError):
        return _fg000(path, "cannot parse: the code is nested too deeply")


def analyze(source: str | bytes, path: str = "<string>", config: Config | None = None) -> list[Finding]:
    """Likely graph breaks in `source`, sorted by (line, col, code)."""
    return analyze_document(source, path, config).findings


def analyze_document(source: str | bytes, path: str = "<string>", config: Config | None = None,
                     cache: ParseCache | None = None) -> Report:
    """Findings plus the compiled entry points of one document.

    ``cache`` (one per open document in the language server) re-parses only the top-level blocks
    changed since the last text that parsed; it stays locked until the analysis is done.
    """
    config = config or Config()
    if sys.getrecursionlimit() < RECURSION_LIMIT:  # the walk recurses once per nesting level
        sys.setrecursionlimit(RECURSION_LIMIT)
    text = decode(source)
    if text is None:
        return _filtered(Report([_fg000(path, "cannot decode the file (not UTF-8 and no valid coding line)")]), config)
    with cache.lock if cache is not None else nullcontext():  # the cache moves its tree's nodes in place
        return _analyze_text(text, path, config, cache)


def _analyze_text(text: str, path: str, config: Config, cache: ParseCache | None) -> Report:
    try:
        parsed = _parse(text, path, cache)
        if isinstance(parsed, Finding):
            return _filtered(Report([_inside(parsed, text)]), config)
        return _analyze_tree(parsed, text, path, config)
    except Exception as exc:  # noqa: BLE001 - a checker bug must not take the caller down
        finding = _not_analyzed(path, "the file", exc)
        return Report([finding] if config.selects(finding.code) else [])


def _internal_error(path: str, where: str, exc: Exception) -> None:
    """Log a checker bug to stderr; the run goes on with the other functions and files."""
    print(f"fullgraph: internal error in {path} ({where}): {type(exc).__name__}: {exc}", file=sys.stderr)


def _not_analyzed(path: str, what: str, exc: BaseException, node: ast.AST | None = None,
                  lines: _Lines | None = None) -> Finding:
    """The FG001 finding that says ``what`` (a function at ``node``, or the file) was not analysed and why."""
    if isinstance(exc, (RecursionError, MemoryError)):
        why = "an expression in it is nested too deeply for the checker"
    else:
        _internal_error(path, what, exc)
        why = f"internal error ({type(exc).__name__}: {exc})"
    message = f"{what} was not analysed: {why}; its graph breaks are not reported"
    rule = RULES["FG001"]
    if node is None or lines is None:
        return Finding(path, 1, 0, 1, 0, rule.code, message, severity=rule.severity)
    line = node.lineno
    header = lines.line(line)
    return Finding(path, line, lines.col(line, node.col_offset), line, len(header), rule.code, message,
                   severity=rule.severity)


def _filtered(report: Report, config: Config) -> Report:
    """Apply select/ignore and severities to an FG000 report (FG000 is shown unless ignored)."""
    report.findings = [f.with_(severity=config.severity_for(f.code, f.severity)) for f in report.findings
                       if config.selects(f.code) or not any(f.code.startswith(p) for p in config.ignore)]
    return report


def _analyze_tree(tree: ast.Module, text: str, path: str, config: Config) -> Report:
    index = ModuleIndex(tree, text)
    entries = index.entries(config.assume_compiled)
    lines = _Lines(text)
    seen: dict[tuple, Finding] = {}
    scopes: dict[int, ast.Module] = {}  # one fix scope per function, so the fix checks' caches hit
    failed: list[Finding] = []
    walks = list(_walk_region(index, entries, path, lines, failed))
    called = {id(target) for walker, _ in walks for target, *_ in walker.calls}
    for walker, visit in walks:
        for raw in walker.raws:
            if not config.selects(raw.code) or (raw.epilogue and id(visit.function) not in called):
                continue
            finding = _finding(raw, visit, path, lines, config, scopes)
            if finding is not None:
                seen.setdefault((finding.line, finding.col, finding.code), finding)
    for finding in failed:
        if config.selects(finding.code) and not suppressed(lines.line(finding.line), finding.code):
            seen.setdefault((finding.line, finding.col, finding.code), finding.with_(
                severity=config.severity_for(finding.code, finding.severity)))
    findings = sorted(seen.values(), key=lambda f: (f.line, f.col, f.code))
    return Report(findings, [_location(e.node, path, lines, e.qualname) for e in entries])


def _walk_region(index: ModuleIndex, entries: list[FunctionInfo], path: str, lines: _Lines, failed: list[Finding]):
    """Each function of the compiled region walked once (breadth first from the entries); a function
    whose walk fails gets an FG001 finding in ``failed``."""
    queue = deque(Visit(e, e) for e in entries)
    queued = {id(e) for e in entries}
    while queue:
        visit = queue.popleft()
        walker = Walker(index, visit, CHECKS)
        try:
            walker.run()
        except Exception as exc:  # noqa: BLE001 - one bad rule or odd file must not stop the run
            failed.append(_not_analyzed(path, f"`{visit.function.qualname}`", exc, visit.function.node, lines))
            continue
        yield walker, visit
        for target, call, arg_facts, in_loop in walker.calls:
            if id(target) not in queued:
                queued.add(id(target))
                queue.append(Visit(target, visit.entry, (*visit.path, (visit.function.qualname, call)),
                                   visit.in_loop or in_loop, arg_facts))


def _location(node: ast.AST, path: str, lines: _Lines, message: str) -> Location:
    end_line = node.end_lineno or node.lineno
    return Location(path, node.lineno, lines.col(node.lineno, node.col_offset), end_line,
                    lines.col(end_line, node.end_col_offset or 0), message)


def _finding(raw: Raw, visit: Visit, path: str, lines: _Lines, config: Config,
             scopes: dict[int, ast.Module]) -> Finding | None:
    node = raw.node
    rule = RULES[raw.code]
    line = node.lineno
    end_node = node.test if isinstance(node, _HEADER_ONLY) else node
    end_line = end_node.end_lineno or line
    if suppressed(lines.line(line), raw.code) or (end_line != line and suppressed(lines.line(end_line), raw.code)):
        return None
    gb_ids = raw.gb_ids or rule.gb_ids
    message = raw.message
    if raw.in_loop:
        gb_ids = (*gb_ids, "GB7000")
        message += LOOP_NOTE
    related = ()
    if visit.path:
        related = (_location(visit.entry.node, path, lines, f"compiled entry point `{visit.entry.qualname}`"),
                   *(_location(call, path, lines, f"called from `{caller}`") for caller, call in visit.path))
    finding = Finding(
        path, line, lines.col(line, node.col_offset), end_line, lines.col(end_line, end_node.end_col_offset or 0),
        raw.code, message, severity=config.severity_for(raw.code, rule.severity), confidence=raw.confidence,
        gb_ids=gb_ids, fix=rule.fix_kind, related=related,
        data={"entry": visit.entry.qualname, "function": visit.function.qualname, "in_loop": raw.in_loop,
              **({"epilogue": True} if raw.epilogue else {})},  # already after all tensor work
    )
    if rule.fix_kind:
        try:
            scope = scopes.get(id(visit.function))
            if scope is None:
                scope = scopes[id(visit.function)] = _fix_scope(visit.function)
            finding = finding.with_(fix_blocked=decline_reason(scope, finding))
        except Exception as exc:  # noqa: BLE001 - the finding stands even if the fix check fails
            _internal_error(path, f"fix check of {raw.code}", exc)
    return finding


def _fix_scope(function: FunctionInfo) -> ast.Module:
    """The function (with its class's `__init__`) as a small module, so that the precondition
    checks stay local to it however large the file or class is."""
    cls = function.cls
    if cls is None:
        return ast.Module(body=[function.node], type_ignores=[])
    init = cls.methods.get("__init__")
    body = [init.node] if init is not None and init is not function else []
    shell = copy.copy(cls.node)
    shell.body = [*body, function.node]
    return ast.Module(body=[shell], type_ignores=[])
