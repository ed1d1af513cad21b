"""`analyze()`: source text in, sorted findings out. Never raises."""

from __future__ import annotations

import ast
import copy
import functools
import os
import sys
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

from fullgraph.analysis.call_guards import CallGuards, atoms, mode_of_test, moded, passes_mode
from fullgraph.analysis.call_reach import CallReach
from fullgraph.analysis.callers import CallSite, CallSites, Passed, bind_arguments
from fullgraph.analysis.facts import Function
from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.moved_report import moved_report, remember
from fullgraph.analysis.nodes import names_in, self_attribute
from fullgraph.analysis.object_flags import ObjectFlags
from fullgraph.analysis.outside import outside_call_sites
from fullgraph.analysis.parsing import parse_tree
from fullgraph.analysis.replay_order import ReplayOrder, replay_classes
from fullgraph.analysis.runs_inside import runs_inside
from fullgraph.analysis.stored_values import attribute_uses, stored_attribute
from fullgraph.analysis.compiled_callers import compiled_calls, reached_elsewhere
from fullgraph.analysis.remote_callers import calling_files, remote_call_sites
from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex
from fullgraph.analysis.torchscript import scripted_reason
from fullgraph.analysis.user_decided import OUTSIDE_NAMES, DecidedParameters, decided
from fullgraph.analysis.walk_cache import WalkCache, Walked
from fullgraph.analysis.walker import Raw, Visit, Walker
from fullgraph.config import Config
from fullgraph.findings import Finding, Location
from fullgraph.library_breaks import library_summary
from fullgraph.fixes.deferral_chain import replay_supported
from fullgraph.fixes.guarded_output import holding_if
from fullgraph.fixes.keep_tensor import test_if
from fullgraph.fixes.preconditions import KEEP_TENSOR_CODES, fix_check
from fullgraph.fixes.print_operator import available as print_operator_available
from fullgraph.fixes.sites import parents
from fullgraph.rules.catalog import RULES, checks
from fullgraph.rules.common import snippet
from fullgraph.rules.conditions import conditions, contradictory, describe, impossible
from fullgraph.suppression import silenced, suppressed
from fullgraph.text import Text, code_point_col, source_encoding, split_lines, to_lf

CHECKS = checks()
# Codes whose findings carry what is known a tensor: those whose fixes turn values into tensor code,
# and print's (the values torch's print operator may carry).
TENSOR_FIXES = frozenset(code for code, rule in RULES.items() if rule.fix_kind in ("predicate", "trap", "keep-tensor", "where")) \
    | {"FG301"}
RECURSION_LIMIT = 20_000  # expressions nested as deep as ast.parse accepts (a few thousand levels)
FOREIGN_VISITS = 96  # functions of other files walked per analysis (library code can be vast)
LOOP_NOTE = " (inside a loop: Dynamo skips the whole function)"
FIX_CHECK_FAILED = "the check of this fix failed (an internal error), so it is not offered"
_HEADER_ONLY = (ast.If, ast.While)  # reported on `if <test>` / `while <test>`, not the whole block
OUTPUT_CODES = {"FG301", "FG302", "FG303", "FG304"}  # print, logging, warnings, stream writes


@dataclass
class Report:
    """The findings of one document and its compiled entry points."""

    findings: list[Finding] = field(default_factory=list)
    entries: list[Location] = field(default_factory=list)
    elsewhere: list[Finding] = field(default_factory=list)  # in other workspace files this one's entries reach


class _Lines:
    """The source split into lines on demand; converts UTF-8 byte columns to code points."""

    def __init__(self, text: str, lines: list[str] | None = None) -> None:
        self.text = text
        self._lines = lines  # split_lines(text), when the caller has it

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
    encoding = source_encoding(source)
    return source.decode(encoding) if encoding is not None else None


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
        return cache.parse(text, path) if cache is not None else parse_tree(text, filename=path)
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


def analyze(source: str | bytes, path: str = "<string>", config: Config | None = None,
            project: ProjectIndex | None = None) -> list[Finding]:
    """Likely graph breaks in `source`, sorted by (line, col, code)."""
    return analyze_document(source, path, config, project=project).findings


def analyze_document(source: str | bytes, path: str = "<string>", config: Config | None = None,
                     cache: ParseCache | None = None, project: ProjectIndex | None = None,
                     walks: WalkCache | None = None) -> Report:
    """Findings plus the compiled entry points of one document.

    ``cache`` (one per open document in the language server) re-parses only the top-level blocks
    changed since the last text that parsed; it stays locked until the analysis is done.
    ``project`` (a :class:`ProjectIndex`) lets the analysis follow imports into other files.
    ``walks`` (one per open document, with ``cache``) reuses the walks of functions the edits
    since the last analysis cannot have changed.
    """
    config = config or Config()
    if sys.getrecursionlimit() < RECURSION_LIMIT:  # the walk recurses once per nesting level
        sys.setrecursionlimit(RECURSION_LIMIT)
    text = decode(source)
    if text is None:
        report = _filtered(Report([_fg000(path, "cannot decode the file (not UTF-8 and no valid coding line)")]), config)
    else:
        with cache.lock if cache is not None else nullcontext():  # the cache moves its tree's nodes in place
            report = _analyze_text(text, path, config, cache, project, walks if cache is not None else None)
    if config.per_file_ignores:
        report.findings = [f for f in report.findings if not config.ignored_in(f.path, f.code)]
        report.elsewhere = [f for f in report.elsewhere if not config.ignored_in(f.path, f.code)]
    return report


