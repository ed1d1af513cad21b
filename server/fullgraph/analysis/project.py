"""The project index: file summaries across the workspace and the libraries it imports.

Lazy: a file is read only when an analysed file reaches it (an import, a base class, a call).
Summaries are cached by (path, size, mtime) in memory and, when a store is given, on disk;
a summary is rebuilt only when its file changes. Anything derived from a file (its parsed
tree, the engine's per-file index, findings of one of its functions) is memoised next to
the summary with `derived()` and dropped with it.

Queries: `lookup(path, "a.b")` (what a spelling in a file stands for, through imports,
re-exports and star imports), `is_module_class`, `returns`, `logger_names`,
`compile_targets` (torch.compile call sites of the workspace), `call_sites` (every
call of a function across the workspace) and `decorated_sites` (every function a decorator decorates).
"""

from __future__ import annotations

import ast
import builtins
import os
import re
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from fullgraph.analysis.facts import external_call, is_tensor_qualname, torch_module_class
from fullgraph.analysis.parsing import parse_tree
from fullgraph.analysis.resolver import Resolver, is_known, package_folder
from fullgraph.analysis.search_paths import interpreter_paths
from fullgraph.analysis.star_directory import star_directory
from fullgraph.analysis.summary import (
    LOGGER,
    MODULE,
    TENSOR,
    VALUE,
    CallSite,
    ClassSummary,
    CompileSite,
    FileSummary,
    FunctionSummary,
    ImportRef,
    TYPED_DICTS,
    computed_methods,
    summarize,
    typed_dict_of,
)
from fullgraph.analysis.summary_store import SummaryStore

MAX_DEPTH = 24  # re-export and base-class chains longer than this are left unresolved
STAR_DEPTH = 2  # `from x import *` followed through at most this many modules
MAX_STARS = 16  # star imports of one module searched for a name
MAX_DISPATCH = 64  # base-class methods followed from a module's call entry
ELEMENT_FILES = 64  # a method name more workspace files call than this is not followed to container elements
SKIP_DIRS = frozenset((".git", ".hg", ".venv", "venv", "__pycache__", "node_modules", ".tox", ".mypy_cache",
                       ".pytest_cache", "build", "dist", "site-packages"))
ABSTRACT_BASES = frozenset(("abc.ABC",))  # a class deriving from it is meant to be subclassed
LIBRARY_MARKERS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")
_BUILTINS = frozenset(dir(builtins))
_COMPILE_TEXT = re.compile(r"compile\s*\(")
_CALLED = re.compile(r"\b([^\W\d]\w*)\s*\(")  # a name (of any letters) before `(`
_CALLED_ASCII = re.compile(_CALLED.pattern, re.ASCII)  # the same names in ASCII text, found faster
_BOUND = re.compile(r" = ([^\W\d][\w.]*)$", re.M)  # `fn = a.f` (a superset, found fast)
_DECORATOR = re.compile(r"^[ \t]*@[ \t]*([^\W\d][\w.]*)", re.M)  # `@a.deco`: what it leaves runs at call time


@dataclass(frozen=True)
class Symbol:
    """What a name stands for: `kind` is "module", "class", "function", "method", "logger",
    "value" (a module-level variable) or "external" (torch, numpy, the standard library, or
    a file that cannot be read: `qualname` is then the full dotted name, `path` None)."""

    path: str | None
    qualname: str
    kind: str


@dataclass
class IndexUse:
    """What one read-only analysis used (`touched`) and lacked (`missing`) of the index."""

    missing: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    readonly: bool = False
    stamps: dict = field(default_factory=dict)  # path -> (size, mtime) seen by this analysis
    names: set[str] = field(default_factory=set)  # names whose callers across the workspace it asked for
    lacked: int = 0  # times it lacked a file (one file may be lacked by several questions)
    generation: int = 0  # the index's generation when the analysis began


@dataclass
class _Entry:
    stamp: tuple[int, int]
    summary: FileSummary | None
    derived: dict = field(default_factory=dict)


@dataclass(frozen=True)
class CompileTarget:
    """A `torch.compile(...)` call in the workspace and the class or function it compiles."""

    site_path: str
    site: CompileSite
    target: Symbol


class _PerThread(threading.local):
    """One thread's analysis in progress (the language server analyses on two): its read-only or
    recorded use of the index, the functions whose return is being followed, and how many answers
    recursion cut short (those are not memoised)."""

    def __init__(self) -> None:
        self.use: IndexUse | None = None
        self.returns_pending: set[tuple[str, str]] = set()
        self.cuts = 0


