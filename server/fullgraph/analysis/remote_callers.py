"""Call sites in other workspace files. A function that only `assume_compiled = "all"` (or the
package's exports, under "api") makes an entry, and that no code of its own file calls, takes what
the functions of other files pass it
(found through the project index), so that it is walked as their helper rather than with its
parameters guessed to be tensors (the calls found need not be all: `callers_elsewhere` names their
files); so does one that compiled code of other files calls, which its own file's region does not
reach, with what those compiled calls pass it (found once, when it became an entry) and its own
file's calls. A rewrite of a function its own file calls is checked
against what the other files pass it (`calling_files`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from fullgraph.analysis.callers import UNKNOWN, CallSite, CallSites, Passed
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex, shared_index
from fullgraph.analysis.walker import Visit, Walker, declared_params

MAX_CALLS = 200  # calls spelled with a function's name resolved for it; with more, its parameters stay guessed


def remote_call_sites(index: ModuleIndex, entries: list[FunctionInfo], sites: CallSites) -> None:
    """Add to `sites` the calls made in other workspace files of each entry of `entries` that
    compiled code there calls, and of each assumed one no call site of this file reaches."""
    project = index.project
    if project is None:
        return
    for function in entries:
        if function.compiled_callers:  # found already: the compiled calls are the ones its trace sees
            callers = sorted({(file, caller) for file, caller, _ in function.compiled_callers})
        elif function.presumed and not sites.of(function.node):
            try:
                found = project.call_sites(index.path, function.qualname, MAX_CALLS)
            except (OSError, RecursionError, ValueError):
                continue
            callers = sorted({(file, site.caller) for file, site in found or ()})
        else:
            continue
        for file, caller in callers:
            for call, passed in _passed(index, file, caller, function.qualname):
                sites.add(function.node, CallSite(caller_key(file, caller), call, passed))
        if function.presumed and sites.of(function.node) and _unannotated(function.node):
            function.callers_elsewhere = _shown(project, callers)


def caller_key(file: str, caller: str) -> str:
    """How a call site of another file names its caller."""
    return f"{file}::{caller}"


def _unannotated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a parameter other than `self`/`cls` has no annotation."""
    args = node.args
    return any(a.annotation is None and a.arg not in ("self", "cls") for a in
               [*args.posonlyargs, *args.args, *args.kwonlyargs])


def _passed(index: ModuleIndex, file: str, caller: str,
            qualname: str) -> tuple[tuple[ast.Call, dict[str, Passed]], ...]:
    """What each call of `qualname` (a function of the analysed file) in function `caller` of
    `file` passes, the caller walked as an entry (its own parameters guessed); memoised with the
    caller's file."""
    project = index.project

    def compute():
        other = shared_index(project, file)
        info = None if other is None else other.function(caller)
        if info is None:
            return ()
        walker = Walker(other, Visit(info, info), {})
        try:
            walker.run()
        except Exception:  # noqa: BLE001 - call sites are a refinement: without them the guesses apply
            return ()
        return tuple((call, passed) for target, call, passed, _ in walker.calls
                     if passed is not None and target.qualname == qualname
                     and target.module is not None and target.module.path == index.path)
    return project.derived(file, ("passes", caller, index.path, qualname), compute) or ()


def calling_files(function: FunctionInfo, index: ModuleIndex, params: dict[str, Passed] | None = None,
                  holds: Callable[[dict[str, Passed]], bool] | None = None) -> tuple[str, ...]:
    """The other workspace files that call `function` with arguments not shown to have the facts
    `params` gives its parameters (the facts a rewrite of it rests on: those of its call sites in
    its own file; None, an entry's own guesses or annotations, which no call is checked against);
    none known when there are too many calls to resolve, or when its parameters already took their
    facts from them. A parameter whose annotation declares its fact needs no check: the walk takes
    the annotation, as it does an entry's. Where calls pass other facts, `holds(facts)` says whether
    the rewrite stands on the facts every call agrees on."""
    home = function.module or index
    if home.project is None or function.callers_elsewhere:
        return ()
    if params is not None:
        declared = declared_params(function.node, home.aliases.resolve)
        params = {name: passed for name, passed in params.items() if name not in declared}
        if all(fact is None for fact, _ in params.values()):
            return ()  # the walk took no fact from a call
    try:
        found = home.project.call_sites(home.path, function.qualname, MAX_CALLS) or ()
    except (OSError, RecursionError, ValueError):
        return ()
    callers: dict[str, set[str]] = {}
    for file, site in found:
        callers.setdefault(file, set()).add(site.caller)
    unchecked, differing, passes = [], [], []
    for file, names in callers.items():
        passed = None if params is None else _passes(home, file, sorted(names), function.qualname)
        if passed is None:
            unchecked.append(file)
        elif not all(_gives(p, params) for p in passed):
            differing.append(file)
            passes.extend(passed)
    if differing and holds is not None and holds(_agreed(params, passes)):
        differing = []
    return _shown(home.project, [(file,) for file in callers if file in unchecked or file in differing])


def _passes(index: ModuleIndex, file: str, callers: list[str], qualname: str) -> list[dict[str, Passed]] | None:
    """What each call of `qualname` written in `file` passes, when every one of them is one of
    `callers`' calls (None when one is not: a call at module level, or one the walk of its caller
    does not resolve)."""
    name = qualname.rpartition(".")[2]
    written = index.project.derived(file, ("calls named", name), lambda: _calls_named(index.project, file, name))
    if written is None:
        return None
    resolved = {(call.lineno, call.col_offset): passed for caller in callers
                for call, passed in _passed(index, file, caller, qualname)}
    return [resolved[at] for at in sorted(written)] if written <= resolved.keys() else None


def _gives(passed: dict[str, Passed], params: dict[str, Passed]) -> bool:
    """Whether a call passes each parameter `params` knows the same fact, known rather than guessed."""
    return all(fact is None or passed.get(param, UNKNOWN) == (fact, ()) for param, (fact, _) in params.items())


def _agreed(params: dict[str, Passed], passes: list[dict[str, Passed]]) -> dict[str, Passed]:
    """`params` keeping only the facts every call of `passes` gives too; the others unknown."""
    return {param: p if all(_gives(passed, {param: p}) for passed in passes) else UNKNOWN
            for param, p in params.items()}


def _calls_named(project, file: str, name: str) -> frozenset[tuple[int, int]] | None:
    """Where `file` calls something spelled `name` (`name(...)`, `x.name(...)`), anywhere in it."""
    parsed = project.tree(file)
    if parsed is None:
        return None
    return frozenset((n.lineno, n.col_offset) for n in ast.walk(parsed[0]) if isinstance(n, ast.Call)
                     and (n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)) == name)


def _shown(project, found) -> tuple[str, ...]:
    """The files of (file, ...) pairs as the project shows them, once each, in order."""
    return tuple(dict.fromkeys(project.display_path(file) for file, *_ in found))