def _analyze_text(text: str, path: str, config: Config, cache: ParseCache | None,
                  project: ProjectIndex | None, walks: WalkCache | None) -> Report:
    try:
        parsed = _parse(to_lf(text), path, cache)  # same tree; CPython's messages count CRLF lines differently
        if isinstance(parsed, Finding):
            return _filtered(Report([_inside(parsed, text)]), config)
        if walks is None:
            return _analyze_tree(parsed, _Lines(text), path, config, project)
        lines = split_lines(text)
        moved = moved_report(walks.last, parsed.body, lines, path, config, project)
        if moved is not None:
            return moved
        walks.last = None
        report = _analyze_tree(parsed, _Lines(text, lines), path, config, project, walks)
        walks.last = remember(parsed.body, lines, path, config, project, report)
        return report
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


def _analyze_tree(tree: ast.Module, lines: _Lines, path: str, config: Config,
                  project: ProjectIndex | None = None, kept: WalkCache | None = None) -> Report:
    index = ModuleIndex(tree, lines.text, _index_path(path, project), project)
    if kept is not None:
        kept.begin(tree.body, index.path, project)
        index.kept_returns = kept
    entries = index.entries(config.assume_compiled)
    if config.assume_compiled in ("modules", "api"):  # what the modules reach, not the exports, leaves the rest
        reached = reached_elsewhere(index, [e for e in entries if e.exported is None])
        entries = sorted({id(e): e for e in [*entries, *reached]}.values(), key=lambda e: e.node.lineno)
    seen: dict[tuple, Finding] = {}
    library_found: dict[tuple, list[tuple[tuple, Finding]]] = {}  # breaks in library code, by the user's line
    elsewhere: dict[tuple, Finding] = {}
    scopes: dict[int, ast.Module] = {}  # one fix scope per function, so the fix checks' caches hit
    home_lines = functools.cache(lambda p: _Lines(project.tree(p)[1]))
    sites = CallSites()
    failed: list[Finding] = []
    outside_call_sites(index, tree, entries, sites,
                       None if kept is None else lambda visit: _walk(index, visit, False, kept))
    remote_call_sites(index, entries, sites)
    guarded = entries
    library: dict[int, ast.Call] = {}  # library code this file compiles, reported at its first compile call
    for info, call in index.library_targets:
        library.setdefault(id(info), call)
        if id(call) in index.library_objects:  # `self` in the inherited `forward` is the compiled object
            sites.add(info.node, CallSite("torch.compile", call, {"self": (index.library_objects[id(call)], ())}))
    walks, entries, leaving = _walk_region(index, [*entries, *(info for info, _ in index.library_targets)], sites,
                                           path, lines, failed, kept, library)
    entries = [e for e in entries if id(e) not in library]
    objects = ObjectFlags(walks, index, library)
    guards = CallGuards(walks, guarded, compiled_calls(guarded, sites), objects.flags)
    if kept is not None and project is not None:
        project.touch(kept.touched)
    called = {id(target) for walker, _ in walks for target, *_ in walker.calls}

    def ruled_out(conditions, function: FunctionInfo) -> bool:
        """Tests around code that every compiled call (or object) decides the other way."""
        return guards.unreachable(conditions, function) or objects.rules_out(conditions, function)
    reach = CallReach(walks, [*guarded, *(info for info, _ in index.library_targets)],
                      lambda tests, visit: ruled_out(tests.conditions, visit.function))
    decided_params = DecidedParameters(reach.entries, reach.callers, lambda visit, tests: tests is None or all(
        _user_part(*moded(test, holds, dict(visit.flag_modes)), visit.function, decided_params) is not None
        for test, holds in guards.unsettled(tests.conditions, visit.function)))  # (a decided part stands for its test)
    order = ReplayOrder(walks, OUTPUT_CODES)
    compiled_elsewhere = index.workspace_compiles()
    for walker, visit in walks:
        home = visit.function.module
        tensor_ifs = _tensor_ifs(visit.function.node, walker.raws)
        for raw in walker.raws:
            if not config.selects(raw.code) or (raw.epilogue and id(visit.function) not in called) \
                    or ruled_out(raw.conditions, visit.function) or reach.dead(visit.function):
                continue
            settled = guards.unsettled(raw.conditions, visit.function)
            raw = replace(raw, conditions=settled) if len(settled) != len(raw.conditions) else raw
            if home is index or home is None:
                related = _related(visit, path, lines, compiled_elsewhere.get(id(visit.entry)))
                finding = _finding(raw, visit, path, lines, config, scopes, related, index, kept, order, tensor_ifs)
                key = None if finding is None else (finding.line, finding.col, finding.code)
                if finding is not None and (key not in seen or "inherited_by" in seen[key].data):
                    seen[key] = finding  # the code's own class first: its fix is checked
            elif visit.origin is not None and project.in_workspace(home.path):
                related = (_location(visit.entry.node, path, lines, f"compiled entry point `{visit.entry.qualname}`"),
                           _location(visit.origin, path, lines, "reached from here"))
                finding = _finding(raw, visit, home.path, home_lines(home.path), config, scopes, related, home,
                                   order=order, tensor_ifs=tensor_ifs)
                if finding is not None:
                    elsewhere.setdefault((finding.path, finding.line, finding.col, finding.code), finding)
            elif visit.origin is not None:
                rank = _library_rank(raw, visit)  # by its own tests: those of the calls on the way are named
                around = _user_path_conditions(reach.chain(visit.function), decided_params, guards)
                parts = [(_user_part(test, holds, visit.function, decided_params), (test, holds))
                         for test, holds in raw.conditions]
                own = tuple(part or condition for part, condition in parts)
                users = frozenset({id(test) for test, _ in around} | {  # the path's are the user's already
                    id(part[0]) for part, _ in parts if part is not None})
                raw = replace(raw, conditions=(*around, *own))
                for call in leaving.get(id(visit.function)) or [visit.origin]:
                    finding = _library_finding(raw, replace(visit, origin=call), path, lines, config, project,
                                               id(visit.entry) in library, users)
                    if finding is not None:
                        library_found.setdefault((finding.line, finding.col, finding.code), []).append((rank, finding))
    for key, found in library_found.items():
        seen.setdefault(key, library_summary(found))
    for finding in failed:
        if config.selects(finding.code) and not suppressed(lines.line(finding.line), finding.code):
            seen.setdefault((finding.line, finding.col, finding.code), finding.with_(
                severity=config.severity_for(finding.code, finding.severity)))
    findings = sorted(seen.values(), key=lambda f: (f.line, f.col, f.code))
    return Report(findings, [_location(e.node, path, lines, e.qualname) for e in entries],
                  sorted(elsewhere.values(), key=lambda f: (f.path, f.line, f.col, f.code)))