class ProjectIndex:
    """Summaries of the files an analysis reaches, resolved across imports."""

    def __init__(self, roots=(), python: str | None = None, search_paths: tuple[str, ...] | None = None,
                 store: SummaryStore | None = None) -> None:
        self.roots = tuple(dict.fromkeys(os.path.abspath(r) for r in roots))
        self._python = python
        self._search_paths = search_paths
        self._resolver: Resolver | None = None
        self.store = store
        self._files: dict[str, _Entry] = {}
        self._lock = threading.RLock()
        self._workspace: list[str] | None = None
        self._compile_targets: dict[tuple[str, str], list[CompileTarget]] | None = None
        self._marks: dict[str, tuple[bool, frozenset[str] | None]] | None = None  # `_text_marks()`, until a file changes
        self._marks_named = False  # whether `_marks` holds the called names too
        self._calls: _CalledNames | None = None  # which workspace files call a name
        self._sites: dict[tuple, tuple[tuple, list | None]] = {}  # call_sites(), decorated_sites(): answers and what they read
        self._elements: dict[str, tuple[tuple, tuple]] = {}  # element_callers() answers, with what they read
        self._local = _PerThread()
        self._log: list[str | None] = []  # what changed, in order: a file, or None for what imports resolve to
        self._resolutions = 0  # how many of those changes were None

    @contextmanager
    def readonly(self):
        """Within this block (in this thread) the index is used as it stands, for the keystroke
        path: it never reads, parses or asks the interpreter. Yields a record whose `missing`
        lists the files it lacked (for a background fill) and `touched` those it used (to
        re-analyse when they change)."""
        use = self._local.use = IndexUse(readonly=True, generation=self.generation)
        try:
            yield use
        finally:
            self._local.use = None

    @contextmanager
    def recording(self):
        """Within this block (in this thread) the files the index reads or uses are listed in
        the yielded record's `touched` (what a cached result depends on)."""
        use = self._local.use = IndexUse()
        try:
            yield use
        finally:
            self._local.use = None

    @property
    def eager(self) -> bool:
        use = self._local.use
        return use is None or not use.readonly

    def touch(self, paths) -> None:
        """Record `paths` as used by the analysis in progress in this thread (results it reuses read them)."""
        use = self._local.use
        if use is not None:
            use.touched.update(paths)

    def current_use(self) -> IndexUse | None:
        """A copy of what the analysis in progress in this thread has used and lacked so far."""
        use = self._local.use
        return None if use is None else replace(use, missing=set(use.missing), touched=set(use.touched),
                                                stamps=dict(use.stamps), names=set(use.names))

    def replay(self, use: IndexUse) -> None:
        """Record what an earlier analysis used, for the one in progress in this thread, which
        stands on that one's results."""
        current = self._local.use
        if current is not None:
            current.touched |= use.touched
            current.stamps.update(use.stamps)
            current.names |= use.names

    def used(self) -> set[str]:
        """The files the analysis in progress in this thread has used so far (empty outside one)."""
        use = self._local.use
        return use.touched if use is not None else set()

    @property
    def generation(self) -> int:
        """How many changes the index has seen (a file read, updated or forgotten; a new resolver)."""
        return len(self._log)

    def changed_since(self, generation: int) -> set[str] | None:
        """The files whose answers changed since `generation`; None when any answer may have."""
        changes = self._log[generation:]
        return None if None in changes else set(changes)

    def _miss(self, path: str) -> None:
        self._local.use.missing.add(path)
        self._local.use.lacked += 1

    def misses(self) -> int:
        """How many times a read-only analysis in this thread has lacked a file so far (0 when
        eager; a file lacked again counts again): an answer computed while this grew is partial
        and must not be memoised."""
        return 0 if self.eager else self._local.use.lacked

    # -- files ---------------------------------------------------------------------------

    @property
    def resolver(self) -> Resolver:
        if self._resolver is None and not self.eager:
            return Resolver(self.roots, ())  # the interpreter has not answered yet: workspace only
        if self._resolver is None:
            paths = self._search_paths if self._search_paths is not None else interpreter_paths(self._python)
            self._resolver = Resolver(self.roots, paths)
            self._log.append(None)
            self._resolutions += 1
        return self._resolver

    def in_workspace(self, path: str) -> bool:
        """True for a file under a workspace root that is not an installed library's."""
        path = os.path.abspath(path)
        if any(marker in path for marker in LIBRARY_MARKERS) and not any(
                marker in root + os.sep for root in self.roots for marker in LIBRARY_MARKERS):
            return False
        return any(path == r or path.startswith(r + os.sep) for r in self.roots)

    def display_path(self, path: str) -> str:
        """`path` relative to the search path or root that holds it ("transformers/utils.py")."""
        bases = [b for b in (*self.roots, *self.resolver.bases) if path.startswith(b + os.sep)]
        return os.path.relpath(path, max(bases, key=len)) if bases else path

    def _entry(self, path: str) -> _Entry | None:
        stamp = self._stamp_once(path)
        if stamp is None:
            return None
        use = self._local.use
        if use is not None:
            use.touched.add(path)
        with self._lock:
            entry = self._files.get(path)
            if entry is not None and (entry.stamp == stamp or entry.stamp[0] < 0):  # < 0: an editor buffer
                return entry
        if not self.eager:
            self._miss(path)
            return None
        summary = self.store.get(path, stamp) if self.store is not None else None
        entry = _Entry(stamp, summary)
        if summary is None:
            parsed = _read_and_parse(path)
            if parsed is not None:
                tree, text = parsed
                entry.summary = summarize(tree, text)  # the tree is not kept: most files are only summarised
                if self.store is not None:
                    self.store.put(path, stamp, entry.summary)
        with self._lock:
            self._files[path] = entry
            self._log.append(path)
            if self._calls is not None and path in self._calls.by_file:
                self._calls.put(path, _read_text(path))
        return entry

    def summary(self, path: str) -> FileSummary | None:
        """The summary of the file at `path` (None when unreadable or not Python)."""
        entry = self._entry(path)
        return entry.summary if entry is not None else None

    def update(self, path: str, text: str) -> None:
        """Use `text` (an editor buffer) for `path` instead of the file on disk, until it changes."""
        try:
            tree = parse_tree(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        entry = _Entry((-1, hash(text)), summarize(tree, text), {"tree": (tree, text)})
        with self._lock:
            self._files[path] = entry
            self._compile_targets = self._marks = None
            self._log.append(path)
            if self._calls is not None and path in self._calls.by_file:
                self._calls.put(path, text)

    def forget(self, path: str) -> None:
        """Drop what is known of `path` (a watched file changed or was deleted)."""
        with self._lock:
            known = self._files.pop(path, None) is not None
            self._compile_targets = self._marks = None
            self._workspace = None
            if self._calls is not None:
                self._calls.put(path, _read_text(path))
            self._log.append(path if known and os.path.isfile(path) else None)  # else what imports find may change
            self._resolutions += self._log[-1] is None
            if self._resolver is not None:
                self._resolver.clear()  # a new or deleted file changes what imports resolve to

    def derived(self, path: str, key, compute):
        """`compute()` memoised with the current version of `path` (None when unreadable); an answer
        cut short by a lacking file or by recursion (`returns_symbol`) is not memoised."""
        entry = self._files.get(path)
        if entry is None or (entry.stamp[0] >= 0 and entry.stamp != self._stamp_once(path)):
            entry = self._entry(path)
        if entry is None:
            return None
        if key in entry.derived:
            return entry.derived[key]
        before, cuts = self.misses(), self._local.cuts
        value = compute()
        if self.misses() == before and self._local.cuts == cuts:
            entry.derived[key] = value
        return value

    def _stamp_once(self, path: str) -> tuple[int, int] | None:
        """The file's stamp, read once per read-only or recorded analysis (files do not change
        under one analysis; the next one looks again)."""
        use = self._local.use
        if use is None:
            return _stamp(path)
        if path not in use.stamps:
            use.stamps[path] = _stamp(path)
        return use.stamps[path]

    def tree(self, path: str) -> tuple[ast.Module, str] | None:
        """The parsed tree and text of `path`, parsed on first use (a view only has those parsed)."""
        if not self.eager:
            entry = self._entry(path)
            if entry is None or "tree" not in entry.derived:
                self._miss(path)
                return None
        return self.derived(path, "tree", lambda: _read_and_parse(path))

    # -- names ---------------------------------------------------------------------------

    def module_file(self, module: str, from_path: str | None = None, level: int = 0) -> str | None:
        """The file of a module imported from `from_path`: relative imports from its folder;
        absolute ones from the roots and sys.path, then (as a script would) from its folder."""
        if level:
            return self.resolver.relative_file(from_path, level, module) if from_path else None
        found = self.resolver.module_file(module)
        if found is None and from_path and not is_known(module):
            found = self.resolver.relative_file(from_path, 1, module)
        return found

    def lookup(self, path: str, spelling: str, depth: int = 0) -> Symbol | None:
        """What `spelling` ("name" or "name.attr.attr") stands for at the top level of `path`."""
        head, _, rest = spelling.partition(".")
        symbol = self._name(path, head, depth)
        for attr in rest.split(".") if rest else ():
            if symbol is None:
                return None
            symbol = self._member(symbol, attr, depth + 1)
        return symbol

    def _name(self, path: str, name: str, depth: int) -> Symbol | None:
        if depth > MAX_DEPTH:
            return None
        s = self.summary(path)
        if s is None:
            return None
        if name in s.classes:
            return Symbol(path, name, "class")
        if name in s.functions:
            return Symbol(path, name, "function")
        if name in s.loggers:
            return Symbol(path, name, "logger")
        if name in s.imports:
            return self.imported(path, s.imports[name], depth)
        if name in s.aliases:
            return self.lookup(path, s.aliases[name], depth + 1)
        if name in s.partials:  # `einsum = functools.partial(contract, backend="torch")`: calls run `contract`
            return self.lookup(path, s.partials[name], depth + 1)
        if name in s.assigned_calls:
            made = self.lookup(path, s.assigned_calls[name], depth + 1)
            if made is not None and self.returns_symbol(made) == LOGGER:
                return Symbol(path, name, "logger")
            return Symbol(path, name, "value")
        if name in s.constants:
            return Symbol(path, name, "value")
        if name in _BUILTINS:
            return Symbol(None, name, "external")
        return self._star_name(path, s, name, depth, 0) if s.star_imports else None

    def _star_name(self, path: str, s: FileSummary, name: str, depth: int, stars: int) -> Symbol | None:
        """`name` from the modules `path` star-imports, where cheap: a module whose `__all__`
        leaves the name out is not searched, and stars of stars only STAR_DEPTH deep; a library
        module with more than MAX_STARS of them is looked up in its star directory."""
        if self._wide(path, s):
            found = self.star_directory(path).get(name)
            return self._name(found, name, depth + 1) if found is not None else None
        for ref in s.star_imports[:MAX_STARS]:
            module = self._module(ref.module, path, ref.level, depth)
            inner = self.summary(module.path) if module is not None and module.path is not None else None
            if inner is None or (inner.all_names is not None and name not in inner.all_names):
                continue
            if _defines(inner, name):
                return self._name(module.path, name, depth + 1)
            if inner.star_imports and stars + 1 < STAR_DEPTH:
                found = self._star_name(module.path, inner, name, depth + 1, stars + 1)
                if found is not None:
                    return found
        return None

    def _wide(self, path: str, s: FileSummary) -> bool:
        """A library module star-importing more modules than a name search follows (a workspace
        module's would go stale as its files change, and is searched as far as MAX_STARS)."""
        return len(s.star_imports) > MAX_STARS and not self.in_workspace(path)

    def star_directory(self, path: str) -> dict[str, str]:
        """Name -> the file binding it, through the star imports of library module `path`, read from
        the files' text (:mod:`star_directory`); kept with `path`'s version. A read-only analysis
        lacking it lists `path` for the fill (`fill`), which makes it."""
        def compute() -> dict[str, str]:
            if not self.eager:
                self._miss(path)
                return {}
            return star_directory(path, _read_text, self.module_file)
        return self.derived(path, "star directory", compute) or {}

    def fill(self, path: str) -> None:
        """Read what a read-only analysis lacked of `path`: its summary and tree, and its star
        directory when it has one."""
        self.tree(path)
        s = self.summary(path)
        if s is not None and self._wide(path, s):
            self.star_directory(path)

    def imported(self, path: str, ref: ImportRef, depth: int = 0, rest: str = "") -> Symbol | None:
        """What an import in `path` binds (then `.rest` of it)."""
        module = self._module(ref.module, path, ref.level, depth)
        symbol = module if ref.name is None or module is None else self._member(module, ref.name, depth + 1)
        for attr in rest.split(".") if rest else ():
            if symbol is None:
                return None
            symbol = self._member(symbol, attr, depth + 1)
        return symbol

    def _module(self, module: str, from_path: str, level: int, depth: int) -> Symbol | None:
        if not level and is_known(module):
            return Symbol(None, module, "external")
        file = self.module_file(module, from_path, level)
        return Symbol(file, "", "module") if file is not None else None

    def _member(self, owner: Symbol, attr: str, depth: int) -> Symbol | None:
        """`owner.attr`: a module's name or submodule, a class's method, an external's attribute."""
        if owner.kind == "external":
            return Symbol(None, f"{owner.qualname}.{attr}", "external")
        if owner.kind == "module":
            found = self._name(owner.path, attr, depth)
            if found is not None:
                return found
            folder = package_folder(owner.path)
            if folder is not None:
                sub = self.module_file(attr, os.path.join(folder, "__init__.py"), 1)
                if sub is not None:
                    return Symbol(sub, "", "module")
            return None
        if owner.kind == "class":
            method = self.method(owner, attr, depth)
            return method
        return None

    def method(self, cls: Symbol, name: str, depth: int = 0) -> Symbol | None:
        """`cls.name` through the base classes in any file (first found, breadth first)."""
        return self._base_method((cls,), name, depth=depth)

    # -- questions -----------------------------------------------------------------------

    def typed_dict(self, path: str, name: str, depth: int = 0) -> tuple[bool, bool]:
        """Whether class `name` of `path` is a TypedDict, and whether it (or a base) declares
        optional keys."""
        s = self.summary(path)
        cls = s.classes.get(name) if s is not None else None
        if cls is None or depth > MAX_DEPTH:
            return False, False
        def base(spelling: str) -> tuple[bool, bool]:
            symbol = self.lookup(path, spelling)
            if symbol is not None and symbol.kind == "external":
                return symbol.qualname in TYPED_DICTS, False
            if symbol is not None and symbol.kind == "class" and symbol.path is not None:
                return self.typed_dict(symbol.path, symbol.qualname, depth + 1)
            return False, False
        return typed_dict_of(cls.optional_keys, (base(b) for b in cls.bases))

    def is_module_class(self, path: str, name: str) -> bool | None:
        """True when class `name` of `path` derives from `torch.nn.Module` through any number of
        files; False when its bases are all known and none does; None when a base is unknown."""
        return self.derived(path, ("is_module", name), lambda: self._is_module(Symbol(path, name, "class"), set()))

    def _is_module(self, cls: Symbol, seen: set) -> bool | None:
        if (cls.path, cls.qualname) in seen or len(seen) > MAX_DEPTH:
            return None
        seen.add((cls.path, cls.qualname))
        s = self.summary(cls.path)
        info = s.classes.get(cls.qualname) if s is not None else None
        if info is None:
            return None
        answer: bool | None = False
        for base in info.bases:
            symbol = self.lookup(cls.path, base)
            if symbol is None:
                answer = None
            elif symbol.kind == "external":
                if torch_module_class(symbol.qualname):
                    return True
            elif symbol.kind == "class":
                result = self._is_module(symbol, seen)
                if result:
                    return True
                if result is None:
                    answer = None
        return answer

    def exported(self, path: str) -> dict[str, str]:
        """The top-level functions and classes of `path` that an `__init__.py` of its package (its own
        folder's or one above it, in the workspace) makes importable under a public name: the package's
        API, which its users call from their compiled code (`torchdiffeq.odeint`,
        `e3nn.o3.matrix_to_angles`, `normflows.NormalizingFlow`); name -> the nearest `__init__.py`
        that exports it."""
        out: dict[str, str] = {}
        folder = os.path.dirname(path)
        while os.path.isfile(init := os.path.join(folder, "__init__.py")) and self.in_workspace(init):
            for p, q in self._exports(init):
                if p == path:
                    out.setdefault(q, init)
            folder = os.path.dirname(folder)
        return out

    def _exports(self, init: str) -> frozenset[tuple[str, str]]:
        """(path, qualname) of each function or class a package's `__init__.py` binds to a public
        name: its `__all__` when a literal, else the names it imports, defines, and star-imports."""
        def compute() -> frozenset[tuple[str, str]]:
            s = self.summary(init)
            if s is None:
                return frozenset()
            names = set(s.all_names) if s.all_names is not None else {*s.imports, *s.functions, *s.classes, *s.aliases}
            if s.all_names is None:
                for ref in s.star_imports[:MAX_STARS]:
                    module = self._module(ref.module, init, ref.level, 0)
                    inner = self.summary(module.path) if module is not None and module.path else None
                    if inner is not None:
                        names.update(inner.all_names if inner.all_names is not None else (*inner.functions, *inner.classes))
            found = (self._name(init, n, 0) for n in sorted(names) if not n.startswith("_"))
            return frozenset((f.path, f.qualname) for f in found
                             if f is not None and f.kind in ("function", "class") and f.path)
        return self.derived(init, "exports", compute) or frozenset()

    def is_interface(self, path: str, name: str) -> bool:
        """Whether class `name` of `path` (or a base) declares an `@abstractmethod` or derives from
        `abc.ABC`: its objects are of subclasses, whose methods may differ from its own."""
        def compute() -> bool:
            for c, info in self.base_classes((Symbol(path, name, "class"),)):
                if info is None:
                    if c.qualname in ABSTRACT_BASES:
                        return True
                elif any(d.rpartition(".")[2] == "abstractmethod" for m in info.methods.values() for d in m.decorators):
                    return True
            return False
        return self.derived(path, ("is_interface", name), compute)

    def dispatched(self, bases: tuple[Symbol, ...], calls: tuple[str, ...], inherited: bool,
                   overridable: frozenset[str], attrs: frozenset[str]) -> frozenset[str]:
        """Which of `overridable` (methods a module class defines in its own file) base-class code
        reaches on `self`, in any file: through the methods `calls` names (what the class's own code
        calls on `self` and its bases define) and, when the class has no `forward`/`__call__` of
        its own (`inherited`), through the one it inherits. `bases` are its imported bases in
        order; `attrs` the attributes it assigns (`self.encoder(...)` calls a submodule)."""
        classes = [b for b in bases if b.kind == "class" and b.path is not None]
        if not classes:
            return frozenset()
        key = ("dispatched", bases, calls, inherited, overridable, attrs)
        return self.derived(classes[0].path, key, lambda: self._dispatched(bases, calls, inherited, overridable, attrs))

    def _dispatched(self, bases, calls, inherited, overridable, attrs) -> frozenset[str]:
        inherited_call = self.inherited_call(bases) if inherited else None
        if inherited_call in overridable:
            return frozenset((inherited_call,))  # `Transform.__call__` runs `_call`
        entries = ("forward", "__call__") if inherited else ()
        todo = [m for m in (*(self._base_method(bases, n, True) for n in entries),
                            *(self._base_method(bases, n) for n in calls)) if m is not None]
        seen = {(m.path, m.qualname) for m in todo}
        found: set[str] = set()
        while todo and len(seen) <= MAX_DISPATCH:
            caller = todo.pop(0)
            owner_name, _, method_name = caller.qualname.rpartition(".")
            s = self.summary(caller.path)
            owner = s.classes.get(owner_name) if s is not None else None
            summary = owner.methods.get(method_name) if owner is not None else None
            for call in summary.calls if summary is not None else ():
                named = computed_methods(call, overridable | set(owner.methods)) if call.callee == "getattr" else ()
                # `getattr(self, f"{kind}_loss")` runs the methods its name may be; `self.loss_method(...)` those it holds
                for name in named or _self_called(call, owner):
                    if name in overridable:
                        found.add(name)  # the class's own method runs (a base may wrap it: `self.f = wrap(self.f)`)
                        continue
                    if name in attrs or name in owner.attrs:
                        continue  # `self.encoder(...)`: a submodule, not a method
                    here = self._base_method(bases, name)
                    if here is not None and (here.path, here.qualname) not in seen:
                        seen.add((here.path, here.qualname))
                        todo.append(here)
        return frozenset(found)

    def inherited_call(self, bases: tuple[Symbol, ...]) -> str | None:
        """The method a torch base's `__call__` runs (`facts.CALL_DISPATCH`) when a class inherits its
        call from one through `bases` (breadth first: an `nn.Module` base or a `__call__`/`forward` of
        the bases' own, met first, decides otherwise)."""
        for c, info in self.base_classes(bases):
            if info is None:
                dispatched = external_call(c.qualname)
                if dispatched is not False:
                    return dispatched
            elif "__call__" in info.methods or "forward" in info.methods:
                return None
        return None

    def _base_method(self, bases: tuple[Symbol, ...], name: str, entry: bool = False, depth: int = 0) -> Symbol | None:
        """Method `name` through `bases` and their bases (breadth first). For a call entry
        (`forward`, `__call__`) a `torch.nn` base ends the search: its own comes first."""
        for c, info in self.base_classes(bases, depth):
            if info is None:
                if entry and c.qualname.startswith("torch.nn."):
                    return None
            elif name in info.methods:
                return Symbol(c.path, f"{c.qualname}.{name}", "method")
        return None

    def base_classes(self, bases: tuple[Symbol, ...], depth: int = 0):
        """`bases` and their bases, breadth first: (symbol, its ClassSummary), the summary None for
        an external class (torch, the standard library)."""
        seen = set()
        todo = list(bases)
        while todo and len(seen) <= MAX_DEPTH:
            c = todo.pop(0)
            if c.kind == "external":
                yield c, None
                continue
            if c.kind != "class" or (c.path, c.qualname) in seen:
                continue
            seen.add((c.path, c.qualname))
            s = self.summary(c.path)
            info = s.classes.get(c.qualname) if s is not None else None
            if info is not None:
                yield c, info
                todo.extend(b for b in (self.lookup(c.path, base, depth + 1) for base in info.bases) if b is not None)

    def returns(self, path: str, qualname: str) -> str | None:
        """What a function returns: TENSOR, VALUE, MODULE, LOGGER, or None when unknown."""
        kind = "method" if "." in qualname else "function"
        return self.returns_symbol(Symbol(path, qualname, kind))

    def returns_symbol(self, symbol: Symbol) -> str | None:
        """What a function symbol returns, through the functions whose calls it returns (any number)."""
        if symbol.kind == "external":
            q = symbol.qualname
            if q.rpartition(".")[2] == "getLogger" or q in ("logging.Logger", "logging.LoggerAdapter"):
                return LOGGER
            return TENSOR if is_tensor_qualname(q) else None
        if symbol.kind == "class":
            return MODULE if self.is_module_class(symbol.path, symbol.qualname) else None
        if symbol.kind not in ("function", "method"):
            return None
        pending = self._local.returns_pending
        key = (symbol.path, symbol.qualname)
        if key in pending:  # recursion: unknown, and what it cut short depends on where it began (not memoised)
            self._local.cuts += 1
            return None
        pending.add(key)
        try:
            return self.derived(symbol.path, ("returns", symbol.qualname), lambda: self._returns(symbol))
        finally:
            pending.discard(key)

    def _returns(self, symbol: Symbol) -> str | None:
        function = self.function(symbol)
        if function is None or not function.returns:
            return None
        kinds = set()
        for shape in function.returns:
            kind, _, spelling = shape.partition(":")
            if kind == "call":
                target = self.lookup(symbol.path, spelling) if spelling else None
                kinds.add(self.returns_symbol(target) if target is not None else None)
            elif kind == "name":
                target = self.lookup(symbol.path, spelling)
                kinds.add(LOGGER if target is not None and target.kind == "logger" else None)
            else:
                kinds.add(shape or None)
        return kinds.pop() if len(kinds) == 1 else None

    def function(self, symbol: Symbol):
        """The FunctionSummary of a function or method symbol."""
        s = self.summary(symbol.path) if symbol.path else None
        if s is None:
            return None
        cls, _, name = symbol.qualname.rpartition(".")
        if cls:
            info = s.classes.get(cls)
            return info.methods.get(name) if info is not None else None
        return s.functions.get(name)

    def logger_names(self, path: str) -> frozenset[str]:
        """Module-level names of `path` bound to a logger, whatever library's factory made it."""
        def compute():
            s = self.summary(path)
            if s is None:
                return frozenset()
            return frozenset(n for n in (*s.loggers, *s.assigned_calls) if (self._name(path, n, 0) or
                                                                              Symbol(None, "", "")).kind == "logger")
        return self.derived(path, "loggers", compute) or frozenset()

    # -- the workspace -------------------------------------------------------------------

    def workspace_files(self) -> list[str]:
        """Every Python file under the workspace roots (tool and environment folders skipped;
        linked Python packages followed, each real folder once)."""
        if self._workspace is None:
            files, seen = [], set()
            for root in self.roots:
                if os.path.isfile(root):
                    files.append(root)
                    continue
                for folder, dirs, names in os.walk(root, followlinks=True):
                    real = os.path.realpath(folder)
                    if real in seen:
                        dirs[:] = []
                        continue
                    seen.add(real)
                    dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".") and (
                        not os.path.islink(os.path.join(folder, d))
                        or os.path.isfile(os.path.join(folder, d, "__init__.py"))))
                    files.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(".py"))
            self._workspace = files
        return self._workspace

    def compile_targets(self) -> dict[tuple[str, str], list[CompileTarget]]:
        """(path, class or function name) -> the workspace's `torch.compile(...)` calls of it."""
        with self._lock:
            if self._compile_targets is not None or not self.eager:
                return self._compile_targets or {}
        found: dict[tuple[str, str], list[CompileTarget]] = {}
        for path, (compiles, _) in self._text_marks().items():
            if not compiles:
                continue
            s = self.summary(path)
            for site in s.compile_sites if s is not None else ():
                compile_fn = self.lookup(path, site.compile_spelling)
                if compile_fn is None or compile_fn.qualname != "torch.compile":
                    continue
                target = self.lookup(path, site.target)
                if target is None or target.path is None:
                    continue
                if target.kind == "class" and site.method:  # `torch.compile(model.sample)`
                    found.setdefault((target.path, f"{target.qualname}.{site.method}"), []).append(
                        CompileTarget(path, site, target))
                elif target.kind in ("class", "function"):
                    found.setdefault((target.path, target.qualname), []).append(CompileTarget(path, site, target))
        with self._lock:
            self._compile_targets = found
        return found

    def set_compile_targets(self, targets: dict[tuple[str, str], list[CompileTarget]]) -> None:
        """Use `compile_targets()` computed by another process over the same workspace."""
        with self._lock:
            self._compile_targets = targets

    def call_sites(self, path: str, qualname: str, limit: int | None = None) -> list[tuple[str, CallSite]] | None:
        """Every call in the other workspace files that resolves to function or method `qualname` of `path`:
        (file, call site) pairs; None when more than `limit` files or calls spell its name (too
        many to resolve). In a read-only analysis, files the index lacks are missed (and listed for a fill)."""
        return self._sites_of(path, qualname, limit, "calls by name", _calls_by_name)

    def decorated_sites(self, path: str, qualname: str, first: int) -> list[tuple[str, CallSite]]:
        """The functions and methods of the other workspace files that function `qualname` of `path`
        decorates (`@deco`, `@deco(...)`), among the `first` decorators spelled with its name (files
        in order): (file, site) pairs, the site's caller the decorated function."""
        return self._sites_of(path, qualname, None, "decorators by name", _decorators_by_name, first, "@") or []

    def _sites_of(self, path: str, qualname: str, limit: int | None, table: str,
                  by_name: Callable[[FileSummary], dict], first: int | None = None,
                  mark: str = "") -> list[tuple[str, CallSite]] | None:
        """The sites of `by_name`'s table (kept per file as `table`) resolving to `qualname` of `path`
        (of the `first` spelled with its name, when given), in the files whose text marks hold the
        name (after `mark`: "@" for a decorator)."""
        name = qualname.rpartition(".")[2]
        target = os.path.abspath(path), qualname
        use = self._local.use
        if use is not None:
            use.names.add(mark + name)
        calls = self._called()
        with self._lock:  # the index thread updates `calls`
            if limit is not None and len(calls.by_name.get(mark + name, ())) > limit + 1:
                return None  # (the function's own file may be among them)
            files = [f for f in calls.files(mark + name) if f != target[0]]
            read = self._read(calls, files)
        if limit is not None and len(files) > limit:
            return None
        known = self._sites.get((target, limit, table, first))
        if known is not None and known[0] == read:
            return known[1]
        before = self.misses()
        candidates = []
        for file in files:
            s = self.summary(file)
            if s is None:
                continue
            named = self.derived(file, table, lambda: by_name(s)) or {}
            candidates.extend((file, qualname, call) for qualname, call in named.get(name, ()))
            if limit is not None and len(candidates) > limit or first is not None and len(candidates) >= first:
                break
        too_many = limit is not None and len(candidates) > limit
        found = None if too_many else [(file, call) for file, caller, call in candidates[:first]
                                       if self._call_target(file, caller, call.callee) == target]
        if self.misses() == before:
            self._sites[target, limit, table, first] = read, found
        return found

    def element_callers(self, name: str) -> tuple[tuple[str, str, int], ...]:
        """The methods of workspace module classes, run from their class's `forward`/`__call__`
        through calls on `self`, that call method `name` on an element of a container they hold
        (`self.flows[i].inverse(z)`): (file, qualname, line) each. Empty when more than
        `ELEMENT_FILES` files call the name; in a read-only analysis, only files the index has."""
        use = self._local.use
        if use is not None:
            use.names.add(name)
        calls = self._called()
        with self._lock:
            if len(calls.by_name.get(name, ())) > ELEMENT_FILES:
                return ()
            files = calls.files(name)
            read = self._read(calls, files)
        known = self._elements.get(name)
        if known is not None and known[0] == read:
            return known[1]
        before = self.misses()
        found = []
        for file in files:
            s = self.summary(file)
            for cls in s.classes.values() if s is not None else ():
                if any(name == n for m in cls.methods.values() for n, _ in m.element_calls) \
                        and self.is_module_class(file, cls.name):
                    found.extend((file, m.qualname, line) for m in _reached_methods(cls)
                                 for n, line in m.element_calls if n == name)
        if self.misses() == before:
            self._elements[name] = read, tuple(found)
        return tuple(found)

    def _read(self, calls: _CalledNames, files: list[str]) -> tuple:
        """What an answer over ``files`` read: the files, the versions of their text and of what imports
        resolve to (an answer memoised with it holds while this is equal)."""
        return tuple(files), tuple(calls.versions.get(f, 0) for f in files), self._resolutions

    def _called(self) -> _CalledNames:
        """Which workspace files call a name (not in a read-only analysis: none are known until
        an eager one asked), then kept up to date file by file."""
        with self._lock:
            if self._calls is not None or not self.eager:
                return self._calls or _CalledNames()
        calls = _CalledNames()
        for path, (_, names) in self._text_marks(names=True).items():
            calls.add(path, names)
        with self._lock:
            self._calls = calls
        return calls

    def _text_marks(self, names: bool = False) -> dict[str, tuple[bool, frozenset[str] | None]]:
        """Workspace file -> (whether its text calls `compile(`, the names its text calls or None
        when not asked for: finding them costs most of the pass), from an open editor buffer or the
        file, kept on disk while the file's stamp holds (and in memory until a file changes)."""
        with self._lock:
            if self._marks is not None and (self._marks_named or not names):
                return self._marks
        stored = self.store.get_marks(self.roots) if self.store is not None else {}
        marks, fresh = {}, {}
        for path in self.workspace_files():
            entry = self._files.get(path)
            if entry is not None and entry.stamp[0] < 0:
                marks[path] = _text_mark(entry.derived["tree"][1], names)
                continue
            stamp = _stamp(path)
            known = stored.get(path)
            usable = known is not None and known[0] == stamp and isinstance(known[1], tuple) \
                and (not names or known[1][1] is not None)
            mark = known[1] if usable else _text_mark(_read_text(path), names)
            fresh[path] = stamp, mark
            marks[path] = mark
        if self.store is not None and fresh != stored:
            self.store.put_marks(self.roots, fresh)
        with self._lock:
            self._marks, self._marks_named = marks, names
        return marks

    def called_names(self, path: str) -> frozenset[str]:
        """The names the text of workspace file `path` calls, as the index knows them now."""
        with self._lock:
            return self._calls.by_file.get(path, frozenset()) if self._calls is not None else frozenset()

    def index_calls(self) -> None:
        """Read which workspace files call which names now (the editor's background indexing)."""
        self._called()

    def _call_target(self, file: str, caller: str, callee: str) -> tuple[str, str] | None:
        head, _, rest = callee.partition(".")
        if head == "self" and "." in caller and rest and "." not in rest:
            symbol = self.method(Symbol(file, caller.rpartition(".")[0], "class"), rest)
        else:
            symbol = self.lookup(file, callee)
        if symbol is None or symbol.path is None:
            return None
        return os.path.abspath(symbol.path), symbol.qualname


