"""Per-file summaries for the project index: what other files need to know about a module.

A summary is built from one `ast` tree (stdlib only, nothing imported or run) and holds plain,
picklable data: imports (with their level, for relative ones), classes with the spelling of
their bases, functions with what they return, whether they are `torch.compiler.disable`d,
whether they only compute on tensors, the calls they make; module constants; loggers; and
`torch.compile(...)` call sites. Names are kept as the file spells them ("nn.Module",
"logging.get_logger"); the project index resolves them across files.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from fullgraph.analysis.facts import name_pattern, names_like
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import children, class_bases, decorator_target, statements, walk
from fullgraph.analysis.per_node import per_node

TYPED_DICTS = frozenset(("typing.TypedDict", "typing_extensions.TypedDict"))
SCHEMA = 15  # bump when the summary layout changes (the disk cache is keyed by it)

# What a function returns, when its `return` values say so on their own.
TENSOR, VALUE, MODULE, LOGGER = "tensor", "value", "module", "logger"
LOGGER_FACTORY = re.compile(r"(?i)^(get|make|create|build|setup|init|new)_?\w*logger$|^getLogger$")
_DISABLE = ("compiler.disable", "_dynamo.disable", "_disable_dynamo")
_PURE_BUILTINS = frozenset(("len", "range", "min", "max", "abs", "int", "float", "isinstance", "tuple", "list",
                            "zip", "enumerate", "getattr", "hasattr", "sum", "all", "any"))
_COMPILE_CALL = re.compile(r"compile\s*\(")  # no leading \b: that makes the search 40x slower
_PATTERN_MODULE = re.compile(r"(?:^|[^\w.])(?:re|regex)\.$")  # `re.compile(`, `regex.compile(`
MODULE_CONTAINERS = frozenset(("ModuleList", "ModuleDict", "Sequential"))
COMPILING_NAMES = frozenset(("is_torchdynamo_compiling", "is_compiling", "is_dynamo_compiling"))


@dataclass(frozen=True)
class ImportRef:
    """What a local name stands for: `module` (absolute or relative by `level`), and `name`
    inside it (None for `import a.b as c`, which binds the module itself)."""

    module: str
    name: str | None = None
    level: int = 0


@dataclass(frozen=True)
class CallSite:
    """One call in a function body: the callee as spelled, where, and its arguments' shapes
    ("int", "str", "bool", "none", "float", "name:x", "call:f", "attr:a.b", "pattern:pre*suf" for a
    computed name, "other")."""

    callee: str
    line: int
    col: int
    caller: str
    args: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()


@dataclass
class FunctionSummary:
    """A module-level function or a method of a top-level class."""

    qualname: str
    line: int
    returns: tuple[str, ...] = ()  # per `return`: TENSOR / VALUE / "call:<spelling>" / "name:<spelling>" / ""
    disabled: bool = False
    pure: bool = False  # only tensor computation: no side effects, no calls outside torch and locals
    decorators: tuple[str, ...] = ()
    calls: tuple[CallSite, ...] = ()
    element_calls: tuple[tuple[str, int], ...] = ()  # (method, line) called on a module container's element


@dataclass
class ClassSummary:
    """A top-level class: base spellings, methods, and `self.<flag> = False` set only in `__init__`."""

    name: str
    line: int
    bases: tuple[str, ...] = ()
    methods: dict[str, FunctionSummary] = field(default_factory=dict)
    false_flags: frozenset[str] = frozenset()
    attrs: frozenset[str] = frozenset()  # `self.<attr> = ...` in its methods: attributes, not methods
    method_attrs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # `self.f = self.g if c else self.h`
    optional_keys: bool = False  # declares keys a TypedDict may lack (`total=False`, `NotRequired[...]`)
    strings: frozenset[str] = frozenset()  # class attributes bound only to string literals (`euler = "euler"`)


@dataclass
class CompileSite:
    """`torch.compile(target)` (spelled as `compile_spelling`) at line/col in function `caller`;
    `target` is the spelling of the class or function compiled ("Model" for
    `torch.compile(Model(...))` or for `m = Model(...); torch.compile(m)`)."""

    compile_spelling: str
    target: str
    line: int
    col: int
    end_line: int
    end_col: int
    fullgraph: bool = False  # `fullgraph=True`: any break is an error
    method: str = ""  # a method compiled on an instance (`torch.compile(model.sample)`), else the class's `forward`


@dataclass
class FileSummary:
    """Everything the project index keeps about one file."""

    imports: dict[str, ImportRef] = field(default_factory=dict)
    star_imports: tuple[ImportRef, ...] = ()
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    constants: dict[str, object] = field(default_factory=dict)  # NAME = literal
    aliases: dict[str, str] = field(default_factory=dict)  # name = other.name (re-exports, renames)
    assigned_calls: dict[str, str] = field(default_factory=dict)  # name = f(...): name -> "f"
    partials: dict[str, str] = field(default_factory=dict)  # name = functools.partial(f, k=v): name -> "f"
    loggers: frozenset[str] = frozenset()  # names bound to a getLogger/get_logger-style call
    compile_sites: tuple[CompileSite, ...] = ()
    all_names: tuple[str, ...] | None = None  # __all__ when a literal
    strings: frozenset[str] = frozenset()  # module names bound only to string literals (`MODE = "fast"`)


def summarize(tree: ast.Module, source: str = "") -> FileSummary:
    """The summary of one parsed file."""
    out = FileSummary()
    stars: list[ImportRef] = []
    loggers: set[str] = set()
    fallbacks = {id(s) for s in _handled(tree.body)}
    for stmt in _top_level(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for local, ref in import_refs(stmt):
                if local == "*":
                    stars.append(ref)
                else:
                    out.imports[local] = ref
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.functions[stmt.name] = _function(stmt, stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            out.classes[stmt.name] = _class(stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name) and not (id(stmt) in fallbacks and _bound(out, target.id)):
                    _module_assign(out, loggers, target.id, stmt.value)
    out.star_imports = tuple(stars)
    out.loggers = frozenset(loggers)
    out.strings = module_strings(tree)
    if not source or may_compile(source):
        out.compile_sites = tuple(_compile_sites(tree, out))
    return out


def may_compile(source: str) -> bool:
    """Whether a file's text may call `torch.compile`: a prefilter before looking for the calls in
    its tree (`compile(`, not as `re.compile(` or `regex.compile(`)."""
    return any(not _PATTERN_MODULE.search(source, max(0, m.start() - 7), m.start())
               for m in _COMPILE_CALL.finditer(source))


def import_refs(stmt: ast.Import | ast.ImportFrom) -> list[tuple[str, ImportRef]]:
    """(local name, what it refers to) for each name an import binds ("*" for a star import)."""
    if isinstance(stmt, ast.Import):
        return [(a.asname, ImportRef(a.name)) if a.asname else (a.name.split(".")[0], ImportRef(a.name.split(".")[0]))
                for a in stmt.names]
    module = stmt.module or ""
    return [("*", ImportRef(module, None, stmt.level)) if a.name == "*" else
            (a.asname or a.name, ImportRef(module, a.name, stmt.level)) for a in stmt.names]


def _top_level(body: list[ast.stmt]):
    """Module statements, including those under `if TYPE_CHECKING:` / `try:` at top level."""
    for stmt in body:
        if isinstance(stmt, (ast.If, ast.Try)):
            yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
            for handler in getattr(stmt, "handlers", ()):
                yield from _top_level(handler.body)
        else:
            yield stmt


def _handled(body: list[ast.stmt]):
    """The top-level statements of `except` handlers: a fallback (`except ImportError: einsum =
    torch.einsum`) that does not replace what the `try` body bound when its import works."""
    for stmt in body:
        if isinstance(stmt, ast.Try):
            yield from _handled(stmt.body)
            for handler in stmt.handlers:
                yield from _top_level(handler.body)
        elif isinstance(stmt, ast.If):
            yield from _handled(stmt.body)
            yield from _handled(stmt.orelse)


def _bound(out: FileSummary, name: str) -> bool:
    return any(name in d for d in (out.constants, out.aliases, out.assigned_calls))


def partial_of(value: ast.Call, imports: dict[str, ImportRef]) -> str | None:
    """The callable `functools.partial(f, k=v, ...)` wraps, when it binds keywords only (a call of
    it then passes its arguments to `f` in place)."""
    spelling = dotted(value.func)
    is_partial = spelling == "functools.partial" or (
        spelling == "partial" and imports.get("partial") == ImportRef("functools", "partial"))
    if not is_partial or len(value.args) != 1 or any(k.arg is None for k in value.keywords):
        return None
    return dotted(value.args[0])


def _module_assign(out: FileSummary, loggers: set[str], name: str, value: ast.expr) -> None:
    if name == "__all__" and isinstance(value, (ast.List, ast.Tuple)):
        out.all_names = tuple(e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    elif isinstance(value, ast.Constant):
        out.constants[name] = value.value
    elif isinstance(value, (ast.Name, ast.Attribute)):
        spelling = dotted(value)
        if spelling:
            out.aliases[name] = spelling
    elif isinstance(value, ast.Call):
        spelling = dotted(value.func)
        if spelling:
            out.assigned_calls[name] = spelling
            wrapped = partial_of(value, out.imports)
            if wrapped:
                out.partials[name] = wrapped
            if LOGGER_FACTORY.match(spelling.rpartition(".")[2]):
                loggers.add(name)


def _class(node: ast.ClassDef) -> ClassSummary:
    info = ClassSummary(node.name, node.lineno, tuple(b for b in (dotted(x) for x in class_bases(node)) if b))
    containers = module_containers(node)
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            info.methods[stmt.name] = _function(stmt, f"{node.name}.{stmt.name}", containers)
    set_false, other, by_name = _self_assignments(node)
    info.false_flags = _false_flags(set_false, other, by_name)
    info.attrs = frozenset(set_false | other)
    info.method_attrs = method_attrs(node)
    info.optional_keys = optional_keys(node)
    info.strings = class_strings(node)
    return info


def module_strings(tree: ast.Module) -> frozenset[str]:
    """The module-level names of a file bound only to string literals (under `if`/`try` too)."""
    return string_names(list(_top_level(tree.body)))


@per_node
def class_strings(node: ast.ClassDef) -> frozenset[str]:
    """The attributes a class body binds only to string literals (`euler = "euler"`)."""
    return string_names(node.body)


def string_names(body: list[ast.stmt]) -> frozenset[str]:
    """The names a block (a module's or a class body's top level) binds, and only ever to string
    literals: `MODE = "fast"`, `euler: str = "euler"` (never tensors, so `x == MODE` is a Python test)."""
    strings, other = set(), set()
    for stmt in body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
            if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
        value = getattr(stmt, "value", None)
        for target in targets:
            if isinstance(target, ast.Name):
                literal = not isinstance(stmt, ast.AugAssign) and isinstance(value, ast.Constant) \
                    and isinstance(value.value, str)
                (strings if literal else other).add(target.id)
    return frozenset(strings - other)


def bound_methods(value: ast.expr) -> tuple[str, ...]:
    """The methods of `self` an assigned value is: `self.g`, or either side of `self.g if c else self.h`."""
    if isinstance(value, ast.IfExp):
        body, orelse = bound_methods(value.body), bound_methods(value.orelse)
        return body + orelse if body and orelse else ()
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        return (value.attr,)
    return ()


@per_node
def method_attrs(node: ast.ClassDef) -> dict[str, tuple[str, ...]]:
    """`self.<attr>` that `__init__` sets to a method of `self` (`self.loss_method = self.mat_based_loss
    if mat_based else self.pair_based_loss`): calling the attribute calls those methods."""
    init = next((m for m in node.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
    out: dict[str, tuple[str, ...]] = {}
    for stmt in statements(init) if init is not None else ():
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute) \
                and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == "self":
            names = bound_methods(stmt.value)
            if names:
                out[stmt.targets[0].attr] = names
    return out


def optional_keys(node: ast.ClassDef) -> bool:
    """Whether a class body declares keys a TypedDict may lack: `total=False`, or a field
    annotated `NotRequired[...]`."""
    if any(k.arg == "total" and isinstance(k.value, ast.Constant) and k.value.value is False for k in node.keywords):
        return True
    return any(isinstance(stmt, ast.AnnAssign) and isinstance(stmt.annotation, ast.Subscript)
               and (dotted(stmt.annotation.value) or "").rpartition(".")[2] == "NotRequired" for stmt in node.body)


def typed_dict_of(optional: bool, bases) -> tuple[bool, bool]:
    """(a TypedDict, with optional keys) for a class whose own body declares optional keys or not,
    from the same pair of each of its bases (a `typing.TypedDict` base: `(True, False)`)."""
    typed = False
    for base_typed, base_optional in bases:
        typed, optional = typed or base_typed, optional or (base_typed and base_optional)
    return typed, optional


def false_flags(node: ast.ClassDef) -> frozenset[str]:
    """`self._x = False` in `__init__` with no other assignment to `self._x` anywhere in the class
    (statements only: an assignment expression or `setattr` escapes this). Public attributes are
    left out: other code sets them (Hugging Face's `gradient_checkpointing_enable()` sets
    `module.gradient_checkpointing = True` on every submodule from another file)."""
    return _false_flags(*_self_assignments(node))


def _false_flags(set_false: set[str], other: set[str], by_name: bool) -> frozenset[str]:
    if by_name:
        return frozenset()  # attributes set by name: nothing is sure
    return frozenset(a for a in set_false - other if a.startswith("_"))  # a public one can be set from outside


def _self_assignments(node: ast.ClassDef) -> tuple[set[str], set[str], bool]:
    """The `self.<attr>` a class's methods assign: those only set `False` in `__init__`, the
    others, and whether a `setattr(...)` statement sets some by name."""
    stores, by_name = self_stores(node)
    set_false: set[str] = set()
    other: set[str] = set()
    for attr, found in stores.items():
        for method, _, value in found:
            false = method == "__init__" and isinstance(value, ast.Constant) and value.value is False
            (set_false if false else other).add(attr)
    return set_false, other, by_name


@per_node
def self_stores(node: ast.ClassDef) -> tuple[dict[str, list[tuple[str, ast.stmt, ast.expr | None]]], bool]:
    """`self.<attr>` -> (method, statement, the value when it is the statement's whole value) for each
    statement of the class's methods that assigns it (nested blocks too), up to the first `setattr(...)`
    statement; and whether there is one (it sets attributes by name: nothing is sure)."""
    stores: dict[str, list[tuple[str, ast.stmt, ast.expr | None]]] = {}
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        todo = list(method.body)
        while todo:
            stmt = todo.pop()
            targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                [stmt.target] if isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)) else []
            for t in targets:
                for sub in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                        value = stmt.value if isinstance(stmt, ast.Assign) and sub is t else None
                        stores.setdefault(sub.attr, []).append((method.name, stmt, value))
            for name in ("body", "orelse", "finalbody"):
                todo.extend(getattr(stmt, name, ()))
            for handler in getattr(stmt, "handlers", ()):
                todo.extend(handler.body)
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and (dotted(stmt.value.func) or "").endswith("setattr"):
                return stores, True
    return stores, False


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str,
              containers: frozenset[str] = frozenset()) -> FunctionSummary:
    decorators = tuple(d for d in (dotted(decorator_target(x)) for x in node.decorator_list) if d)
    returns, made, inner, pure = [], [], set(), True
    bindings = _Bindings(node)
    for sub in _own_nodes(node):
        if isinstance(sub, ast.Name):  # the commonest node: only a binding counts
            if not isinstance(sub.ctx, ast.Load):
                bindings.bind(sub)
            continue
        bindings.see(sub)
        if isinstance(sub, ast.Return):
            returns.append(_return_shape(sub.value))
            if isinstance(sub.value, ast.Name) and sub.value.id in inner:
                returns[-1] = "def"
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner.add(sub.name)
        elif isinstance(sub, ast.Call):
            spelling = dotted(sub.func)
            called = spelling or _made_then_called(sub.func)
            if called:
                made.append((called, sub))
            pure = pure and _pure_call(sub, spelling)
        elif isinstance(sub, (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Raise, ast.Assert, ast.With,
                              ast.AsyncWith, ast.Try, ast.Delete)):
            pure = False
        elif isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            pure = pure and all(isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in targets)
    bound = bindings.functions()
    calls = [CallSite(callee, sub.lineno, sub.col_offset, qualname, tuple(_arg_shape(a) for a in sub.args),
                      tuple((k.arg, _arg_shape(k.value)) for k in sub.keywords if k.arg))
             for called, sub in made for callee in bound.get(called, (called,))]
    disabled = any(d.endswith(_DISABLE) for d in decorators)
    return FunctionSummary(qualname, node.lineno, tuple(returns), disabled, pure, decorators,
                           tuple(calls), element_calls(node, containers) if containers else ())


def module_containers(node: ast.ClassDef) -> frozenset[str]:
    """The `self.<attr>` a class's methods set to a module container (`nn.ModuleList(...)`,
    `nn.ModuleDict(...)`, `nn.Sequential(...)`): their elements are modules."""
    return frozenset(
        stmt.targets[0].attr for method in node.body if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
        for stmt in statements(method)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _self_attribute(stmt.targets[0])
        and isinstance(stmt.value, ast.Call) and (dotted(stmt.value.func) or "").rpartition(".")[2] in MODULE_CONTAINERS)


def element_calls(node: ast.FunctionDef | ast.AsyncFunctionDef,
                  containers: frozenset[str]) -> tuple[tuple[str, int], ...]:
    """The methods (with the line of the first such call) a function calls on an element of a module container of `self` (`containers`):
    `self.flows[i].inverse(z)`, `flow.inverse(z)` in `for flow in reversed(self.flows):`, `layer.f(x)`
    after `layer = self.layers[i]` (the element's class is whatever the constructor was given)."""
    elements: set[str] = set()
    calls: list[ast.Call] = []
    for sub in _own_nodes(node):
        if isinstance(sub, (ast.For, ast.AsyncFor)):
            elements.update(_loop_elements(sub.target, sub.iter, containers))
        elif isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name) \
                and _element(sub.value, containers):
            elements.add(sub.targets[0].id)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            calls.append(sub)
    found: dict[str, int] = {}
    for c in calls:
        if _element(c.func.value, containers) or isinstance(c.func.value, ast.Name) and c.func.value.id in elements:
            found.setdefault(c.func.attr, c.lineno)
    return tuple(found.items())