def _users(test: ast.expr, holds: bool, function: FunctionInfo, params: DecidedParameters) -> bool:
    """A test in `function` the user's side decides: :func:`_outside` ones, and those that read only
    globals and the parameters `params` says the user decides (in the compiled entry, its own, the
    user's arguments: `if pixel_values is not None:`)."""
    return _outside(test, holds) or decided(test, function, params.of(function))


def _user_part(test: ast.expr, holds: bool, function: FunctionInfo, params: DecidedParameters) -> tuple | None:
    """(test, holds) when the user's side decides it (or each part of it, where every part holds:
    `torch.are_deterministic_algorithms_enabled() or x.is_mps` taken as false reads a torch setting
    and a device), else a part of it the user's side decides that alone makes it hold so
    (`thresholds is not None` of `isinstance(state, Tensor) and thresholds is not None` taken as
    false: whenever that part is false, so is the whole), or None."""
    if _users(test, holds, function, params):
        return test, holds
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _user_part(test.operand, not holds, function, params)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) != holds:  # a false `and`, a true `or`
        return next((part for value in test.values if (part := _user_part(value, holds, function, params))), None)
    if isinstance(test, ast.BoolOp) and all(_user_part(value, holds, function, params) == (value, holds)
                                            for value in test.values):  # a true `and`, a false `or`: each part
        return test, holds
    return None


def _user_path_conditions(chain, params: DecidedParameters, guards: CallGuards) -> tuple:
    """Of the tests around the calls that lead from the compiled entry to library code, those the
    user's side decides, for the finding to name; the library's other tests on the way are left out
    (they leave the finding as it is)."""
    found = []
    for visit, _, tests in chain:
        if tests is None:
            continue
        modes = dict(visit.flag_modes)
        for test, holds in guards.unsettled(tests.conditions, visit.function):
            if part := _user_part(*moded(test, holds, modes), visit.function, params):
                found.append(part)
    return tuple(found)


def _index_path(path: str, project: ProjectIndex | None) -> str:
    """The path the project index knows this file by (absolute), or the name given."""
    return os.path.abspath(path) if project is not None and os.path.isfile(path) else path


MAX_PASSES = 3  # re-walks of functions whose callers changed what they pass


