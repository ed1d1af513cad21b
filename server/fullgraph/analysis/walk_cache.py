"""Walks of a document's functions kept across keystrokes (one `WalkCache` per open document).

A function's walk is a function of its own body, how it is reached (its `Visit`) and what the
file and the project index answer about the names it uses. The language server's parse cache
keeps the nodes of every top-level statement an edit did not change, so between two analyses
the changed statements are those whose nodes are new. A kept walk is reused when:

- its function's top-level statement is unchanged (the same nodes, moved in place);
- no part of that statement uses a name that the edit changed, directly or through other
  parts. The parts of a module are its statements, and a class is split into its header with
  its class-level statements (what its name stands for) and each method. A changed part makes
  its name changed: a function's or class's name, a method's name (the class's name for
  `__init__`, `forward` and other dunders, which run without being named), what a statement
  binds; a part that uses a changed name (a `Name`, an attribute, an import) is changed in turn.
  A function changed only inside (its signature, decorators, returns and the statements whose
  effects other code reads unchanged, see `_interface`) does not change its name: the walks of
  its users, direct or not, are kept as suspect, and used again only once every return fact
  they read of this file's functions is worked out again (or confirmed in turn) and found equal;
- every module-level statement that is not a `def` or `class` is the same code as before,
  positions aside (else nothing is kept);
- no file the kept walks used in the project index has changed since (nor what imports
  resolve to), the walk lacked no file of it, and what the walk reads of its `Visit` is equal:
  whether the function is the entry, the loop context, the parameter facts, the guesses.

A function keeps at most VARIANTS walks (callers that change what they pass make new ones).
What a function returns for the facts a call passes is kept on the same terms.

Decline reasons of fixable findings are kept with the walk that produced the finding (one that
names a line is worked out again once an edit moved statements).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from fullgraph.analysis.moved_report import LastAnalysis
from fullgraph.analysis.nodes import same_code, walk
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex
from fullgraph.analysis.summary import false_flags, false_when_compiling, true_when_compiling
from fullgraph.analysis.walker import CallTests, Raw, Visit, restore_return_state, return_fact, return_state
from fullgraph.text import names_a_line

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
VARIANTS = 8


@dataclass
class Walked:
    """A kept walk: what `Walker` leaves for the region (its rule hits and the calls it followed)."""

    raws: list[Raw]
    calls: list[tuple[FunctionInfo, ast.Call, dict, bool]]
    call_tests: dict[int, CallTests]  # id of a call made under trace-time tests -> those tests


@dataclass
class _Part:
    """A statement, a class's header and class-level statements, or a method: the names it makes
    changed when it changes, and the names it uses."""

    defines: frozenset[str]
    mentions: frozenset[str]
    code: tuple[ast.AST, ...] | None = None  # the part's nodes, for changed statements only


@dataclass
class _Kept:
    node: ast.AST  # the function's def node (keeps its id from being reused)
    statement: ast.stmt  # the top-level statement that holds it
    raws: list[Raw]
    calls: list[tuple[FunctionInfo | str, ast.Call, dict, bool]]  # a function of this file by qualname
    call_tests: dict[int, CallTests]
    consults: list[tuple[str, tuple, object]]  # what it read of this file's functions' return facts
    declined: dict = field(default_factory=dict)  # finding key -> its fix check (decline reason, ...)
    suspect: bool = False  # a function it calls changed inside: kept only while what it read stays


@dataclass
class _Return:
    node: ast.AST  # the function's def node
    statement: ast.stmt  # the top-level statement that holds it
    fact: object  # (return fact, the depth its helper chain needs)
    consults: list[tuple[str, tuple, object]]
    suspect: bool = False


class WalkCache:
    """The walks of one document's last analyses; used under the document's parse-cache lock."""

    def __init__(self) -> None:
        self._body: list[ast.stmt] = []
        self._starts: list[int] | None = None  # the first line of each statement of the body
        self._lines: dict[int, int] = {}  # id of each statement of the body -> its first line then
        self._moved = False  # whether statements kept by the last edit moved (a fix check may name a line)
        self._parts: dict[int, tuple[ast.stmt, dict[str, _Part]]] = {}  # statement id -> its parts by key
        self._kept: dict[tuple, _Kept] = {}
        self._returns: dict[tuple, _Return] = {}
        self._path: str | None = None
        self._project: tuple[ProjectIndex | None, int] = (None, 0)  # the index and its generation at the last analysis
        self.touched: set[str] = set()  # project files the kept walks read
        self.last: LastAnalysis | None = None  # the last analysis, for edits of comments and blank lines
        self.walks = 0  # walks not found here (so done) since the cache was made, for tests and benches
        self._confirming: set[int] = set()  # kept walks and returns being confirmed (against recursion)

    def __len__(self) -> int:
        """How many walks are kept."""
        return len(self._kept)

    def begin(self, body: list[ast.stmt], path: str, project: ProjectIndex | None) -> None:
        """Start an analysis of the module `body` (of `path`): drop the walks that the changes since
        the last analysis, in the text or in the project index, may affect."""
        old = self._body
        moved = any(self._lines.get(id(s), s.lineno) != s.lineno for s in body)  # (the parse cache moves nodes)
        self._lines = {id(s): s.lineno for s in body}
        self._body, self._starts = list(body), None
        if self._stale(path, project):
            self._clear()
        else:
            now = {id(s) for s in body}
            before = {id(s) for s in old}
            added = [s for s in body if id(s) not in before]
            removed = [s for s in old if id(s) not in now]
            if added or removed:
                self._invalidate(added, removed)
        kept = {id(s) for s in body}
        self._parts = {k: v for k, v in self._parts.items() if k in kept}
        self._moved = moved

    def _stale(self, path: str, project: ProjectIndex | None) -> bool:
        """Whether nothing kept can stay: another path or index, or a change of a file the walks used."""
        known, generation = self._project
        self._project = (project, project.generation if project is not None else 0)
        if path != self._path or project is not known:
            self._path = path
            return True
        changed = project.changed_since(generation) if project is not None else set()
        return changed is None or not changed.isdisjoint(self.touched)

    def _clear(self) -> None:
        self._kept.clear()
        self._returns.clear()
        self._parts.clear()
        self.touched = set()

    def _invalidate(self, added: list[ast.stmt], removed: list[ast.stmt]) -> None:
        others = Counter(ast.dump(s) for s in added if not isinstance(s, _DEFS))
        others.subtract(ast.dump(s) for s in removed if not isinstance(s, _DEFS))
        if any(others.values()):  # imports, module variables, module-level code changed
            self._clear()
            return
        dirty, inside = _changed_names([s for s in removed if isinstance(s, _DEFS)],
                                       [s for s in added if isinstance(s, _DEFS)])
        parts = [(id(stmt), part) for stmt in self._body for part in self._describe(stmt).values()] \
            if dirty or inside else []
        stale = {id(s) for s in added} | _users(parts, dirty)
        suspect = _users(parts, dirty | inside) - stale if inside else set()  # they call a function changed inside
        live = {id(s) for s in self._body} - stale
        self._kept = {k: v for k, v in self._kept.items() if id(v.statement) in live}
        self._returns = {k: v for k, v in self._returns.items() if id(v.statement) in live}
        for kept in [*self._kept.values(), *self._returns.values()]:
            if id(kept.statement) in suspect:
                kept.suspect = True

    def _describe(self, stmt: ast.stmt) -> dict[str, _Part]:
        found = self._parts.get(id(stmt))
        if found is None or found[0] is not stmt:
            found = self._parts[id(stmt)] = (stmt, _parts(stmt))
        return found[1]

    def _holder(self, node: ast.AST) -> ast.stmt | None:
        """The top-level statement of the body that holds `node`."""
        if self._starts is None:
            self._starts = [s.lineno for s in self._body]
        at = bisect_right(self._starts, node.lineno) - 1
        stmt = self._body[at] if at >= 0 else None
        return stmt if stmt is not None and node.lineno <= stmt.end_lineno else None

    def get(self, function: FunctionInfo, visit: Visit, index: ModuleIndex) -> Walked | None:
        """The kept walk of `function` (a function of this file) for `visit`, or None (it is walked then)."""
        key = _key(function, visit)
        kept = self._kept.get(key) if key is not None else None
        if kept is not None and kept.node is function.node and kept.suspect and self._confirmed(kept, index):
            kept.suspect, kept.declined = False, {}  # (a fix check may read the changed function)
        if kept is None or kept.node is not function.node or kept.suspect:
            self.walks += 1
            return None
        calls = []
        for target, call, passed, in_loop in kept.calls:
            if isinstance(target, str):
                target = _local(index, target)
                if target is None:
                    self.walks += 1
                    return None
            calls.append((target, call, passed, in_loop))
        return Walked(kept.raws, calls, kept.call_tests)

    def put(self, function: FunctionInfo, visit: Visit, raws: list[Raw], calls: list, index: ModuleIndex,
            call_tests: dict[int, CallTests], consults: list) -> None:
        """Keep a walk of `function` (done with every file it needed in the project index)."""
        holder, key = self._holder(function.node), _key(function, visit)
        if holder is None or key is None:
            return
        self._touch(index)
        local = [(t.qualname if t.module in (index, None) else t, call, passed, in_loop)
                 for t, call, passed, in_loop in calls]
        variants = [k for k in self._kept if k[0] == key[0]]
        for old in variants[:max(0, len(variants) + 1 - VARIANTS)]:  # the oldest first (dicts keep insertion order)
            del self._kept[old]
        self._kept[key] = _Kept(function.node, holder, raws, local, call_tests, consults)

    def _touch(self, index: ModuleIndex) -> None:
        """Note the project files the analysis in progress has read (the own file's changes reach
        what is kept through the body's diff)."""
        if index.project is not None:
            self.touched |= index.project.used() - {self._path}

    def return_of(self, function: FunctionInfo, passed: tuple) -> tuple[object] | None:
        """The kept return fact of `function` (of this file) for the argument facts `passed`, in a
        1-tuple, or None."""
        found = self._returns.get((id(function.node), function.qualname, passed))
        if found is None or found.node is not function.node:
            return None
        if found.suspect and function.module is not None and self._confirmed(found, function.module):
            found.suspect = False
        return None if found.suspect else (found.fact,)

    def keep_return(self, function: FunctionInfo, passed: tuple, fact: object, index: ModuleIndex,
                    consults: list) -> None:
        """Keep what `function` returns for `passed` (worked out with every file it needed)."""
        holder = self._holder(function.node)
        if holder is None or function.inherited_from:  # reads the subclass's statement too (see `_key`)
            return
        self._touch(index)
        self._returns[(id(function.node), function.qualname, passed)] = _Return(function.node, holder, fact, consults)

    def _confirmed(self, kept: _Kept | _Return, index: ModuleIndex) -> bool:
        """Whether every return fact a kept walk read of this file's functions is still what they
        return (each worked out again, or taken from what is kept and confirmed in turn)."""
        if id(kept) in self._confirming:  # a recursion: not confirmed through itself
            return False
        self._confirming.add(id(kept))
        saved = return_state()
        try:
            for qualname, passed, fact in kept.consults:
                target = _local(index, qualname)
                if target is None or return_fact(index, target, dict(passed)) != fact:
                    return False
            return True
        finally:
            self._confirming.discard(id(kept))
            restore_return_state(saved)

    def declined(self, function: FunctionInfo, visit: Visit, raw: Raw, finding, compute):
        """`compute()` (the fix check of `finding`, made from `raw` of a kept walk), kept with the walk;
        again when it names a line and the last edit moved statements."""
        key = _key(function, visit)
        kept = self._kept.get(key) if key is not None else None
        if kept is None or kept.node is not function.node or not any(r is raw for r in kept.raws):
            return compute()
        known = (id(raw), _finding_key(finding))
        found = kept.declined.get(known)
        if found is None or self._moved and names_a_line(str(found)):  # "(line 355)": worked out again
            found = kept.declined[known] = compute()
        return found


def _users(parts: list[tuple[int, _Part]], dirty: set[str]) -> set[int]:
    """The ids of the statements (holders of `parts`) that use a name of `dirty`, directly or
    through the parts of other statements that do."""
    dirty = set(dirty)
    users: set[int] = set()
    grew = bool(dirty)
    while grew:
        grew = False
        for holder, part in parts:
            if not part.mentions.isdisjoint(dirty):
                users.add(holder)
                if not part.defines <= dirty:
                    dirty |= part.defines
                    grew = True
    return users


def _key(function: FunctionInfo, visit: Visit) -> tuple | None:
    """What a walk reads of how the function is reached (`Walker.is_entry`, `in_loop`, `_bind_params`);
    None when a parameter fact cannot be a key, or for a base's method walked as a subclass runs
    it, which reads that subclass's statement too (such a walk is not kept)."""
    if function.inherited_from:
        return None
    params = tuple(sorted(visit.params.items())) if visit.params is not None else None
    key = id(function.node), function.qualname, visit.entry is function, visit.in_loop, params, visit.guesses, \
        visit.training, visit.flag_modes, function.fullgraph
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _finding_key(finding) -> tuple:
    """The finding without its positions (they move with the nodes; the reason does not)."""
    return (finding.path, finding.code, finding.message, finding.severity, finding.confidence, finding.gb_ids,
            finding.fix, repr(sorted(finding.data.items())))


def _local(index: ModuleIndex, qualname: str) -> FunctionInfo | None:
    cls, _, name = qualname.rpartition(".")
    if not cls:
        return index.functions.get(name)
    info = index.classes.get(cls)
    return info.methods.get(name) if info is not None else None


_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_UNNAMED = re.compile(r"^(__\w+__|forward)$")  # methods that run without their name in the caller's code


def _changed_names(removed: list[ast.stmt], added: list[ast.stmt]) -> tuple[set[str], set[str]]:
    """The names changed by replacing the `def`/`class` statements `removed` by `added`: a class
    of the same name on both sides changes only through its parts that differ. Second, apart, the
    names of functions changed only inside (the same :func:`_interface`): what other walks read
    of those is the return facts they consulted, checked before such a walk is used again."""
    before = Counter(s.name for s in removed)
    after = Counter(s.name for s in added)
    twice = {name for name, count in (before + after).items() if before[name] > 1 or after[name] > 1}
    dirty: set[str] = set()
    for stmt in [*removed, *added]:  # a name defined twice: every part of each changes
        if stmt.name in twice:
            dirty |= {name for part in _parts(stmt).values() for name in part.defines}
    before = {s.name: s for s in removed if s.name not in twice}
    after = {s.name: s for s in added if s.name not in twice}
    inside: set[str] = set()
    for name in before.keys() | after.keys():
        old = _parts(before[name], code=True) if name in before else {}
        new = _parts(after[name], code=True) if name in after else {}
        for key in old.keys() | new.keys():
            if key in old and key in new and same_code(old[key].code, new[key].code):
                continue
            names = (old.get(key) or new[key]).defines | (new.get(key) or old[key]).defines
            same = key in old and key in new and (face := _interface(old[key].code)) is not None \
                and face == _interface(new[key].code)
            (inside if same else dirty).update(names)
        if isinstance(before.get(name), ast.ClassDef) and isinstance(after.get(name), ast.ClassDef) \
                and false_flags(before[name]) != false_flags(after[name]):
            dirty |= {name, *(n for key, part in new.items() if key for n in part.defines)}  # every method's branches
    return dirty, inside


def _interface(code: tuple[ast.AST, ...] | None) -> tuple | None:
    """What other functions' walks read of a function besides the return facts they consult: its
    name, signature, decorators and kind, whether it answers the compile checks, and every node
    with an effect other code reads (a `return`, an attribute stored or deleted, `setattr`, a nested
    def, class or lambda, `yield`, `global`). None for any other part (a class header, `__init__`)."""
    fn = code[0] if code and len(code) == 1 else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name == "__init__":
        return None
    effects = [ast.dump(node) for node in walk(fn) if node is not fn and _has_effect(node)]
    return (type(fn).__name__, fn.name, ast.dump(fn.args), [ast.dump(d) for d in fn.decorator_list],
            ast.dump(fn.returns) if fn.returns is not None else None, true_when_compiling(fn),
            false_when_compiling(fn), effects)


_EFFECTS = (ast.Return, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Yield, ast.YieldFrom,
            ast.Global, ast.Nonlocal)


def _has_effect(node: ast.AST) -> bool:
    """A node other code reads the effect of (see :func:`_interface`): a statement storing or
    deleting through an attribute or subscript, a `setattr`/`delattr` call, or one of `_EFFECTS`."""
    if isinstance(node, _EFFECTS):
        return True
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
    targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
        [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)) else \
        [item.optional_vars for item in node.items if item.optional_vars is not None] \
        if isinstance(node, (ast.With, ast.AsyncWith)) else []
    return any(isinstance(sub, (ast.Attribute, ast.Subscript)) for target in targets for sub in walk(target))