def _self_attribute(node: ast.expr) -> bool:
    """`self.<attr>`."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _element(node: ast.expr, containers: frozenset[str]) -> bool:
    """`self.<container>[i]`, `self.<container>[i][j]`."""
    if not isinstance(node, ast.Subscript):
        return False
    while isinstance(node, ast.Subscript):
        node = node.value
    return _self_attribute(node) and node.attr in containers


def _loop_elements(target: ast.expr, iterated: ast.expr, containers: frozenset[str]) -> list[str]:
    """The loop variables that hold a module container's elements: `for f in self.flows`,
    `reversed(self.flows)`, `for i, f in enumerate(self.flows)`."""
    indexed = False
    while isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and len(iterated.args) == 1 \
            and iterated.func.id in ("reversed", "enumerate"):
        indexed = indexed or iterated.func.id == "enumerate"
        iterated = iterated.args[0]
    if not (_self_attribute(iterated) and iterated.attr in containers):
        return []
    if indexed:
        target = target.elts[1] if isinstance(target, ast.Tuple) and len(target.elts) == 2 else None
    return [target.id] if isinstance(target, ast.Name) else []


def true_when_compiling(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function returns True while Dynamo traces: it returns a compile check such as
    `torch.compiler.is_compiling()`, or an `or` holding one (directly or through a local name)."""
    assigned: dict[str, ast.expr] = {}
    returned: list[ast.expr] = []
    for sub in _own_nodes(node):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
            assigned.setdefault(sub.targets[0].id, sub.value)
        elif isinstance(sub, ast.Return) and sub.value is not None:
            returned.append(sub.value)

    def check(expr: ast.expr, depth: int = 0) -> bool:
        if isinstance(expr, ast.Call):
            return _compile_check_call(expr)
        if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):
            return any(check(v, depth) for v in expr.values)
        if isinstance(expr, ast.Name) and expr.id in assigned and depth < 4:
            return check(assigned[expr.id], depth + 1)
        return False
    return any(check(r) for r in returned)