def _walk_region(index: ModuleIndex, entries: list[FunctionInfo], sites: CallSites, path: str, lines: _Lines,
                 failed: list[Finding], kept: WalkCache | None = None, origins: dict[int, ast.AST] | None = None):
    """Each function of the compiled region walked with the facts of every call site that passes
    to its parameters (`sites` may already hold call sites from outside the region); a function
    another analysed function calls is walked as that caller's helper, and only a root (called by
    none) keeps the entry guess. Calls and wrapping decorators are followed into other files (at
    most FOREIGN_VISITS functions of them, the wrappers their decorators put around them aside).
    Files define callees before callers, so walking the entries last to first, each followed by its
    callees, mostly gets the order right; a function
    whose visit changed after all is walked again. A function of this file whose walk fails gets
    an FG001 finding in ``failed``. A walk of this file's function is taken from ``kept`` when
    the edits since it left it valid. An entry of another file (library code this file compiles)
    is reached from its `origins` call. Returns the walks, the roots, and for each function walked
    from another file's code the calls of this file that reach it."""
    walks: dict[int, tuple[Walker, Visit]] = {}
    entered: dict[int, dict[tuple, tuple[int, ast.AST, bool]]] = {}  # function id -> its callers (id, call, in loop)
    functions: dict[int, FunctionInfo] = {}
    by_node: dict[int, int] = {}  # id of a def node -> id of its FunctionInfo
    dirty: set[int] = set()  # functions whose call sites or callers changed since their walk
    maker: dict[int, int] = {}  # id of a call -> id of the function making it
    foreign: set[int] = set()  # functions of other files reached so far
    overrides = index.overridden(entries)  # a base's method -> the dispatched entries overriding it

    def visit_of(function: FunctionInfo) -> Visit:
        known = sites.of(function.node)
        params = sites.facts(function.node)
        first = next(iter(entered.get(id(function), {}).values()), None)  # its first caller
        if first is None or first[0] not in walks:
            return Visit(function, function, params=params, origin=(origins or {}).get(id(function)))
        caller = walks[first[0]][1]
        origin = caller.origin
        if origin is None and (caller.function.module or index) is index and _elsewhere(function, index):
            origin = first[1]  # the region leaves the analysed file here
        return Visit(function, caller.entry,
                     (*caller.path, (caller.function.qualname, first[1], (caller.function.module or index).path)),
                     caller.in_loop or first[2], params=params, origin=origin, training=mode_of(known),
                     flag_modes=flag_modes(function, known))

    def mode_of(known) -> bool | None:
        """The training mode every known call of a function is made in, when all agree (a helper
        called only under `if self.training:`); None when one is unconstrained or not walked here."""
        modes = set()
        for site in known:
            walked = walks.get(maker.get(id(site.call)))
            if walked is None:
                return None
            walker, visit = walked
            tests = walker.call_tests.get(id(site.call))
            mode = tests.mode(visit.flag_modes) if tests is not None else None
            modes.add(visit.training if mode is None else mode)
        return modes.pop() if len(modes) == 1 else None

    def walk(function: FunctionInfo) -> list[FunctionInfo]:
        visit = visit_of(function)
        home = function.module or index
        dirty.update(by_node.get(n, n) for n in sites.drop(function.qualname))
        try:
            walker = _walk(home, visit, home is not index, kept)
        except Exception as exc:  # noqa: BLE001 - one bad rule or odd file must not stop the run
            if home is index:
                failed.append(_not_analyzed(path, f"`{function.qualname}`", exc, function.node, lines))
            else:  # a function of another file: its own analysis reports it
                _internal_error(home.path, function.qualname, exc)
            walks.pop(id(function), None)
            return []
        walks[id(function)] = (walker, visit)
        wrappers = [(w, dec, None, False) for dec, w in home.decorator_wrappers(function) if not w.disabled]
        reached = []
        for target, call, passed, in_loop in [*wrappers, *walker.calls]:
            if passed is not None:
                sites.add(target.node, CallSite(function.qualname, call, passed))
                for override in overrides.get(id(target), ()) if self_attribute(getattr(call, "func", None)) else ():
                    sites.add(override.node, CallSite(function.qualname, call,
                                                      {k: v for k, v in passed.items() if k != "self"}))
                    by_node[id(override.node)] = id(override)
                    dirty.add(id(override))
            if target is function:
                continue
            if _elsewhere(target, index) and id(target) not in foreign and call not in function.node.decorator_list:
                # a decorator's wrapper is part of the call of what it wraps: it takes none of the budget
                if len(foreign) >= FOREIGN_VISITS:
                    continue
                foreign.add(id(target))
            entered.setdefault(id(target), {}).setdefault((id(function), id(call)), (id(function), call, in_loop))
            maker[id(call)] = id(function)
            functions[id(target)] = target
            by_node[id(target.node)] = id(target)
            dirty.add(id(target))
            reached.append(target)
        return reached

    todo = sorted(entries, key=lambda e: e.node.lineno)
    functions.update((id(e), e) for e in entries)
    while todo:
        function = todo.pop()
        if id(function) not in walks:
            todo.extend(t for t in reversed(walk(function)) if id(t) not in walks)
    for _ in range(MAX_PASSES):
        stale = [functions[fid] for fid in dirty if fid in walks and _changed(walks[fid][1], visit_of(functions[fid]))]
        dirty.clear()
        if not stale:
            break
        for function in sorted(stale, key=lambda f: -f.node.lineno):
            walk(function)
    roots = [walks[fid][1].function for fid in walks if walks[fid][1].entry is walks[fid][1].function]
    return [walks[fid] for fid in walks], sorted(roots, key=lambda f: f.node.lineno), \
        _leaving_calls(walks, entered, index)