def _calls_by_name(s: FileSummary) -> dict[str, list[tuple[str, CallSite]]]:
    """The calls of a file's functions and methods by the last part of the callee's spelling:
    (caller's qualname, call) each, in source order per function."""
    out: dict[str, list[tuple[str, CallSite]]] = {}
    for function in (*s.functions.values(), *(m for c in s.classes.values() for m in c.methods.values())):
        for call in function.calls:
            out.setdefault(call.callee.rpartition(".")[2], []).append((function.qualname, call))
    return out


def _decorators_by_name(s: FileSummary) -> dict[str, list[tuple[str, CallSite]]]:
    """The decorators of a file's functions and methods by the last part of their spelling:
    (decorated function's qualname, a site at its `def` whose caller is that function) each."""
    out: dict[str, list[tuple[str, CallSite]]] = {}
    for function in (*s.functions.values(), *(m for c in s.classes.values() for m in c.methods.values())):
        for spelling in function.decorators:
            site = CallSite(spelling, function.line, 0, function.qualname)
            out.setdefault(spelling.rpartition(".")[2], []).append((function.qualname, site))
    return out


class _CalledNames:
    """Workspace file -> the names its text calls (`name(`, or binds: `fn = a.name`; a superset of its
    calls) and decorates with (`@a.name`, kept as "@name"), and back."""

    def __init__(self) -> None:
        self.by_file: dict[str, frozenset[str]] = {}
        self.by_name: dict[str, set[str]] = {}
        self.versions: dict[str, int] = {}  # file -> how many times its text was read again

    def put(self, file: str, text: str | None) -> None:
        for name in self.by_file.get(file, ()):
            self.by_name[name].discard(file)
        self.versions[file] = self.versions.get(file, 0) + 1
        self.add(file, _text_mark(text, True)[1])

    def add(self, file: str, names: frozenset[str]) -> None:
        self.by_file[file] = names
        for name in names:
            self.by_name.setdefault(name, set()).add(file)

    def files(self, name: str) -> list[str]:
        return sorted(self.by_name.get(name, ()))