def _parts(stmt: ast.stmt, code: bool = False) -> dict[str, _Part]:
    """A class's header (key "") and methods (key: their name), or the statement as one part."""
    if not isinstance(stmt, ast.ClassDef):
        binds = {stmt.name} if isinstance(stmt, _DEFS) else _binds(stmt)
        return {"": _Part(frozenset(binds), _uses_of(stmt), (stmt,) if code else None)}
    methods = _methods(stmt)
    parts = {"": _Part(frozenset((stmt.name,)), _header_uses(stmt), tuple(_header(stmt)) if code else None)}
    for i, method in enumerate(methods):  # keyed by position too: a property's getter and setter share a name
        names = frozenset((stmt.name,) if _UNNAMED.match(method.name) else (method.name,))
        parts[f"{method.name}#{sum(m.name == method.name for m in methods[:i])}"] = \
            _Part(names, _uses_of(method), (method,) if code else None)
    return parts


def _methods(cls: ast.ClassDef) -> list[ast.stmt]:
    return [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _header(cls: ast.ClassDef) -> list[ast.AST]:
    """A class's bases, keywords, decorators and class-level statements (all but its methods)."""
    methods = _methods(cls)
    return [*cls.bases, *cls.keywords, *cls.decorator_list, *(s for s in cls.body if s not in methods)]


@per_node
def _uses_of(node: ast.AST) -> frozenset[str]:
    """:func:`_uses` of one statement, once per node (an edit elsewhere keeps its nodes)."""
    return _uses([node])


@per_node
def _header_uses(cls: ast.ClassDef) -> frozenset[str]:
    return _uses(_header(cls))


def _uses(nodes: list[ast.AST]) -> frozenset[str]:
    """Every name, attribute and imported name under `nodes`, and the names in string annotations
    (`processor: "AttnProcessor"`); a def's own name is not a use."""
    found = set()
    for top in nodes:
        for node in walk(top):
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
            elif isinstance(node, ast.alias):
                found.add(node.name.partition(".")[0])
                found.add(node.asname or node.name.partition(".")[0])
            for annotation in _annotations(node):
                if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                    found.update(_IDENTIFIER.findall(annotation.value))
    return frozenset(found)


def _annotations(node: ast.AST) -> tuple:
    if isinstance(node, ast.arg):
        return (node.annotation,)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return (node.returns,)
    if isinstance(node, ast.AnnAssign):
        return (node.annotation,)
    return ()


def _binds(stmt: ast.stmt) -> set[str]:
    """Every name a module-level statement stores, imports or defines."""
    binds = set()
    for node in walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            binds.add(node.id)
        elif isinstance(node, ast.alias):
            binds.add((node.asname or node.name).partition(".")[0])
        elif isinstance(node, _DEFS):
            binds.add(node.name)
    return binds