def _leaving_calls(walks: dict[int, tuple], entered: dict[int, dict[tuple, tuple[int, ast.AST, bool]]],
                   index: ModuleIndex) -> dict[int, list]:
    """For each function walked from another file's code, every call (or decorator) of the analysed
    file through which the region reaches it, in order: a library break is reported at each."""
    found: dict[int, dict[int, ast.AST]] = {fid: {} for fid in walks}
    reaches: dict[int, set[int]] = {}  # a function reached from other files' code -> the functions it calls
    for fid, calls in entered.items():
        for caller, call, _ in calls.values():
            if fid not in walks or caller not in walks:
                continue
            visit = walks[caller][1]
            if visit.origin is not None:
                reaches.setdefault(caller, set()).add(fid)
            elif not _elsewhere(visit.function, index):
                found[fid][id(call)] = call  # the region leaves the file at this call
    todo = list(reaches)
    while todo:  # each function gets the calls of its callers, to a fixpoint
        caller = todo.pop()
        for fid in reaches.get(caller, ()):
            size = len(found[fid])
            found[fid].update(found[caller])
            if len(found[fid]) > size:
                todo.append(fid)
    return {fid: sorted(calls.values(), key=lambda c: (c.lineno, c.col_offset))
            for fid, calls in found.items() if walks[fid][1].origin is not None}


def flag_modes(function: FunctionInfo, known: list[CallSite]) -> tuple[tuple[str, bool], ...]:
    """The parameters every known call of `function` passes the mode (`record_rng=self.training`:
    True; `not self.training`: False), so that a test of one names the mode."""
    if not known or not all(passes_mode(site.call) for site in known):
        return ()  # the common case, without binding the arguments of every call
    modes: dict[str, bool | None] = {}
    for n, site in enumerate(known):
        passed = bind_arguments(function.node, function.cls is not None, site.call, lambda arg: arg, lambda _: None,
                                facts=False)
        mine = {param: mode_of_test(arg, True) if isinstance(arg, ast.expr) else None for param, arg in passed.items()}
        modes = mine if n == 0 else {p: m for p, m in modes.items() if m is not None and mine.get(p) == m}
    return tuple(sorted((p, m) for p, m in modes.items() if m is not None))


def _elsewhere(function: FunctionInfo, index: ModuleIndex) -> bool:
    """Whether `function` is defined in another file than the one analysed."""
    return function.module is not None and function.module is not index


def _changed(old: Visit, new: Visit) -> bool:
    return old.params != new.params or old.entry is not new.entry or old.training != new.training \
        or old.flag_modes != new.flag_modes


def _walk(home: ModuleIndex, visit: Visit, foreign: bool, kept: WalkCache | None = None) -> Walker | Walked:
    """Walk one function; a function of another file is walked once per parameter facts and
    loop context, and the walk kept with that file's version in the project index; one of this
    file is reused from ``kept`` when valid, and kept there when the project index lacked no file."""
    if not foreign:
        found = kept.get(visit.function, visit, home) if kept is not None else None
        if found is not None:
            return found
        project = home.project
        before = project.misses() if project is not None else 0
        walker = Walker(home, visit, CHECKS, TENSOR_FIXES)
        walker.run()
        if kept is not None and (project is None or project.misses() == before):
            kept.put(visit.function, visit, walker.raws, walker.calls, home, walker.call_tests, walker.consults)
        return walker
    params = tuple(sorted(visit.params.items())) if visit.params else None
    key = ("walk", visit.function.qualname, visit.function.node.lineno, params, visit.in_loop, visit.training,
           visit.flag_modes)

    def compute():  # the rules only ask whether the function is the entry, which it never is here
        walker = Walker(home, visit, CHECKS, TENSOR_FIXES)
        walker.run()
        return walker
    if any(isinstance(fact, Function) for fact, _ in (visit.params or {}).values()):
        return compute()  # a function passed from this analysis: kept, the walk would keep its file's tree
    return home.project.derived(home.path, key, compute)


def _location(node: ast.AST, path: str, lines: _Lines, message: str) -> Location:
    end_line = node.end_lineno or node.lineno
    return Location(path, node.lineno, lines.col(node.lineno, node.col_offset), end_line,
                    lines.col(end_line, node.end_col_offset or 0), message)


def _related(visit: Visit, path: str, lines: _Lines, compiled_by) -> tuple[Location, ...]:
    """The entry and call path of a finding in a helper, and where another file compiles the entry."""
    related: tuple[Location, ...] = ()
    if visit.path:
        related = (_location(visit.entry.node, path, lines, f"compiled entry point `{visit.entry.qualname}`"),
                   *(_location(call, path, lines, f"called from `{caller}`") for caller, call, _ in visit.path))
    if compiled_by:
        related += tuple(Location(c.site_path, c.site.line, c.site.col, c.site.end_line, c.site.end_col,
                                  f"`{visit.entry.qualname}` is compiled here") for c in compiled_by[1])
    name = visit.entry.node.name
    related += tuple(Location(file, line, 0, line, 0, f"`{caller}` calls `{name}` on a module it holds")
                     for file, caller, line in visit.entry.element_callers)
    enclosing = visit.entry.enclosing  # a decorator's wrapper: the compiled code is what it decorates
    used = f"is decorated with `{enclosing.name}`" if enclosing is not None else f"calls `{name}`"
    related += tuple(Location(file, line, 0, line, 0, f"compiled code (`{caller}`) {used} here")
                     for file, caller, line in visit.entry.compiled_callers)
    if visit.entry.exported is not None:
        init, line, exported = visit.entry.exported
        related += (Location(init, line, 0, line, 0, f"`{exported}` is exported here: the package's users call it "
                             "from their compiled code"),)
    return related