def _reached_methods(cls: ClassSummary) -> list[FunctionSummary]:
    """A class's own methods its `forward`/`__call__` runs through calls on `self` (themselves included)."""
    todo = [cls.methods[n] for n in ("forward", "__call__") if n in cls.methods]
    seen = {m.qualname for m in todo}
    out = []
    while todo:
        method = todo.pop(0)
        out.append(method)
        for call in method.calls:
            for name in _self_called(call, cls):
                inner = cls.methods.get(name)
                if inner is not None and inner.qualname not in seen:
                    seen.add(inner.qualname)
                    todo.append(inner)
    return out


def _self_called(call: CallSite, cls: ClassSummary) -> tuple[str, ...]:
    """The names a `self.<name>(...)` call in a method of ``cls`` runs: the method, or those the
    attribute holds (`self.f = self.g if c else self.h`); nothing for any other call."""
    head, _, attr = call.callee.partition(".")
    if head != "self" or not attr or "." in attr:
        return ()
    return cls.method_attrs.get(attr, (attr,))


def _defines(s: FileSummary, name: str) -> bool:
    """Whether a module binds `name` itself (not through a star import)."""
    return name in s.classes or name in s.functions or name in s.imports or name in s.aliases \
        or name in s.assigned_calls or name in s.constants or name in s.loggers


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _read_and_parse(path: str) -> tuple[ast.Module, str] | None:
    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
        return parse_tree(text, filename=path), text
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _text_mark(text: str | None, names: bool) -> tuple[bool, frozenset[str] | None]:
    """Whether `text` calls `compile(`, and (when `names`) the names it calls, itself or through a
    name bound to them (`fn = helpers.scale`)."""
    if not text:
        return False, frozenset()
    called = frozenset((_CALLED_ASCII if text.isascii() else _CALLED).findall(text)).union(
        (b.rpartition(".")[2] for b in _BOUND.findall(text)),
        ("@" + d.rpartition(".")[2] for d in _DECORATOR.findall(text))) if names else None
    return bool(_COMPILE_TEXT.search(text)), called


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


__all__ = ["CompileTarget", "ProjectIndex", "Symbol", "LOGGER", "MODULE", "TENSOR", "VALUE"]