def false_when_compiling(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function returns False while Dynamo traces: before any other `return`, an `if`
    whose test is (an `or` holding) a compile check returns False (`if is_compiling(): return False`)."""
    for stmt in node.body:
        if not isinstance(stmt, ast.If):
            if any(isinstance(sub, ast.Return) for sub in walk(stmt)):
                return False
            continue
        tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.Or) else [stmt.test]
        returns_false = len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Return) \
            and isinstance(stmt.body[0].value, ast.Constant) and stmt.body[0].value.value is False
        if returns_false and any(_compile_check_call(t) for t in tests):
            return True
        if not returns_false and any(isinstance(sub, ast.Return) for sub in walk(stmt)):
            return False
    return False


def _compile_check_call(expr: ast.expr) -> bool:
    """`is_compiling()` in any spelling (`torch.compiler.is_compiling()`, `is_torchdynamo_compiling()`)."""
    return isinstance(expr, ast.Call) and (dotted(expr.func) or "").rpartition(".")[2] in COMPILING_NAMES


def _made_then_called(func: ast.expr) -> str | None:
    """`Grid.snap` for `Grid(...).snap(...)`: a method called on an instance made there."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        made = dotted(func.value.func)
        return f"{made}.{func.attr}" if made else None
    return None


class _Bindings:
    """The names a function body binds, seen node by node (`bind`, `see`); `functions()`: those that every
    binding sets to a named value (`fn = helpers.scale`, another by branch): name -> those
    spellings, what a call of the name calls. Not a name bound otherwise too, nor one whose spelling
    starts with a local name (a parameter's attribute)."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        args = node.args
        self.local = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a}
        self.spellings: dict[str, list[str]] = {}
        self.plain: set[int] = set()  # the target nodes of those bindings

    def bind(self, name: ast.Name) -> None:
        """`name` stored or deleted."""
        if id(name) not in self.plain:
            self.local.add(name.id)

    def see(self, sub: ast.AST) -> None:
        """Any other node."""
        if isinstance(sub, ast.Assign):
            target = sub.targets[0]
            spelling = dotted(sub.value) if len(sub.targets) == 1 and isinstance(target, ast.Name) else None
            if spelling:
                self.spellings.setdefault(target.id, []).append(spelling)
                self.plain.add(id(target))
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.local.add(sub.name)
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            self.local.update(sub.names)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            self.local.update((a.asname or a.name).split(".")[0] for a in sub.names)

    def functions(self) -> dict[str, tuple[str, ...]]:
        bound = self.local | set(self.spellings)
        return {name: tuple(dict.fromkeys(found)) for name, found in self.spellings.items()
                if name not in self.local and not any(f.split(".")[0] in bound for f in found)}


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """Every node of a function body, nested defs' headers but not their bodies (lambdas skipped)."""
    found: list[ast.AST] = []
    todo = list(reversed(node.body))
    while todo:
        sub = todo.pop()
        found.append(sub)
        if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            kids = children(sub)
            kids.reverse()
            todo.extend(kids)
    return found


def _pure_call(call: ast.Call, spelling: str | None) -> bool:
    """A call that only computes: torch/functional ops, methods of local values, a few builtins."""
    if spelling is None:
        return isinstance(call.func, ast.Attribute)  # a method of a computed value: `(a + b).sum()`
    head = spelling.split(".")[0]
    if spelling in _PURE_BUILTINS or head in ("torch", "F", "math"):
        return not spelling.startswith(("torch.manual_seed", "torch.save", "torch.load", "torch._dynamo"))
    return "." in spelling and head != "self" and head not in ("print", "logging", "logger", "warnings")


def _return_shape(value: ast.expr | None) -> str:
    if value is None or isinstance(value, ast.Constant):
        return VALUE
    if isinstance(value, ast.Call):
        spelling = dotted(value.func)
        return f"call:{spelling}" if spelling else ""
    if isinstance(value, (ast.Name, ast.Attribute)):
        spelling = dotted(value)
        return f"name:{spelling}" if spelling else ""
    if isinstance(value, ast.JoinedStr):
        return VALUE
    return ""


def computed_methods(call: CallSite, methods) -> tuple[str, ...]:
    """The names of `methods` a `getattr(self, <computed name>)` call may fetch (a method picked by
    name: `getattr(self, "{}_reduction".format(kind))`); empty for any other call."""
    if call.callee != "getattr" or call.args[:1] != ("name:self",) or len(call.args) < 2 \
            or not call.args[1].startswith("pattern:"):
        return ()
    prefix, _, suffix = call.args[1][len("pattern:"):].partition("*")
    return tuple(names_like(methods, (prefix, suffix)))


def _arg_shape(node: ast.expr) -> str:
    pattern = name_pattern(node)
    if pattern is not None:  # a computed name: "pattern:<prefix>*<suffix>"
        return f"pattern:{pattern[0]}*{pattern[1]}"
    if isinstance(node, ast.Constant):
        value = node.value
        return "none" if value is None else type(value).__name__ if isinstance(value, (bool, int, float, str)) \
            else "other"
    if isinstance(node, ast.Name):
        return f"name:{node.id}"
    if isinstance(node, ast.Call):
        return f"call:{dotted(node.func) or ''}"
    if isinstance(node, ast.Attribute):
        return f"attr:{dotted(node) or ''}"
    return "other"


def asks_fullgraph(call: ast.expr) -> bool:
    """`torch.compile(..., fullgraph=True)` (a call or a decorator): Dynamo raises at any break."""
    return isinstance(call, ast.Call) and any(k.arg == "fullgraph" and isinstance(k.value, ast.Constant)
                                              and k.value.value is True for k in call.keywords)


def class_of_calls(tree: ast.Module, calls: list[ast.Call]) -> dict[int, str]:
    """id(call) -> the top-level class whose body holds it, for `calls` (walked only when there are some)."""
    if not calls:
        return {}
    wanted = {id(c) for c in calls}
    return {id(sub): stmt.name for stmt in tree.body if isinstance(stmt, ast.ClassDef)
            for sub in walk(stmt) if id(sub) in wanted}


def _compile_sites(tree: ast.Module, out: FileSummary) -> list[CompileSite]:
    """`torch.compile(x)` calls anywhere in the file, with `x` as the class or function it compiles
    (and the method, for `torch.compile(model.sample)` or `self.step = torch.compile(self.step)`)."""
    built: dict[str, str] = dict(out.assigned_calls)
    classes = {stmt.name for stmt in tree.body if isinstance(stmt, ast.ClassDef)}
    sites = []
    for node in walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            spelling = dotted(node.value.func)
            for t in node.targets:
                if spelling and isinstance(t, ast.Name):
                    built[t.id] = spelling
        elif isinstance(node, ast.Call) and node.args:
            spelling = dotted(node.func)
            if not spelling or spelling.rpartition(".")[2] != "compile" or spelling.split(".")[0] in ("re", "regex"):
                continue
            arg, method = node.args[0], ""
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, (ast.Name, ast.Call)):
                arg, method = arg.value, arg.attr
                if isinstance(arg, ast.Name) and arg.id == "self":
                    arg = ast.Name(class_of_calls(tree, [node]).get(id(node), ""))  # a class compiling its own method
            if isinstance(arg, ast.Call):
                target = dotted(arg.func)
            elif isinstance(arg, ast.Name) and method and arg.id not in built and arg.id not in classes:
                target, method = f"{arg.id}.{method}", ""  # `torch.compile(helpers.step)`: a function
            elif isinstance(arg, ast.Name):
                target = built.get(arg.id, arg.id)
            else:
                target = None
            if target:
                sites.append(CompileSite(spelling, target, node.lineno, node.col_offset,
                                         node.end_lineno or node.lineno, node.end_col_offset or 0, asks_fullgraph(node),
                                         method))
    return sites
