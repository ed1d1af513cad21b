"""Compiled code in other workspace files that calls a function of this one. A helper module's
function that a model's `forward` elsewhere calls is compiled code too: its own file's analysis
checks it (with what those calls pass it), so a helper opened alone, or checked alone, shows the
breaks the models reach in it.

A decorator works the same way: a function of this file that decorates compiled code of other
files (`@dynamic_rope_update` on a module's `forward`) leaves its wrapper in place of what it
decorates, so the wrapper (and what it calls) is compiled code of this file.

A caller is compiled code when its file's own analysis would walk it: an entry point of that file
(a module's `forward`, a method an inherited `forward` dispatches to, a `torch.compile`d function,
...) or a function of that file such an entry calls, through plain and `self.` calls; or, through
`REACH_DEPTH` more files, a function only compiled code of other files calls.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.callers import CallSites
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import decorator_target
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex, defines_function, shared_index, with_callers
from fullgraph.analysis.remote_callers import caller_key

REACH_CALLS = 64  # calls of a function resolved to find its compiled callers; with more, none are sought
REACH_DEPTH = 2  # files of plain functions between a compiled caller and the function it reaches
DECORATED_SHOWN = 3  # compiled functions a decorator decorates, sought among its first REACH_CALLS uses


def compiled_callers(index: ModuleIndex, name: str, depth: int = 0) -> tuple[tuple[str, str, int], ...]:
    """The calls of function or method `name` (qualified: `Grid.snap`) of `index`'s file that
    compiled code of other workspace files makes: (file, caller, line) each; none sought for a
    name more than `REACH_CALLS` calls spell."""
    project = index.project
    found = project.call_sites(index.path, name, REACH_CALLS) or ()
    return tuple((file, site.caller, site.line) for file, site in found if _compiled(project, file, site.caller, depth))


def _compiled(project, path: str, qualname: str, depth: int) -> bool:
    """Whether function `qualname` of `path` is compiled code (see the module's doc)."""
    other = shared_index(project, path)
    if other is None:
        return False
    if qualname in other.own_region():
        return True
    owner, _, name = qualname.rpartition(".")
    if owner or depth + 1 >= REACH_DEPTH or name not in other.functions:
        return False
    return bool(compiled_callers(other, name, depth + 1))


def reached_elsewhere(index: ModuleIndex, entries: list[FunctionInfo]) -> list[FunctionInfo]:
    """The functions and methods of `index`'s file that its `entries` (under "modules") do not reach
    and compiled code of other workspace files calls (a base class's method a subclass's `forward`
    calls on `self`, a method called on an instance the caller makes): each is an entry too,
    walked with what those calls pass it (its `compiled_callers` name them)."""
    if index.project is None:
        return []
    walked = index.own_region(entries)
    known = {id(e) for e in entries}
    methods = [m for c in index.classes.values() for n, m in c.methods.items() if not n.startswith("__")]
    candidates = [(info.qualname, info) for info in [*index.functions.values(), *methods]
                  if id(info) not in known and not info.disabled and info.qualname not in walked]
    return [*with_callers(candidates, lambda name: compiled_callers(index, name), "compiled_callers"),
            *_compiled_wrappers(index, [info for info in index.functions.values()
                                        if id(info) not in known and not info.disabled])]


def _compiled_wrappers(index: ModuleIndex, decorators: list[FunctionInfo]) -> list[FunctionInfo]:
    """The wrappers that functions of `decorators` leave on compiled code of other workspace files,
    each with the decorated functions as its `compiled_callers`."""
    found: dict[int, tuple[FunctionInfo, list[tuple[str, str, int]]]] = {}  # id(wrapper) -> it, its callers
    for deco in decorators:
        for file, caller, dec in _compiled_uses(index, deco) if defines_function(deco.node) else ():
            for wrapper in index.wrappers_of(deco, dec):
                found.setdefault(id(wrapper), (wrapper, []))[1].append((file, caller, dec.lineno))
    for wrapper, callers in found.values():
        wrapper.compiled_callers = tuple(callers)
    return [wrapper for wrapper, _ in found.values()]


def _compiled_uses(index: ModuleIndex, deco: FunctionInfo) -> list[tuple[str, str, ast.expr]]:
    """(file, decorated function, decorator) for the first `DECORATED_SHOWN` compiled functions of
    other workspace files that `deco` decorates, among its first `REACH_CALLS` uses."""
    project = index.project
    try:
        sites = project.decorated_sites(index.path, deco.qualname, REACH_CALLS)
    except (OSError, RecursionError, ValueError):
        return []
    out = []
    for file, site in sites:
        other = shared_index(project, file)
        decorated = None if other is None else other.function(site.caller)
        if decorated is not None and _compiled(project, file, site.caller, 0):
            out += [(file, site.caller, dec) for dec in decorated.node.decorator_list
                    if dotted(decorator_target(dec)) == site.callee]
            if len(out) >= DECORATED_SHOWN:
                break
    return out


def compiled_calls(entries: list[FunctionInfo], sites: CallSites) -> dict[int, list[ast.Call]]:
    """For each entry only compiled code of other files calls, those calls (of its call sites)."""
    out = {}
    for entry in entries:
        if entry.compiled_callers:
            callers = {caller_key(file, caller) for file, caller, _ in entry.compiled_callers}
            out[id(entry)] = [site.call for site in sites.of(entry.node) if site.caller in callers]
    return out