def _replay(raw: Raw, visit: Visit, index: ModuleIndex, order: ReplayOrder | None) -> dict:
    """What the deferral fix needs to know of an output call: the module classes whose hooks would
    replay it (``replay_classes``: the one whose ``forward`` runs it first, then those that make it)
    or, without one, whether the entry is a module's ``forward``; what runs them inside another
    frame (``runs_inside``); other output that may run after it before the replay (``outputs_elsewhere``)."""
    forwards = {c: index.method(c, "forward") for c in replay_classes(index, visit)}
    inherited = visit.entry.cls.name if visit.entry.dispatched and visit.entry.cls is not None else None
    if order is not None:  # a class whose `forward` does not visibly run the call could output after it, unseen
        forwards = {c: f for c, f in forwards.items() if c == inherited or order.leads_to(f, visit.function)}
    classes = tuple(forwards)
    out: dict = {"replay_classes": list(classes)} if classes else {}
    if classes or _module_forward(index, visit.entry):
        out["module_forward"] = True  # the deferral replays from the module's hooks
    inside = runs_inside(index, visit.entry, classes)
    if inside:
        out["runs_inside"] = list(inside)  # where Dynamo traces into the entry from another module's frame
    roots = [f for f in forwards.values() if f is not None] or [visit.entry]
    others = order.following(roots, visit.function, raw.node) if order is not None else []
    if others:
        out["outputs_elsewhere"] = others
    return out


def _tensor_ifs(fn: ast.AST, raws: list[Raw]) -> dict[int, set[str]]:
    """The ``if``s of a walk whose test needs a tensor's value (FG101, or a ``.item()`` in the test,
    FG201), by id, with what is known a tensor there (guesses aside); empty when the walk found no
    output call a deferral could move such an ``if`` with."""
    if not any(RULES[raw.code].fix_kind == "defer" for raw in raws):
        return {}
    out: dict[int, set[str]] = {}
    for raw in raws:
        if raw.guess or raw.code not in ("FG101", "FG201"):
            continue
        node = raw.node if raw.code == "FG101" else test_if(fn, raw.node)
        if node is not None:
            out.setdefault(id(node), set()).update(raw.tensors)
    return out


def _tensor_if(fn: ast.AST, call: ast.AST, tensor_ifs: dict[int, set[str]]) -> dict:
    """``tensor_if`` for an output call that starts or ends the body of an ``if`` on a tensor (its
    line, and what is known a tensor there): the deferral can move the whole ``if`` with a call that
    is all it does, or take its test along and leave the rest to predication."""
    chain = parents(fn)
    guard = holding_if(chain, chain.get(call))
    tested = tensor_ifs.get(id(guard)) if guard is not None else None
    return {"tensor_if": {"line": guard.lineno, "tensors": sorted(tested)}} if tested is not None else {}


def _module_forward(index: ModuleIndex, entry: FunctionInfo) -> bool:
    """Whether the entry is the ``forward`` of an nn.Module class (module hooks run around each call
    of it), asked of the file that defines it."""
    home = entry.module or index
    return entry.cls is not None and entry.node.name == "forward" and home.is_module_class(entry.cls.name)


def _conditions(raw: Raw, config: Config, library: bool = False, visit: Visit | None = None,
                users: frozenset[int] = frozenset()) -> str | None:
    """The message suffix naming the trace-time conditions a finding sits under, or None when
    the project's `assume` setting says they never hold. In library code, a condition on the
    library's own variables (not the mode, a dtype, a device, `self` or a config) means nothing to the
    user and cannot be checked: such a finding is left out, an early `return` the library may
    take first included (kornia's `if transformed.shape == not_transformed.shape: return
    torch.where(...)` is the path its augmentations take; the user's-view bench counts 127 fewer
    scripts of models that compile in one graph reported, for 4% fewer break lines named)."""
    modes = dict(visit.flag_modes) if visit is not None else {}
    tests = [moded(test, holds, modes) for test, holds in raw.conditions]
    if not tests:
        return ""
    found = [c for test, holds in tests for c in conditions(test, holds)]
    if config.assume and any(impossible(c, config.assume) for c in found) or contradictory(found):
        return None
    if library and not all(_outside(test, holds) or id(test) in users or _holding_tensors(test, holds, raw)
                           for test, holds in tests):
        return None
    return describe(found)


def _holding_tensors(test: ast.expr, holds: bool, raw: Raw) -> bool:
    """A check of tensors for emptiness on the side where they hold elements (past `if len(a1) == 0:
    return`, inside `if len(angles) > 0:`): the common path, which the user's inputs decide."""
    emptied = dict(raw.emptied)
    return all(emptied.get(id(part)) is (not part_holds) for part, part_holds in atoms(test, holds))


