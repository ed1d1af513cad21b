"""Where a deferred print/logging/warnings call is replayed, and which other output could run before
the replay while it should run after the call (read by the deferral fix's preconditions).

A call deferred in a module's ``forward`` (or in a helper that ``forward`` calls once) is replayed by
hooks around that module's calls, and around the calls of every module class of the same file that
makes it (``self.encoder = Encoder(config)``, through any number of classes) and whose ``forward``
is seen to run it (the engine keeps only those, :func:`fullgraph.engine._replay`): whichever of them
Dynamo compiles on its own runs its hooks outside the graph and replays the queue when it returns.
Output that is not deferred runs in place; if it can run after the deferred call within the call of
such a module, the replay would come after it where the original printed first.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex
from fullgraph.analysis.runs_inside import makers

MAX_DEPTH = 8  # calls followed down from a replaying module's `forward` to tell which output comes first
MAX_CHECKS = 256  # (replaying module, other output) pairs ordered for one deferred call, at most
LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


class ReplayOrder:
    """The region's call graph (every walked function, in any file) and the functions that print,
    log, warn or write a stream, built once per analysed file from its walks."""

    def __init__(self, walks, output_codes: set[str]):
        self.calls: dict[int, list[tuple[ast.Call, FunctionInfo]]] = {}
        self.outputs: dict[int, list[ast.AST]] = {}  # function id -> its output calls
        self.functions: dict[int, FunctionInfo] = {}
        for walker, visit in walks:
            fid = id(visit.function)
            self.functions[fid] = visit.function
            self.calls[fid] = [(call, target) for target, call, *_ in walker.calls if isinstance(call, ast.Call)]
            found = [raw.node for raw in walker.raws if raw.code in output_codes]
            if found:
                self.outputs[fid] = found
        self._reach: dict[int, frozenset[int]] = {}
        self._nodes: dict[int, frozenset[int]] = {}

    def reach(self, fid: int) -> frozenset[int]:
        """The functions a call of ``fid`` may run (itself included)."""
        if fid not in self._reach:
            seen, todo = {fid}, [fid]
            while todo:
                for _, target in self.calls.get(todo.pop(), ()):
                    if id(target) not in seen:
                        seen.add(id(target))
                        todo.append(id(target))
            self._reach[fid] = frozenset(seen)
        return self._reach[fid]

    def leads_to(self, function: FunctionInfo | None, target: FunctionInfo) -> bool:
        """Whether ``function`` is in the region and its calls (as far as they are known) reach ``target``."""
        return function is not None and id(function) in self.functions and id(target) in self.reach(id(function))

    def _inside(self, stmt: ast.AST) -> frozenset[int]:
        if id(stmt) not in self._nodes:
            self._nodes[id(stmt)] = frozenset(id(n) for n in walk(stmt))
        return self._nodes[id(stmt)]

    def _runs(self, fn: int, stmt: ast.stmt, goal: int, at: ast.AST | None) -> list[ast.Call] | None:
        """The calls in ``stmt`` (a statement of ``fn``) that may reach ``goal``; None when ``stmt``
        itself holds ``goal``'s output (``goal`` is ``fn``) or the statement ``at``."""
        inside = self._inside(stmt)
        if (at is not None and id(at) in inside) or (goal == fn and at is None
                                                       and any(id(o) in inside for o in self.outputs.get(fn, ()))):
            return None
        return [call for call, target in self.calls.get(fn, ()) if id(call) in inside and goal in self.reach(id(target))]

    def before(self, fn: int, output: int, target: int, site: ast.AST, depth: int = 0) -> bool:
        """Whether, in any one call of ``fn``, every output of ``output`` runs before the deferred call
        ``site`` (in function ``target``): by the order of ``fn``'s statements, and down the one call
        that leads to both."""
        function = self.functions.get(fn)
        if function is None or depth > MAX_DEPTH:
            return False
        body = function.node.body
        outputs = [(i, self._runs(fn, s, output, None)) for i, s in enumerate(body)]
        outputs = [(i, calls) for i, calls in outputs if calls is None or calls]
        sites = [(i, self._runs(fn, s, target, site if fn == target else None)) for i, s in enumerate(body)]
        sites = [(i, calls) for i, calls in sites if calls is None or calls]
        if not outputs or not sites or max(i for i, _ in outputs) < min(i for i, _ in sites):
            return True
        if len(outputs) != 1 or len(sites) != 1 or outputs[0][0] != sites[0][0]:
            return False
        (i, to_output), (_, to_site) = outputs[0], sites[0]
        if to_output is None or to_site is None or len(to_output) != 1 or to_output != to_site \
                or _looped(body[i], to_output[0]):
            return False
        callees = [id(t) for c, t in self.calls[fn] if c is to_output[0]]
        return len(callees) == 1 and self.before(callees[0], output, target, site, depth + 1)

    def following(self, roots: list[FunctionInfo], target: FunctionInfo, site: ast.AST) -> list[str]:
        """The functions (qualified names) whose output may run after ``site`` within a call of one
        of ``roots``, before the replay when that call returns (``target``'s own are the fix's question)."""
        found: dict[str, None] = {}
        checks = 0
        for root in roots:
            reached = self.reach(id(root))
            if id(target) not in reached:
                continue
            for fid in reached:
                if fid not in self.outputs or fid == id(target) or self.functions[fid].qualname in found:
                    continue
                checks += 1  # past MAX_CHECKS, an output is taken to follow (the deferral is declined)
                if checks > MAX_CHECKS or not self.before(id(root), fid, id(target), site):
                    found[self.functions[fid].qualname] = None
        return sorted(found)  # the same data every analysis (function ids follow memory addresses)


def _looped(stmt: ast.stmt, call: ast.Call) -> bool:
    """Whether ``call`` may run more than once in one run of ``stmt`` (a loop or comprehension around it)."""
    stack = [(stmt, False)]
    while stack:
        node, looped = stack.pop()
        if node is call:
            return looped
        looped = looped or isinstance(node, LOOPS)
        stack.extend((child, looped) for child in ast.iter_child_nodes(node))
    return False


def replay_classes(index: ModuleIndex, visit) -> tuple[str, ...]:
    """The module classes of ``index``'s file whose hooks replay a call deferred in ``visit``'s
    function: the innermost module on the call path whose ``forward`` runs it (the function itself,
    or a helper chain from it within the file), then every module class of the file that makes it,
    directly or through others; for an entry an inherited ``forward`` calls on ``self`` (dispatched),
    the entry's class. Empty when no module's ``forward`` in this file leads to it."""
    chain = [*(caller for caller, *_ in visit.path), visit.function.qualname]
    holder = None
    for qualname in reversed(chain):
        owner, _, name = qualname.rpartition(".")
        if not owner and name in index.functions:
            continue
        if not owner or owner not in index.classes or index.method(owner, name) is None:
            break
        if name == "forward" and index.is_module_class(owner):
            holder = owner
            break
    else:  # every call on the path is this file's: an inherited `forward` runs a dispatched entry
        entry = visit.entry.cls
        if visit.entry.dispatched and entry is not None and entry.name in index.classes \
                and index.is_module_class(entry.name):
            holder = entry.name
    if holder is None:
        return ()
    found = [holder]
    for name in found:
        for _, cls, _ in makers(index, name):
            if cls.name not in found and index.is_module_class(cls.name):
                found.append(cls.name)
    return tuple(found)