def _outside(test: ast.expr, holds: bool) -> bool:
    """A condition the user's side decides: on the mode, a dtype, a device, `self` or a config."""
    return names_in(test) <= OUTSIDE_NAMES or all(c.training is not None or c.dtypes is not None or c.device is not None
                                                for c in conditions(test, holds))


def _suppressed_at(lines: _Lines, line: int, end_line: int, end_byte_col: int, code: str) -> bool:
    """`silenced` for a finding whose last line ends at byte column `end_byte_col`."""
    return silenced(lines.line, line, end_line, lines.col(end_line, end_byte_col) if end_line != line else 0, code)


def _library_rank(raw: Raw, visit: Visit) -> tuple[bool, int, bool, bool]:
    """How surely a library break happens when the user's call runs (lowest first): under no
    condition the call's arguments or the library's state decide, through the fewest calls (each may
    sit under a branch of its own), on a known tensor, not on a guess."""
    return (any(id(test) not in raw.guards for test, _ in raw.conditions), len(visit.path),
            raw.confidence != "certain", bool(raw.guess))


def _library_path(visit: Visit, here: str) -> tuple[Location, ...]:
    """The library calls through which the user's call reaches the break, outermost first (not
    those of the analysed file, known to the index as `here`: another call of it may be the first)."""
    return tuple(Location(file, call.lineno, call.col_offset, call.lineno, call.col_offset + 1,
                          f"through here: `{caller}` calls `{snippet(call.func)}`")
                 for caller, call, file in visit.path if file != here and isinstance(call, ast.Call))


def _library_finding(raw: Raw, visit: Visit, path: str, lines: _Lines, config: Config,
                     project: ProjectIndex, compiled: bool = False, users: frozenset[int] = frozenset()) -> Finding | None:
    """One finding at the user's call line for a break inside library code it reaches (`compiled`:
    the line compiles the library entry itself)."""
    call = visit.origin
    if _suppressed_at(lines, call.lineno, call.end_lineno or call.lineno, call.end_col_offset or 0, raw.code):
        return None
    home = visit.function.module
    where = f"{project.display_path(home.path)}:{raw.node.lineno}"
    callee = snippet(call.func) if isinstance(call, ast.Call) else f"@{snippet(call)}"
    if compiled and isinstance(call, ast.Call) and call.args:  # `torch.compile(Model())`: what it compiles
        callee = snippet(call.args[0])
    rule = RULES[raw.code]
    named = _conditions(raw, config, library=True, visit=visit, users=users)
    if named is None:
        return None
    message = f"{'compiles' if compiled else 'calls'} `{callee}`, which breaks in library code at {where} " \
              f"(`{visit.function.qualname}`): {raw.message}{named}"
    gb_ids = raw.gb_ids or rule.gb_ids
    if raw.in_loop:
        gb_ids, message = (*gb_ids, "GB7000"), message + LOOP_NOTE
    end_line = call.end_lineno or call.lineno
    return Finding(path, call.lineno, lines.col(call.lineno, call.col_offset), end_line,
                   lines.col(end_line, call.end_col_offset or 0), raw.code, message,
                   severity=config.severity_for(raw.code, rule.severity), confidence=raw.confidence, gb_ids=gb_ids,
                   related=(Location(home.path, raw.node.lineno, raw.node.col_offset, raw.node.lineno,
                                     raw.node.col_offset + 1, f"breaks here: {raw.message}"),
                            *_library_path(visit, _index_path(path, project))),
                   data={"entry": visit.entry.qualname, "function": visit.function.qualname, "in_loop": raw.in_loop,
                         "library": where})


def _finding(raw: Raw, visit: Visit, path: str, lines: _Lines, config: Config, scopes: dict[int, ast.Module],
             related: tuple[Location, ...], index: ModuleIndex, kept: WalkCache | None = None,
             order: ReplayOrder | None = None, tensor_ifs: dict[int, set[str]] | None = None) -> Finding | None:
    node = raw.node
    rule = RULES[raw.code]
    stored = stored_attribute(visit.function.node, node) if raw.code in KEEP_TENSOR_CODES and visit.function.cls else None
    replay = _replay(raw, visit, index, order) if rule.fix_kind == "defer" or stored else {}
    if rule.fix_kind == "defer" and tensor_ifs:
        replay.update(_tensor_if(visit.function.node, node, tensor_ifs))
    if stored:  # what else in the module's class sees the attribute before the call returns
        replay["stored_uses"] = attribute_uses(index, visit.function.cls, stored[1], stored[0])
    line = node.lineno
    end_node = node.test if isinstance(node, _HEADER_ONLY) else node
    end_line = end_node.end_lineno or line
    if _suppressed_at(lines, line, end_line, end_node.end_col_offset or 0, raw.code):
        return None
    named = _conditions(raw, config, visit=visit)
    if named is None:
        return None
    gb_ids = raw.gb_ids or rule.gb_ids
    message = raw.message + named
    inherited = visit.function.inherited_from  # a base's method, walked as a subclass runs it
    if inherited:  # what `self` holds here is what the subclass set
        message += f" (as the subclass `{visit.function.cls.name}` runs it)"
    if raw.in_loop:
        gb_ids = (*gb_ids, "GB7000")
        message += LOOP_NOTE
    finding = Finding(
        path, line, lines.col(line, node.col_offset), end_line, lines.col(end_line, end_node.end_col_offset or 0),
        raw.code, message, severity=config.severity_for(raw.code, rule.severity), confidence=raw.confidence,
        gb_ids=gb_ids, fix=rule.fix_kind, related=related,
        data={"entry": visit.entry.qualname, "function": visit.function.qualname, "in_loop": raw.in_loop,
              **({"epilogue": True} if raw.epilogue else {}),  # already after all tensor work
              **({"nested_in": visit.function.enclosing.name} if visit.function.enclosing is not None else {}),
              **({"guess": [_guess_label(g, visit) for g in raw.guess]} if raw.guess else {}),  # guessed parameters
              **({"tensors": list(raw.tensors)} if raw.tensors else {}),  # what a fix may treat as tensors
              **dict(raw.facts),  # what the rule knows that its fix needs
              **({"assumed": True} if visit.entry.assumed else {}),  # entry only by assume_compiled="all"
              **({"exported": True} if visit.entry.exported is not None else {}),  # entry as the package's API
              **({"dispatched": True} if visit.entry.dispatched else {}),  # runs inside an inherited forward's frame
              **({"compiled_from": [c for _, c, _ in visit.entry.compiled_callers]}
                 if visit.entry.compiled_callers else {}),  # runs inside the frame of compiled code in other files
              **({"callers_elsewhere": list(visit.entry.callers_elsewhere)} if visit.entry.callers_elsewhere else {}),
              **({"inherited_by": visit.function.cls.name, "inherited_from": inherited} if inherited else {}),
              **({"entry_inherited_from": visit.entry.inherited_from} if visit.entry.inherited_from else {}),
              **replay,  # where the deferral replays, what runs it inside another frame, what output may come first
              **({"replay_supported": True} if (rule.fix_kind == "defer" or stored) and replay_supported(index.project)
                 else {}),  # the project's torch has what the deferral's code calls
              **({"print_operator": True} if raw.code == "FG301" and print_operator_available(index.project) else {}),
              **({"torchscript": scripted} if rule.fix_kind and (scripted := scripted_reason(index, visit.function))
                 else {})},
    )
    if rule.fix_kind:
        def declined() -> tuple[str | None, bool]:
            """Why fix-all declines, and whether `fix --unsafe-fixes` applies a fix then."""
            scope = scopes.get(id(visit.function))
            if scope is None:
                scope = scopes[id(visit.function)] = _fix_scope(visit.function, index)
            return fix_check(scope, finding, calling_files(visit.function, index, visit.params,
                                                           functools.partial(_still_known, raw, visit, index, kept)))
        try:
            reason, unsafe = kept.declined(visit.function, visit, raw, finding, declined) if kept is not None \
                else declined()
            finding = finding.with_(fix_blocked=reason)
            if unsafe:  # shown in `check`'s closing count
                finding = finding.with_(data={**finding.data, "unsafe_fix": True})
        except Exception as exc:  # noqa: BLE001 - the finding stands even if the fix check fails
            _internal_error(path, f"fix check of {raw.code}", exc)
            finding = finding.with_(fix_blocked=FIX_CHECK_FAILED)
    return finding


def _still_known(raw: Raw, visit: Visit, index: ModuleIndex, kept: WalkCache | None, params: dict[str, Passed]) -> bool:
    """Whether `raw` is found again, knowing every tensor it knew and resting on no guess, when its
    function is walked with `params` (the facts every call of it agrees on; in the editor the walk is
    kept, so the other findings of the function and later keystrokes reuse it)."""
    try:
        walker = _walk(index, replace(visit, params=params), False, kept)
    except Exception:  # noqa: BLE001 - not shown to hold: the rewrite is declined
        return False
    return any(r.code == raw.code and r.node is raw.node and not r.guess and set(raw.tensors) <= set(r.tensors)
               for r in walker.raws)


def _guess_label(origin: str, visit: Visit) -> str:
    """A guessed parameter as `x` (of the function itself) or `outer.x` (passed on from `outer`)."""
    function, _, param = origin.rpartition(":")
    return param if function == visit.function.qualname else f"{function}.{param}"


def _fix_scope(function: FunctionInfo, index: ModuleIndex) -> ast.Module:
    """The function (with its class's `__init__`) as a small module, so that the precondition
    checks stay local to it however large the file or class is; the file's classes and functions
    ride along for the checks that follow a call into them (fixes.module_purity)."""
    cls = index.classes.get(function.inherited_from) if function.inherited_from else function.cls  # the def's own
    if cls is None:
        scope = ast.Module(body=[function.node], type_ignores=[])
    else:
        init = cls.methods.get("__init__")
        body = [init.node] if init is not None and init is not function else []
        shell = copy.copy(cls.node)
        shell.body = [*body, function.node]
        scope = ast.Module(body=[shell], type_ignores=[])
    scope.module_index = index
    return scope
