"""Compiled regions: the module index (classes, functions, aliases) and the entry points.

Built from the top-level statements and class bodies only; the whole tree is walked once
more only when the text has a ``compile(`` call (to find ``torch.compile(x)`` targets).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from fullgraph.analysis.bindings import module_names, parameter_names, stored_names
from fullgraph.analysis.callers import bind_arguments, with_defaults
from fullgraph.analysis.decorator_wrappers import decorator_wrappers as wrapper_defs
from fullgraph.analysis.facts import (
    CONFIG_NAMES,
    ENUM_BASES,
    SPARSE,
    SPARSE_CONSTRUCTORS,
    SPARSE_CONVERSIONS,
    SPARSE_KEEPING,
    TENSOR,
    VALUE,
    Choice,
    Constructed,
    Function,
    Instance,
    Module,
    annotation_fact,
    declared_fact,
    external_call,
    is_tensor_qualname,
    name_pattern,
    names_like,
)
from fullgraph.analysis.imports import Aliases, dotted, imports_torch
from fullgraph.analysis.narrowing import none_test
from fullgraph.analysis.project import Symbol
from fullgraph.analysis.nodes import children, class_bases, decorator_target, self_attribute, statements, super_call, walk
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.summary import (
    class_of_calls,
    LOGGER,
    LOGGER_FACTORY,
    TYPED_DICTS,
    ImportRef,
    asks_fullgraph,
    class_strings,
    false_flags,
    import_refs,
    may_compile,
    module_strings,
    method_attrs,
    optional_keys,
    partial_of,
    typed_dict_of,
)
from fullgraph.analysis.torchscript import scripting_call
from fullgraph.analysis.typed_factory import given_parameter

if TYPE_CHECKING:
    from fullgraph.analysis.project import ProjectIndex

COMPILE = ("torch.compile",)
DISABLE = ("torch.compiler.disable", "torch._dynamo.disable", "torch._disable_dynamo")
CONSTANT = ("torch._dynamo.assume_constant_result", "torch.compiler.assume_constant_result")
CONSTANT_MARK = "_dynamo_marked_constant"  # what `assume_constant_result` sets on the function
# What runs when a compiled module is called: its `forward`, and its own `__call__` when it overrides nn.Module's.
MODULE_ENTRIES = ("forward", "__call__")
AUTOGRAD_FUNCTIONS = ("torch.autograd.Function", "torch.autograd.function.Function")
PROPERTIES = ("property", "functools.cached_property", "cached_property")  # decorators whose getter a read runs
MAX_BASES = 8  # in-file base-class chains followed this deep
MAX_BASE_FILES = 8  # base classes in other files followed this deep for an attribute's class
MODULE_CONTAINERS = ("torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.ModuleDict")
MAX_INIT_HELPERS = 8  # methods `__init__` calls on `self` (`self._build()`) read for the attributes they store
RETURNS_SELF = frozenset(("to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "eval",
                          "requires_grad_", "to_empty", "share_memory"))  # nn.Module methods that return the module
MAX_CHOICES = 32  # classes of a registry followed; a larger one is not (each would be walked)


@dataclass
class FunctionInfo:
    """A module-level function or a method of a top-level class."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    cls: ClassInfo | None = None
    disabled: bool = False  # decorated with torch.compiler.disable
    module: ModuleIndex | None = field(default=None, repr=False)  # the file that defines it
    compile_check: bool | str | None = None  # returns True/False while Dynamo traces, or "unknown" (on first use)
    assumed: bool = False  # an entry only because assume_compiled = "all" says every function is
    dispatched: bool = False  # an entry because an inherited `forward` calls it on `self`: it runs inside that frame
    element_callers: tuple[tuple[str, str, int], ...] = ()  # (file, qualname, line) calling it on a container element
    compiled_callers: tuple[tuple[str, str, int], ...] = ()  # (file, qualname, line): compiled code elsewhere calling it
    callers_elsewhere: tuple[str, ...] = ()  # other files whose calls gave its parameters their facts
    enclosing: ast.FunctionDef | ast.AsyncFunctionDef | None = field(default=None, repr=False)  # for a nested def
    constant: bool = False  # Dynamo calls it while tracing and takes its result as a constant (not traced)
    fullgraph: bool = False  # compiled with `fullgraph=True` somewhere: any break raises
    inherited_from: str = ""  # an in-file base class's method, walked as the subclass `cls` runs it
    exported: tuple[str, int, str] | None = None  # (`__init__.py`, line, name) exporting it: users call it compiled

    @property
    def presumed(self) -> bool:
        """An entry only because the setting presumes it compiled: every function under "all", what
        the package exports under "api"."""
        return self.assumed or self.exported is not None

    @property
    def inlined(self) -> bool:
        """An entry Dynamo reaches from a caller's frame (presumed, dispatched, or called from compiled
        code in another file), not a frame of its own."""
        return self.presumed or self.dispatched or bool(self.compiled_callers)


@dataclass
class ClassInfo:
    """A top-level class: its methods, bases and what `__init__` assigns to `self`."""

    node: ast.ClassDef
    name: str
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    attrs: dict[str, object] = field(default_factory=dict)  # self.<attr> -> fact
    attr_classes: dict[str, str] = field(default_factory=dict)  # self.<attr> -> spelling of the class it holds
    attr_made: dict[str, ast.Call | None] = field(default_factory=dict)  # self.<attr> -> the one call `__init__` stores there
    attr_defaults: dict[str, str] = field(default_factory=dict)  # self.<attr> -> `m` of the `self.m()` whose object it holds by default
    attr_params: dict[str, str] = field(default_factory=dict)  # self.<attr> -> the `__init__` parameter it calls (`act_layer()`)
    attr_factories: dict[str, ast.Call] = field(default_factory=dict)  # self.<attr> -> the call given that parameter (`resolver.make(p)`)
    element_methods: dict[str, str] = field(default_factory=dict)  # self.<attr> -> `m` of `self.<attr>.append(self.m(...))`
    base_names: list[str] = field(default_factory=list)  # in-file bases
    base_qualnames: list[str] = field(default_factory=list)  # imported bases
    base_spellings: list[str] = field(default_factory=list)  # imported bases as written ("nn.Module")
    false_flags: frozenset[str] | None = None  # computed on first use
    named_calls: dict[str, list[ast.Call]] = field(default_factory=dict)  # `self.m("x", v)` in `__init__`, by "x"


class ModuleIndex:
    """Everything about a file the per-function walk needs to look up."""

    def __init__(self, tree: ast.Module, source: str, path: str = "<string>",
                 project: ProjectIndex | None = None) -> None:
        self.path = path
        self.project = project
        self.imports: dict[str, ImportRef] = {}  # local name -> import, relative ones included
        self.assigned_calls: dict[str, str] = {}  # module variable -> spelling of the call that made it
        self.partials: dict[str, str] = {}  # module variable -> what the `functools.partial` it holds wraps
        self.registries: dict[str, tuple[str, ...]] = {}  # `NAME = {"a": A, "b": B}` -> the spellings of its values
        self.declared: dict[str, ast.expr] = {}  # module variable -> its annotation (`NAME: Cls[T] = ...`)
        self.type_aliases: dict[str, ast.expr] = {}  # `Hint: TypeAlias = ...`, `Hint = Union[...]` -> its definition
        self._logger_memo: dict[str, bool] = {}
        self._elsewhere: dict[int, tuple[FunctionInfo, list]] | None = None
        self._imported: dict[str, FunctionInfo | None] = {}
        self._inherited: dict[tuple[str, str], FunctionInfo | None] = {}
        self._held: dict[tuple[str, str, str], FunctionInfo | None] = {}  # (class, attribute, method)
        self._factories: dict[int, str | None] = {}  # id of a call `__init__` stores -> `given_parameter`
        self._constructed: dict[tuple[int, Instance], Instance] = {}  # (id of a class call, its object) -> `constructed`
        self._imported_classes: dict[str, tuple | None] = {}  # imported class spelling -> (its class, a module?)
        self._instance_methods: dict[tuple[Instance, str], FunctionInfo | None] = {}
        self._attr_homes: dict[tuple[str, str], tuple[ModuleIndex, ClassInfo] | None] = {}
        self._set_attrs: dict[tuple[str, str], object] = {}  # (class, attribute) -> fact a setter call gave it
        self._wrappers: dict[int, tuple[FunctionInfo, list[FunctionInfo]]] = {}  # id(decorator) -> its wrappers
        self._locals: dict[tuple[int, str], FunctionInfo | None] = {}
        self.aliases = Aliases()
        self.functions: dict[str, FunctionInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.loggers: set[str] = set()
        self.instances: dict[str, str] = {}  # module variable -> in-file class it was built from
        self._module_memo: dict[str, bool] = {}
        self._getters: dict[tuple[str, str], FunctionInfo | None] = {}
        self.return_memo: dict[tuple, object] = {}  # return facts (walker.return_fact)
        self.kept_returns = None  # return facts kept across edits (the editor's `WalkCache`), or None
        self.strings = module_strings(tree)
        self.names = module_names(tree.body)  # every name the file binds at module level
        self._own_region: frozenset[str] | None = None
        self._subclass_forwards: list[FunctionInfo] | None = None
        self._run_as: dict[tuple[str, int], FunctionInfo] = {}  # (class, id(def)) -> a base's method as it runs it
        self.torch_imported = imports_torch(tree.body)  # a module that does not may be meant to run without torch
        self._string_memo: dict[str, bool] = {}
        for stmt in tree.body:
            self._top_level(stmt)
        for info in [*self.functions.values(), *(m for c in self.classes.values() for m in c.methods.values())]:
            info.constant = self._constant(info.node)
        for info in self.classes.values():
            self._class_attrs(info)
        self.scripts = scripting_call(tree, source, self.aliases.resolve)  # a `torch.jit.script(...)` call
        self.compiled_targets: list[FunctionInfo] = []
        self.library_targets: list[tuple[FunctionInfo, ast.Call]] = []  # library code this file compiles, and where
        self.library_objects: dict[int, Instance] = {}  # id of such a call -> the object it compiles, where that matters
        self.library_made: dict[int, ast.Call] = {}  # id of such a call -> the class call that made what it compiles
        if may_compile(source):
            self._compile_calls(tree)

    # -- indexing ---------------------------------------------------------------------

    def _top_level(self, stmt: ast.stmt) -> None:
        self._declare(stmt)
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.aliases.add_import(stmt)
            self.imports.update((local, ref) for local, ref in import_refs(stmt) if local != "*")
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[stmt.name] = FunctionInfo(stmt, stmt.name, None, self._disabled(stmt), self)
        elif isinstance(stmt, ast.ClassDef):
            self._add_class(stmt)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            self._module_assign(stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Dict):
            values = [dotted(v) if isinstance(v, (ast.Name, ast.Attribute)) else None for v in stmt.value.values]
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if values and all(values) and None not in stmt.value.keys:
                self.registries.update((t.id, tuple(dict.fromkeys(values))) for t in targets if isinstance(t, ast.Name))
        elif isinstance(stmt, (ast.If, ast.Try)):  # imports under `if TYPE_CHECKING` / try-except
            for child in children(stmt):
                if isinstance(child, ast.stmt):
                    self._top_level(child)
                elif isinstance(child, ast.ExceptHandler):
                    for inner in child.body:
                        self._top_level(inner)

    def _declare(self, stmt: ast.stmt) -> None:
        """A module-level annotated name, or a type alias."""
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if (dotted(stmt.annotation) or "").rpartition(".")[2] == "TypeAlias" and stmt.value is not None:
                self.type_aliases[stmt.target.id] = stmt.value
            else:
                self.declared[stmt.target.id] = stmt.annotation
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, (ast.Subscript, ast.BinOp)):
            self.type_aliases[stmt.targets[0].id] = stmt.value

    def _module_assign(self, stmt: ast.Assign) -> None:
        func = stmt.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        spelling = dotted(func)
        wrapped = partial_of(stmt.value, self.imports)
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                if LOGGER_FACTORY.match(name):
                    self.loggers.add(target.id)
                else:
                    self.instances[target.id] = name
                    if spelling:
                        self.assigned_calls[target.id] = spelling
                    if wrapped:
                        self.partials[target.id] = wrapped

    def _add_class(self, node: ast.ClassDef) -> None:
        info = ClassInfo(node, node.name)
        for base in class_bases(node):
            if isinstance(base, ast.Name) and base.id in self.classes:
                info.base_names.append(base.id)
            else:
                q = self.aliases.resolve(base) or (base.id if isinstance(base, ast.Name) else None)
                if q:
                    info.base_qualnames.append(q)
                spelling = dotted(base)
                if spelling:
                    info.base_spellings.append(spelling)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{node.name}.{stmt.name}"
                info.methods[stmt.name] = FunctionInfo(stmt, qual, info, self._disabled(stmt), self)
        self.classes[node.name] = info

    def _disabled(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        for dec in node.decorator_list:
            target = decorator_target(dec)
            if self.aliases.resolve(target) in DISABLE:
                return True
        return False

    def _constant(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a decorator marks the function's result a trace-time constant: torch's
        `assume_constant_result`, or a function of this file that sets the mark it sets
        (`fn._dynamo_marked_constant = True`, or through `setattr`)."""
        for dec in node.decorator_list:
            target = decorator_target(dec)
            if self.aliases.resolve(target) in CONSTANT:
                return True
            marker = self.functions.get(target.id) if isinstance(target, ast.Name) else None
            if marker is not None and _marks_constant(marker.node):
                return True
        return False

    def _class_attrs(self, info: ClassInfo) -> None:
        """What `__init__` assigns to `self.<attr>` (statements only, through nested blocks); a
        parameter it never rebinds has the fact its annotation declares. An attribute the class
        body annotates (a dataclass or NamedTuple field, `step: torch.Tensor`) has the fact its
        annotation declares, unless `__init__` stores it."""
        for stmt in info.node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                fact = annotation_fact(stmt.annotation, self.aliases.resolve)
                if fact is not None:
                    info.attrs[stmt.target.id] = fact
        init = info.methods.get("__init__")
        todo = list(reversed(init.node.body)) if init is not None else []
        local: dict[str, ast.expr] = {}  # `layers = [Block(...) for ...]` before `nn.ModuleList(layers)`
        annotated = {a.arg: a.annotation for a in (*init.node.args.args, *init.node.args.kwonlyargs)
                     if a.annotation is not None} if init is not None else {}
        declared = {a.arg: fact for a, default in with_defaults(init.node) if a.arg not in stored_names(init.node)
                    and (fact := declared_fact(a, default, self.aliases.resolve)) is not None} if init is not None else {}
        followed: set[int] = set()  # helper methods `__init__` calls on `self`, read once each
        helpers: set[int] = set()  # the statements of those helpers: their parameters are not `__init__`'s
        params = _own_parameters(init.node) if init is not None else frozenset()
        appended: dict[str, tuple[set, set]] = {}  # self.<container> -> the element facts and `self.m` appended
        while todo:
            stmt = todo.pop()
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == "self":
                        fact = declared[stmt.value.id] if isinstance(stmt.value, ast.Name) \
                            and stmt.value.id in declared else self.value_fact(stmt.value, local) \
                            or self._stored_function(stmt.value, init)
                        if fact is not None or not isinstance(info.attrs.get(target.attr), Function):
                            info.attrs[target.attr] = fact  # a branch storing something unknown may still run it
                        default = _default_part(stmt.value)
                        method = _default_method(default)
                        made = self._method_made(self.chain(info), method) if method is not None else None
                        param, factory = _called_parameter(default, params) if id(stmt) not in helpers else (None, None)
                        for found, record in ((param, info.attr_params), (factory, info.attr_factories)):
                            if found is not None:
                                record[target.attr] = found
                            else:
                                record.pop(target.attr, None)
                        spelling = dotted(_parameter_default_node(init.node, param)) if param is not None \
                            else _class_spelling(made or default, annotated)
                        if spelling:
                            info.attr_classes[target.attr] = spelling
                            if method is not None:
                                info.attr_defaults[target.attr] = method
                            else:
                                info.attr_defaults.pop(target.attr, None)
                        once = isinstance(stmt.value, ast.Call) and target.attr not in info.attr_made
                        info.attr_made[target.attr] = stmt.value if once else None  # two stores: no one call
                    elif isinstance(target, ast.Name):
                        local[target.id] = stmt.value
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                if self._appended(info, call, local, appended):
                    continue
                named = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) \
                    and isinstance(call.args[0].value, str) else None
                helper = self._init_helper(info, call, followed) if named is None else None
                if helper is not None:  # `self._build(lr_schedule)`: what it stores, as if `__init__` did
                    followed.add(id(helper.node))
                    helpers.update(id(sub) for sub in statements(helper.node))
                    todo.extend(reversed(helper.node.body))
                if named is None or not self_attribute(call.func):
                    continue
                if call.func.attr in ("register_buffer", "register_parameter"):
                    value = call.args[1] if len(call.args) > 1 else None
                    info.attrs[named] = SPARSE if value is not None and self.value_fact(value, local) == SPARSE else TENSOR
                else:  # maybe a method that sets the named attribute (`self.add_state("total", tensor(0))`)
                    info.named_calls.setdefault(named, []).append(call)
            else:
                for name in ("finalbody", "handlers", "orelse", "body"):
                    todo.extend(reversed(getattr(stmt, name, ())))

    def _appended(self, info: ClassInfo, call: ast.Call, local: dict[str, ast.expr],
                  appended: dict[str, tuple[set, set]]) -> bool:
        """Read `self.<c>.append(Block(...))` of `__init__` on a module container `__init__` made
        (`self.convs = ModuleList()`): the element class it holds when every append adds one of the
        same class, or the method `m` of `self.c.append(self.m(...))` makes (which a subclass may
        override: torch-geometric's `BasicGNN` appending `self.init_conv(...)`, `GCN` overriding it).
        False for any other call."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "append" and len(call.args) == 1
                and not call.keywords and self_attribute(func.value)):
            return False
        name = func.value.attr
        held = info.attrs.get(name)
        if not (isinstance(held, Module) and held.cls in MODULE_CONTAINERS):
            return False
        value = call.args[0]
        method = value.func.attr if isinstance(value, ast.Call) and self_attribute(value.func) else None
        made = self._method_made(self.chain(info), method) if method is not None else value
        elements, methods = appended.setdefault(name, ({held.element} if held.element is not None else set(), set()))
        elements.add(self.value_fact(made, local) if made is not None else None)
        methods.add(method)
        one = next(iter(elements)) if len(elements) == 1 else None
        info.attrs[name] = Module(held.cls, one if isinstance(one, Module) else None, path=held.path)
        if len(methods) == 1 and method is not None:
            info.element_methods[name] = method
        else:
            info.element_methods.pop(name, None)
        return True

    def _init_helper(self, info: ClassInfo, call: ast.Call, followed: set[int]) -> FunctionInfo | None:
        """The method of the class (through in-file bases) a statement `self.<m>(...)` of `__init__`
        calls, not read yet (`MAX_INIT_HELPERS` at most): the attributes it stores are the object's."""
        if not self_attribute(call.func) or len(followed) >= MAX_INIT_HELPERS or call.func.attr == "__init__":
            return None
        method = self.method(info.name, call.func.attr)
        return method if method is not None and id(method.node) not in followed else None

    def _stored_function(self, value: ast.expr, init: FunctionInfo) -> Function | None:
        """The function `__init__` stores by its global name (`self.search_fn = native_search`), which
        calling the attribute then runs; None for a name `__init__` binds itself."""
        if not isinstance(value, ast.Name) or value.id in stored_names(init.node) \
                or value.id in parameter_names(init.node):
            return None
        target = self.functions.get(value.id)
        return Function((target,)) if target is not None else None

    @staticmethod
    def _method_made(classes, name: str) -> ast.Call | None:
        """The call the method `name` of the first of ``classes`` defining it returns (its one `return`):
        what a default made by `self.get_default_distance()` is (`LpDistance()`)."""
        method = next((c.methods[name] for c in classes if name in c.methods), None)
        returns = [r for r in walk(method.node) if isinstance(r, ast.Return)] if method is not None else []
        return returns[0].value if len(returns) == 1 and isinstance(returns[0].value, ast.Call) else None

    def _overriding_class(self, classes: list[ClassInfo], method: str | None) -> str | None:
        """The spelling of the class the override of `method` in the first of ``classes`` (a
        subclass's own `get_default_distance()`) makes, when one of them defines it."""
        made = self._method_made(classes, method) if method is not None else None
        return _class_spelling(made, {}) if made is not None else None

    def _home_override(self, cls: ClassInfo, home: tuple[ModuleIndex, ClassInfo], name: str) -> str | None:
        """:meth:`_overriding_class` of the default the base `home` (another file's) stores in `self.<name>`,
        among `cls` and its bases in this file."""
        return self._overriding_class(list(self.chain(cls)), home[0].default_method(home[1], name))

    def value_fact(self, value: ast.expr, local: dict[str, ast.expr] | None = None):
        """The fact of a value assigned to `self.x` in `__init__` (`local`: what its local names hold)."""
        if isinstance(value, ast.Constant) or _constant_literal(value):
            return VALUE  # `self.pairs = ((0, 1), (1, 2))`
        if isinstance(value, ast.Name) and local and value.id in local:  # `n = config.n` then `self.n = n`
            rest = {k: v for k, v in local.items() if k != value.id}
            return self.value_fact(local[value.id], rest)
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id in CONFIG_NAMES:
            return VALUE  # a setting read from the config
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Name) and local and isinstance(local.get(func.id), (ast.Name, ast.Attribute)):
            func = local[func.id]  # `codebook_class = Codebook`, then `self.codebook = codebook_class(...)`
        if isinstance(func, ast.Attribute) and (func.attr in SPARSE_CONVERSIONS
                                                or func.attr in SPARSE_KEEPING and self.value_fact(func.value, local) == SPARSE):
            return SPARSE  # `adj.to_sparse()`, `torch.sparse_coo_tensor(...).coalesce()`
        if isinstance(func, ast.Name) and func.id in self.classes:
            return Module(func.id) if self.is_module_class(func.id) else self.instance_of(func.id)
        q = self.aliases.resolve(func)
        if q is None:
            return None
        if q in MODULE_CONTAINERS:
            return Module(q, self._element(value, local or {}))
        if q in SPARSE_CONSTRUCTORS:
            return SPARSE
        if is_tensor_qualname(q):  # `torch.nn.Parameter` too
            return TENSOR
        head, _, last = q.rpartition(".")
        if head.startswith("torch.nn") and last[:1].isupper():
            return Module(q)
        if head == "torch":
            return VALUE  # `torch.equal(...)`, `torch.device(...)`: no tensor
        spelling = dotted(func)
        return self.imported_module(spelling) if spelling and not head.startswith("torch.") else None

    def module_method(self, fact: Module, name: str) -> FunctionInfo | None:
        """Method `name` of a module's class: one of this file's, or one of another file `fact` names."""
        if fact.local_to(self.classes):
            return self.method(fact.cls, name)
        return self.instance_method(Instance(fact.path, fact.cls), name) if fact.path is not None else None

    def imported_module(self, spelling: str) -> Module | None:
        """The module made by calling `spelling`, an imported class the project index knows is an
        nn.Module (`Module` with its file, so code of any file resolves it alike)."""
        found = self._imported_class(spelling)
        return Module(found[0].cls, path=found[0].path) if found is not None and found[1] is True else None

    def _element(self, call: ast.Call, local: dict[str, ast.expr]) -> Module | None:
        """The module class held by `nn.ModuleList([Block(...) for ...])` and friends."""
        items = call.args[0] if call.args else None
        if isinstance(items, ast.Name) and items.id in local:
            items = local[items.id]
        if isinstance(items, (ast.ListComp, ast.GeneratorExp)):
            items = items.elt
        elif isinstance(items, (ast.List, ast.Tuple)) and items.elts:
            items = items.elts[0]
        elif len(call.args) > 1:
            items = call.args[0]
        fact = self.value_fact(items) if isinstance(items, ast.expr) else None
        return fact if isinstance(fact, Module) else None

    def _compile_calls(self, tree: ast.Module) -> None:
        """Targets of `torch.compile(x)` anywhere in the file."""
        assigned: dict[str, str] = dict(self.instances)
        made: dict[str, ast.Call | None] = {}  # name -> the one class call assigned to it
        calls = []
        for node in walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and (spelling := dotted(node.value.func)):  # `Model(...)`, `nf.flows.Spline(...)`
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned[target.id] = spelling
                        made[target.id] = node.value if target.id not in made else None
            elif isinstance(node, ast.Call) and node.args and self.aliases.resolve(node.func) in COMPILE:
                calls.append(node)
        owner = class_of_calls(tree, [c for c in calls if self_attribute(c.args[0])])
        for call in calls:
            info = self._target(call.args[0], {**assigned, "self": owner[id(call)]} if id(call) in owner else assigned)
            if info is not None:
                info.fullgraph |= asks_fullgraph(call)
                self.compiled_targets.append(info)
                continue
            library, obj = self._library_target(call.args[0], assigned)
            if library is None:
                continue
            self.library_targets.append((library, call))
            arg = _bound_object(call.args[0], assigned) or call.args[0]
            construction = arg if isinstance(arg, ast.Call) else made.get(arg.id) if isinstance(arg, ast.Name) else None
            if obj is not None and construction is not None:
                self.library_made[id(call)] = construction
                obj = self.constructed(obj, construction)
            if isinstance(obj, Constructed) or obj is not None and (obj.path, obj.cls) != (library.module.path, library.cls.name):
                self.library_objects[id(call)] = obj  # `self` is the object: it was given classes, or `forward` is a base's

    def constructed(self, obj: Instance, call: ast.Call) -> Instance:
        """`obj` as made by `call`, a class call of this file: `Constructed`, with the classes it
        passes its `__init__` (`Block(act_layer=Mine)`), unless it passes literals only."""
        key = (id(call), obj)
        if key not in self._constructed:
            self._constructed[key] = self._construct(obj, call)
        return self._constructed[key]

    def _construct(self, obj: Instance, call: ast.Call) -> Instance:
        init = self.class_method(dotted(call.func) or "", "__init__")
        opaque = any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
        if init is None or not opaque and all(isinstance(v, ast.Constant) for v in (*call.args, *(k.value for k in call.keywords))):
            return obj  # literals give no class: the object is as plain as its class's
        passed = bind_arguments(init.node, True, call, lambda arg: arg, lambda default: None, facts=False)
        return Constructed(obj.path, obj.cls, tuple((param, self.object_of(spelling) if (spelling := dotted(value)) else None)
                                                    for param, value in passed.items() if isinstance(value, ast.expr)), opaque)

    def _library_target(self, arg: ast.expr, assigned: dict[str, str]) -> tuple[FunctionInfo | None, Instance | None]:
        """What `torch.compile(x)` compiles when `x` is an imported library class's instance (its
        `forward`, and the object), a method of one (`model.sample`, `Flow(...).inverse`: that method)
        or an imported library function: outside the workspace, so analysed from here."""
        if self.project is None:
            return None, None
        method = "forward"
        bound = _bound_object(arg, assigned)
        if bound is not None:
            method, arg = arg.attr, bound
        if isinstance(arg, ast.Call):
            spelling = dotted(arg.func)
        elif isinstance(arg, ast.Name):
            spelling = assigned.get(arg.id, arg.id)
        elif isinstance(arg, ast.Attribute):  # a function by its module path: `nf.utils.spline`
            spelling = dotted(arg)
        else:
            return None, None
        if not spelling or spelling.partition(".")[0] not in self.imports:
            return None, None
        symbol = self.lookup(spelling)
        if symbol is None:
            return None, None
        made = None
        instance = isinstance(arg, ast.Call) or isinstance(arg, ast.Name) and arg.id in assigned  # (a bound method's too)
        if symbol.kind == "class":  # an instance: `torch.compile(Model(...))`, or `m = Model(...)` then `torch.compile(m)`
            info = self.class_method(spelling, method) if instance else None
            made = self.object_of(spelling) if instance else None
        elif not instance:
            info = self.imported_function(spelling)  # the function itself, not what a call of it made
        else:
            return None, None
        if info is None or info.module is None or self.project.in_workspace(info.module.path):
            return None, None  # a workspace class compiled here is an entry of its own file
        return info, made

    def _target(self, arg: ast.expr, assigned: dict[str, str]) -> FunctionInfo | None:
        """What `torch.compile(arg)` compiles in this file: a function, or a method of an object of
        one of its classes, run as that class (an inherited `forward` sees its overrides)."""
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):  # torch.compile(Model())
            return self._method_of_object(arg.func.id, "forward")
        if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):  # model.forward
            return self._method_of_object(assigned.get(arg.value.id, arg.value.id), arg.attr)
        if isinstance(arg, ast.Name):
            if arg.id in self.functions:
                return self.functions[arg.id]
            return self._method_of_object(assigned.get(arg.id, arg.id), "forward")
        return None

    def _method_of_object(self, cls: str, name: str) -> FunctionInfo | None:
        """Method `name` of an object of `cls`, run as `cls` when a class below the one defining it
        defines methods or attributes of its own (else the method itself, whose fixes are checked)."""
        method = self.method(cls, name)
        if method is None or method.cls is None:
            return method
        below = []
        for c in self.chain(self.classes[cls]):
            if c is method.cls:
                break
            below.append(c)
        return self.run_as(self.classes[cls], method) if any(c.methods or c.attrs for c in below) else method

    # -- queries ----------------------------------------------------------------------

    def getter(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        """The property getter `self.<name>` runs in class `cls` (through in-file bases)."""
        key = (cls.name, name)
        if key not in self._getters:
            method = self.method(cls.name, name)
            self._getters[key] = method if method is not None and any(
                dotted(d) in PROPERTIES for d in method.node.decorator_list) else None
        return self._getters[key]

    def method(self, cls: str, name: str) -> FunctionInfo | None:
        """`cls.name`, looked up through in-file base classes."""
        info = self.classes.get(cls)
        if info is None:
            return None
        return next((c.methods[name] for c in self.chain(info) if name in c.methods), None)

    def function(self, qualname: str) -> FunctionInfo | None:
        """Module-level function `f` or method `Cls.f` (through in-file bases) of this file."""
        cls, _, name = qualname.rpartition(".")
        return self.method(cls, name) if cls else self.functions.get(name)

    def overridden(self, entries: list[FunctionInfo]) -> dict[int, list[FunctionInfo]]:
        """For each in-file base's method that a dispatched entry overrides with the same
        parameters, those entries: the base's `self.m(...)` runs the subclass's `m`, with that
        call's arguments."""
        out: dict[int, list[FunctionInfo]] = {}
        for info in entries:
            hidden = next((c.methods[info.node.name] for c in list(self.chain(info.cls))[1:]
                           if info.node.name in c.methods), None) if info.dispatched and info.cls else None
            if hidden is not None and _parameters(hidden.node) == _parameters(info.node):
                out.setdefault(id(hidden), []).append(info)
        return out

    def chain(self, cls: ClassInfo):
        """`cls` and its base classes defined in this file, breadth first, each once."""
        todo, seen = [cls], set()
        while todo:
            c = todo.pop(0)
            if c.name in seen:
                continue
            seen.add(c.name)
            yield c
            todo.extend(self.classes[b] for b in c.base_names if b in self.classes)

    def attr_made(self, cls: ClassInfo, name: str) -> ast.Call | None:
        """The call that makes what `self.<name>` holds, when `__init__` (through in-file bases) stores
        one call's result there and nothing else (`self.block = Block(use_cache=False)`)."""
        return next((c.attr_made[name] for c in self.chain(cls) if name in c.attr_made), None)

    def attr_class(self, cls: ClassInfo, name: str) -> str | None:
        """The spelling of the class `self.<name>` holds an instance of, per `__init__` (through in-file
        bases); a default a base makes by `self.m()` is made by the override of `m` nearer `cls`."""
        chain = list(self.chain(cls))
        for i, c in enumerate(chain):
            param = self.called_param(c, name)
            if param is not None:
                given = given_class([(self, k) for k in chain[:i]], c.methods["__init__"], param, self)
                return given[1] if given is not None and given[0] is self else None
            if name in c.attr_classes:
                return self._overriding_class(chain[:i], c.attr_defaults.get(name)) or c.attr_classes[name]
        return None

    def _home_given(self, cls: ClassInfo, home: tuple[ModuleIndex, ClassInfo], name: str,
                    made: Constructed | None = None):
        """For `self.<name>` set by the base `home` (another file's) by calling an `__init__`
        parameter: (True, the class `cls`'s construction gives it, or None when unknown); (False,
        None) when the base stores anything else. Only a direct base's: the `__init__` of a class
        in a file between would go unread."""
        index, info = home
        chain = list(index.chain(info))
        for i, c in enumerate(chain):
            param = index.called_param(c, name)
            if param is not None:
                if not any(self.lookup(b) == Symbol(index.path, info.name, "class") for k in self.chain(cls)
                           for b in k.base_spellings):
                    return True, None
                below = [(self, k) for k in self.chain(cls)] + [(index, k) for k in chain[:i]]
                return True, given_class(below, c.methods["__init__"], param, index, made)
            if name in c.attr_classes:
                break
        return False, None

    def default_method(self, cls: ClassInfo, name: str) -> str | None:
        """The method `m` whose `self.m()` makes what `__init__` (through in-file bases) stores in
        `self.<name>` by default, which a subclass may override."""
        return next((c.attr_defaults.get(name) for c in self.chain(cls) if name in c.attr_classes), None)

    def held_methods(self, cls: ClassInfo, name: str) -> list[FunctionInfo]:
        """The methods (through in-file bases) that `__init__` stores in `self.<name>`."""
        held = next((held for held in (method_attrs(c.node).get(name) for c in self.chain(cls)) if held), ())
        return [m for m in (self.method(cls.name, n) for n in held) if m is not None]

    def attr_home(self, cls: ClassInfo, name: str, depth: int = 0) -> tuple[ModuleIndex, ClassInfo] | None:
        """The file and base class whose `__init__` sets `self.<name>` for `cls`, when that is a
        base class in another file (any number of files up)."""
        if self.project is None or depth > MAX_BASE_FILES:
            return None
        key = (cls.name, name)
        if key not in self._attr_homes:
            self._memo(self._attr_homes, key, lambda: self._base_attr_home(cls, name, depth))
        return self._attr_homes.get(key)

    def _base_attr_home(self, cls: ClassInfo, name: str, depth: int) -> tuple[ModuleIndex, ClassInfo] | None:
        for c in self.chain(cls):
            for spelling in c.base_spellings:
                base = self.lookup(spelling)
                if base is None or base.kind != "class" or base.path in (None, self.path):
                    continue
                index = shared_index(self.project, base.path)
                info = index.classes.get(base.qualname) if index is not None else None
                if info is None:
                    continue
                if any(name in b.attrs or name in b.attr_classes for b in index.chain(info)):
                    return index, info
                found = index.attr_home(info, name, depth + 1)
                if found is not None:
                    return found
        return None

    def portable_attr(self, cls: ClassInfo, name: str):
        """The fact of `self.<name>` for another file's view: a module (of a class this file
        defines or imports) stays a module, without the class name only this file resolves."""
        fact = self.attr(cls, name)
        spelling = self.attr_class(cls, name)
        if fact is None and spelling is not None and (
                self.is_module_class(spelling) if spelling in self.classes else self._imported_module_base(spelling)):
            return Module("")
        return _portable(fact)

    def attr_call(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        """What calling `self.<name>(...)` runs when a base class in another file sets the
        attribute (its class's `forward` or `__call__`, resolved in that file)."""
        home = self.attr_home(cls, name)
        if home is None:
            return None
        index, info = home
        fact, spelling = index.attr(info, name), index.attr_class(info, name)
        override = self._home_override(cls, home, name)
        held, given = self._home_given(cls, home, name)
        if held:
            if given is None:
                return None
            index, spelling = given
        elif override is not None:
            index, spelling = self, override
        elif isinstance(fact, Module) and fact.local_to(index.classes):
            return index.module_method(fact, "forward")
        if not spelling:
            return None
        return index.class_method(spelling, "forward") if isinstance(fact, Module) else \
            index.class_method(spelling, "__call__") or index.class_method(spelling, "forward")

    def held_method(self, cls: ClassInfo, name: str, method: str) -> FunctionInfo | None:
        """Method `method` of the object `__init__` stores in `self.<name>` (`self.rotary =
        Rotary(dim)`, a parameter annotated with its class), wherever that class is defined."""
        key = (cls.name, name, method)
        if key in self._held:
            return self._held[key]
        return self._memo(self._held, key, lambda: self._held_method(cls, name, method))

    def bound_in(self, name: str, depth: int = 0) -> tuple[ModuleIndex, str] | None:
        """The file (its index) and the name there that an imported name is a module-level
        declaration or type alias of, through re-exports (`from .utils import HintOrType` in a
        package's `__init__.py`)."""
        ref = self.imports.get(name)
        if ref is None or ref.name is None or self.project is None or depth > MAX_BASE_FILES:
            return None
        module = self.project.imported(self.path, replace(ref, name=None))
        other = shared_index(self.project, module.path) if module is not None and module.path else None
        if other is None or other.path == self.path:
            return None
        if ref.name in other.declared or ref.name in other.type_aliases:
            return other, ref.name
        return other.bound_in(ref.name, depth + 1)

    def class_home(self, instance: Instance) -> tuple[ModuleIndex, ClassInfo] | None:
        """The file (its index) and class an object's class is defined in."""
        index = self if instance.path in (None, self.path) else \
            shared_index(self.project, instance.path) if self.project is not None else None
        info = index.classes.get(instance.cls) if index is not None else None
        return (index, info) if info is not None else None

    def given_method(self, instance: Instance, name: str, method: str) -> tuple[bool, FunctionInfo | None]:
        """Whether `__init__` (of `instance`'s class or a base, in any file) stores in `self.<name>` a
        call of a parameter (`self.act = act_layer()`); if so, method `method` (`forward`: the call
        of the object) of the class that object's construction gives it, None when that is unknown."""
        found = self.class_home(instance)
        if found is None:
            return False, None
        index, info = found
        held, given = index._given_held(info, name, instance if isinstance(instance, Constructed) else None)
        if given is None:
            return held, None
        home, spelling = given
        return True, home.class_method(spelling, method) or (home.class_method(spelling, "__call__") if method == "forward" else None)

    def _given_held(self, cls: ClassInfo, name: str, made: Constructed | None) -> tuple[bool, tuple[ModuleIndex, str] | None]:
        """Whether `self.<name>` of `cls` is stored by calling a parameter (the nearest store, in any
        file), and the class (file, spelling) an object of `cls` made as `made` shows gives it."""
        chain = list(self.chain(cls))
        for i, c in enumerate(chain):
            param = self.called_param(c, name)
            if param is not None:
                return True, given_class([(self, k) for k in chain[:i]], c.methods["__init__"], param, self, made)
            if name in c.attr_classes or name in c.attrs:
                return False, None
        home = self.attr_home(cls, name)
        return self._home_given(cls, home, name, made) if home is not None else (False, None)

    def called_param(self, c: ClassInfo, name: str) -> str | None:
        """The `__init__` parameter whose class `self.<name>` of class `c` holds an object of (`act_layer()`,
        or a typed factory's call given it)."""
        factory = c.attr_factories.get(name)
        if factory is None:
            return c.attr_params.get(name)
        if id(factory) not in self._factories:
            self._factories[id(factory)] = given_parameter(self, factory, _own_parameters(c.methods["__init__"].node))
        return self._factories[id(factory)]

    def _held_method(self, cls: ClassInfo, name: str, method: str) -> FunctionInfo | None:
        spelling = self.attr_class(cls, name)
        if spelling is not None:
            return self.class_method(spelling, method)
        home = self.attr_home(cls, name)
        if home is None:
            return None
        held, given = self._home_given(cls, home, name)
        if held:
            return given[0].class_method(given[1], method) if given is not None else None
        override = self._home_override(cls, home, name)
        if override is not None:
            return self.class_method(override, method)
        spelling = home[0].attr_class(home[1], name)
        return home[0].class_method(spelling, method) if spelling is not None else None

    def attr(self, cls: ClassInfo, name: str):
        """The fact of `self.<name>` in methods of `cls` (through in-file bases), or of the value a
        setter method (`setattr(self, name, value)` in its body) was given for it in `__init__`."""
        chain = list(self.chain(cls))
        for i, c in enumerate(chain):
            if name in c.attrs:
                return self._overriding_element(chain[:i], c.attrs[name], c.element_methods.get(name))
        calls = [(c, call) for c in self.chain(cls) for call in c.named_calls.get(name, ())]
        if not calls:
            home = self.attr_home(cls, name)
            return home[0].portable_attr(home[1], name) if home is not None else None
        key = (cls.name, name)
        if key in self._set_attrs:
            return self._set_attrs[key]
        return self._memo(self._set_attrs, key, lambda: self._set_fact(cls, calls))

    def _overriding_element(self, below: list[ClassInfo], fact, method: str | None):
        """A module container whose elements `self.m(...)` made, with the element class the override
        of `m` nearest the object's class makes (`fact` as it is when none below overrides `m`)."""
        if method is None or not below or not isinstance(fact, Module):
            return fact
        made = self._method_made(below, method)
        element = self.value_fact(made) if made is not None else None
        return Module(fact.cls, element, path=fact.path) if isinstance(element, Module) else fact

    def _set_fact(self, cls: ClassInfo, calls: list[tuple[ClassInfo, ast.Call]]):
        """The fact of the value the first of ``calls`` whose method is a setter passes for its name."""
        for _, call in calls:
            method = self.method(cls.name, call.func.attr) or self.inherited(cls, call.func.attr)
            value = _set_value(call, method.node) if method is not None else None
            if value is not None:
                return self.value_fact(value)
        return None

    def attrs_like(self, cls: ClassInfo, prefix: str, suffix: str):
        """The fact shared by every attribute of `cls` whose name has this prefix and suffix (None
        when there is none, or they differ)."""
        facts = [fact for c in self.chain(cls) for attr, fact in c.attrs.items()
                 if attr.startswith(prefix) and attr.endswith(suffix) and len(attr) > len(prefix) + len(suffix)]
        return facts[0] if facts and all(f == facts[0] for f in facts) else None

    def lookup(self, spelling: str) -> Symbol | None:
        """What an imported name (then `.attr...`) of this file stands for, through the project
        index (None without one, or when it cannot be resolved)."""
        head, _, rest = spelling.partition(".")
        ref = self.imports.get(head)
        if self.project is None or ref is None:
            return None
        try:
            return self.project.imported(self.path, ref, rest=rest)
        except (OSError, RecursionError, ValueError):
            return None

    def foreign(self, symbol: Symbol | None) -> FunctionInfo | None:
        """The FunctionInfo of a function or method the project index found in another file."""
        if symbol is None or symbol.path is None or symbol.kind not in ("function", "method") \
                or symbol.path == self.path:
            return None
        index = shared_index(self.project, symbol.path)
        if index is None:
            return None
        return index.function(symbol.qualname)

    def imported_function(self, spelling: str) -> FunctionInfo | None:
        """The function an imported spelling (`helper`, `utils.helper`) runs, from another file."""
        if spelling.partition(".")[0] not in self.imports:
            return None
        if spelling in self._imported:
            return self._imported[spelling]
        return self._memo(self._imported, spelling, lambda: self.foreign(self.lookup(spelling)))

    def imported_init(self, name: str) -> FunctionInfo | None:
        """The ``__init__`` a call of an imported workspace class runs (``Split(mask)``); library
        classes are left alone."""
        if name not in self.imports or self.project is None:
            return None
        key = f"{name}()"
        if key in self._imported:
            return self._imported[key]

        def compute():
            symbol = self.lookup(name)
            if symbol is None or symbol.kind != "class" or symbol.path is None \
                    or not self.project.in_workspace(symbol.path):
                return None
            return self.foreign(self.project.method(symbol, "__init__"))
        return self._memo(self._imported, key, compute)

    def _memo(self, memo: dict, key, compute):
        """`compute()` stored in `memo` unless the project index lacked a file meanwhile."""
        before = self.project.misses() if self.project is not None else 0
        value = compute()
        if self.project is None or self.project.misses() == before:
            memo[key] = value
        return value

    def inherited(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        """Method `name` of `cls` defined in an imported base class (in another file)."""
        if self.project is None or not (cls.base_spellings or cls.base_names):
            return None
        key = (cls.name, name)
        if key in self._inherited:
            return self._inherited[key]
        return self._memo(self._inherited, key, lambda: self._inherited_method(cls, name))

    def _inherited_method(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        for c in self.chain(cls):
            for spelling in c.base_spellings:
                base = self.lookup(spelling)
                if base is not None and base.kind == "class":
                    found = self.foreign(self.project.method(base, name))
                    if found is not None:
                        return found
        return None

    def class_method(self, spelling: str, name: str) -> FunctionInfo | None:
        """Method `name` of the class a spelling names (in this file or imported), through its bases."""
        if spelling in self.classes:
            return self.method(spelling, name) or self.inherited(self.classes[spelling], name)
        symbol = self.lookup(spelling)
        if symbol is None or symbol.kind != "class":
            return None
        return self.foreign(self.project.method(symbol, name))

    def object_of(self, spelling: str) -> Instance | None:
        """An object of the class `spelling` names (in this file or imported), whatever the class:
        the receiver of the methods it runs (`self` in a method it inherits is that object)."""
        if spelling in self.classes:
            return Instance(self.path, spelling)
        found = self._imported_class(spelling)
        return found[0] if found is not None else None

    def instance_of(self, spelling: str) -> Instance | None:
        """The fact of an object made by calling the class `spelling` (of this file, or imported
        from the workspace or a library), when that class is known not to be an nn.Module."""
        if spelling in self.classes:
            return None if self.is_module_class(spelling) else Instance(self.path, spelling)
        found = self._imported_class(spelling)
        return found[0] if found is not None and found[1] is False else None

    def _imported_class(self, spelling: str) -> tuple[Instance, bool | None] | None:
        """The class an imported spelling names (its file and qualified name there), and whether the
        project index knows it is an nn.Module (None: unknown); None for anything else."""
        if spelling.partition(".")[0] not in self.imports or self.project is None:
            return None
        if spelling in self._imported_classes:
            return self._imported_classes[spelling]

        def compute():
            symbol = self.lookup(spelling)
            if symbol is None or symbol.kind != "class" or symbol.path is None:
                return None
            return Instance(symbol.path, symbol.qualname), self.project.is_module_class(symbol.path, symbol.qualname)
        return self._memo(self._imported_classes, spelling, compute)

    def registry_object(self, name: str) -> Instance | Choice | None:
        """What calling a value of the module-level dictionary `name` makes (`SOLVERS[method](...)`),
        when every value is a plain class (of this file or imported), at most MAX_CHOICES of them:
        an object of one of them."""
        made = [self.instance_of(s) for s in self.registries.get(name, ())[:MAX_CHOICES + 1]]
        if not made or len(made) > MAX_CHOICES or None in made:
            return None
        options = tuple(dict.fromkeys(made))
        return options[0] if len(options) == 1 else Choice(options)

    def instance_attr(self, instance: Instance, name: str):
        """The fact of `<object>.<name>` for an object of a plain class: what `__init__` of its class
        (or of a base, in any file) stores there, as this file sees it."""
        if instance.path == self.path:
            info = self.classes.get(instance.cls)
            return self.attr(info, name) if info is not None else None
        if self.project is None or instance.path is None:
            return None
        index = shared_index(self.project, instance.path)
        info = index.classes.get(instance.cls) if index is not None else None
        return index.portable_attr(info, name) if info is not None else None

    def instance_method(self, instance: Instance, name: str) -> FunctionInfo | None:
        """Method `name` of an object's class, through its bases in any file."""
        if instance.path == self.path:
            return self.class_method(instance.cls, name)
        if self.project is None or instance.path is None:
            return None
        key = (instance, name)
        if key in self._instance_methods:
            return self._instance_methods[key]
        return self._memo(self._instance_methods, key, lambda: self.foreign(
            self.project.method(Symbol(instance.path, instance.cls, "class"), name)))

    def decorator_wrappers(self, info: FunctionInfo) -> list[tuple[ast.expr, FunctionInfo]]:
        """(decorator, the inner function it returns) for each decorator of `info` defined in this
        file or another: that inner function is what runs when `info` is called."""
        found = []
        for dec in info.node.decorator_list:
            target = decorator_target(dec)
            spelling = dotted(target)
            if not spelling or self.aliases.resolve(target) in (*COMPILE, *DISABLE):
                continue
            deco = self.functions.get(spelling) or self.imported_function(spelling)
            if deco is not None:
                found += [(dec, wrapper) for wrapper in self.wrappers_of(deco, dec)]
        return found

    def wrappers_of(self, deco: FunctionInfo, dec: ast.expr) -> list[FunctionInfo]:
        """The inner functions decorator function `deco`, applied as `dec` (`@deco` or
        `@deco(...)`, in this file or another), leaves in place of what it decorates."""
        known = self._wrappers.get(id(dec))
        if known is None or known[0] is not deco:
            defs = wrapper_defs(deco, dec if isinstance(dec, ast.Call) else None)
            known = self._wrappers[id(dec)] = (deco, [FunctionInfo(
                d.node, d.qualname, None, d.module is not None and d.module._disabled(d.node), d.module,
                enclosing=d.enclosing) for d in defs])
        return known[1]

    def sibling(self, function: FunctionInfo, name: str) -> FunctionInfo | None:
        """The def named `name` in the body of the function that defines the nested `function`
        (a decorator's wrapper calling a helper defined next to it)."""
        scope = function.enclosing
        if scope is None:
            return None
        return self._local_def(scope, function.qualname.rpartition(".<locals>.")[0], function.module, name)

    def local_def(self, function: FunctionInfo, name: str) -> FunctionInfo | None:
        """The def named `name` in the body of `function` (a closure `forward` calls, which Dynamo
        inlines), when nothing else binds that name there."""
        return self._local_def(function.node, function.qualname, function.module, name)

    def _local_def(self, scope: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, module, name: str):
        key = (id(scope), name)
        if key not in self._locals:
            defs = [s for s in statements(scope) if s is not scope and isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and s.name == name]
            node = defs[0] if len(defs) == 1 and name not in stored_names(scope) else None
            self._locals[key] = None if node is None else FunctionInfo(
                node, f"{prefix}.<locals>.{name}", None, False, module, enclosing=scope)
        return self._locals[key]

    def lambda_def(self, function: FunctionInfo, lam: ast.Lambda) -> FunctionInfo:
        """A lambda of `function` passed on as a value (`run(lambda t: helper(t), x)`), as a nested
        def returning its body: calling the parameter that holds it runs it, which Dynamo inlines."""
        key = (id(lam), "<lambda>")
        if key not in self._locals:
            body = ast.copy_location(ast.Return(value=lam.body), lam.body)
            node = ast.copy_location(ast.FunctionDef(name="<lambda>", args=lam.args, body=[body], decorator_list=[],
                                                     returns=None, type_comment=None), lam)
            if "type_params" in ast.FunctionDef._fields:
                node.type_params = []
            others = [n for n in walk(function.node) if isinstance(n, ast.Lambda)]
            name = "<lambda>" if len(others) == 1 else f"<lambda at line {lam.lineno}:{lam.col_offset + 1}>"
            self._locals[key] = FunctionInfo(node, f"{function.qualname}.<locals>.{name}", None, False,
                                             function.module, enclosing=function.node)
        return self._locals[key]

    def false_flags(self, cls: ClassInfo) -> frozenset[str]:
        """`self.<flag>` set to False in `__init__` and nowhere else in the class (or its in-file bases)."""
        if cls.false_flags is None:
            cls.false_flags = false_flags(cls.node)
        return cls.false_flags

    def is_logger(self, name: str) -> bool:
        """A module-level name bound to a logger: made by a getLogger/get_logger-shaped call, by
        any function the project index sees return a logger, or imported from another file."""
        if name in self.loggers:
            return True
        if self.project is None or (name not in self.assigned_calls and name not in self.imports):
            return False
        if name in self._logger_memo:
            return self._logger_memo[name]
        return self._memo(self._logger_memo, name, lambda: self._made_logger(name))

    def _made_logger(self, name: str) -> bool:
        if name in self.assigned_calls:
            made = self.lookup(self.assigned_calls[name])
            return made is not None and self.project.returns_symbol(made) == LOGGER
        symbol = self.lookup(name)
        return symbol is not None and symbol.kind == "logger"

    def _imported_module_base(self, spelling: str) -> bool | None:
        """Whether an imported base is an nn.Module per the project index (None: unknown)."""
        symbol = self.lookup(spelling)
        if symbol is None:
            return None
        if symbol.kind == "external":
            return symbol.qualname.startswith("torch.nn.") and symbol.qualname.rpartition(".")[2][:1].isupper() \
                or (None if symbol.qualname.startswith("torch.") else False)
        if symbol.kind != "class":
            return None
        return self.project.is_module_class(symbol.path, symbol.qualname)

    def optional_typed_dict(self, spelling: str) -> bool:
        """Whether the class `spelling` stands for (of this file, or imported) is a TypedDict with
        optional keys (its own or a base's)."""
        return all(self._typed_dict(spelling))

    def _typed_dict(self, spelling: str, depth: int = 0) -> tuple[bool, bool]:
        info = self.classes.get(spelling)
        if info is None:
            symbol = self.lookup(spelling)
            if symbol is None or symbol.kind != "class" or symbol.path is None:
                return False, False
            try:
                return self.project.typed_dict(symbol.path, symbol.qualname)
            except (OSError, RecursionError, ValueError):
                return False, False
        if depth > MAX_BASES:
            return False, False
        return typed_dict_of(optional_keys(info.node), [*((q in TYPED_DICTS, False) for q in info.base_qualnames),
                                                        *(self._typed_dict(b, depth + 1) for b in
                                                          [*info.base_names, *info.base_spellings])])

    def string_constant(self, spelling: str) -> bool:
        """`MODE` or `METHODS.euler`: a module-level name or an attribute of a top-level class bound
        only to string literals, in this file or (through the project index) the file it comes from."""
        if spelling in self._string_memo:
            return self._string_memo[spelling]
        return self._memo(self._string_memo, spelling, lambda: self._string_constant(spelling))

    def _string_constant(self, spelling: str) -> bool:
        head, _, attr = spelling.partition(".")
        if "." in attr:
            return False
        if head in self.classes:
            return bool(attr) and attr in class_strings(self.classes[head].node)
        if head not in self.imports:
            return not attr and head in self.strings
        symbol = self.lookup(head)
        summary = self.project.summary(symbol.path) if symbol is not None and symbol.path is not None else None
        if summary is None:
            return False
        if attr:
            owner = summary.classes.get(symbol.qualname) if symbol.kind == "class" else None
            return owner is not None and attr in owner.strings
        return symbol.kind == "value" and symbol.qualname in summary.strings

    def is_enum(self, name: str) -> bool:
        """An Enum subclass of the file (through in-file bases)."""
        info = self.classes.get(name)
        seen = set()
        while info is not None and info.name not in seen:
            seen.add(info.name)
            if any(q in ENUM_BASES for q in info.base_qualnames):
                return True
            info = self.classes.get(info.base_names[0]) if info.base_names else None
        return False

    def is_autograd_function(self, name: str) -> bool:
        """A `torch.autograd.Function` subclass of the file (through in-file bases)."""
        info = self.classes.get(name)
        return info is not None and any(q in AUTOGRAD_FUNCTIONS for c in self.chain(info) for q in c.base_qualnames)

    def is_module_class(self, name: str) -> bool:
        """An nn.Module subclass: a `torch.nn` base, an in-file module base, a base the project
        index traces to `torch.nn.Module` through other files, or (without an answer from the
        index) an imported base with a `forward(self, ...)` method."""
        if name not in self._module_memo:
            before = self.project.misses() if self.project is not None else 0
            self._module_memo[name] = False  # cycles
            info = self.classes[name]
            imported = [self._imported_module_base(b) for b in info.base_spellings]
            result = any(self.is_module_class(b) for b in info.base_names) or any(
                q.startswith("torch.nn.") and q.rpartition(".")[2][:1].isupper() for q in info.base_qualnames) \
                or True in imported
            known = bool(imported) and all(v is False for v in imported)  # the index says: no module base
            if not result and not known and "forward" in info.methods:
                forward = info.methods["forward"].node
                args = forward.args.posonlyargs + forward.args.args
                result = bool(info.base_qualnames) and bool(args) and args[0].arg == "self" and not any(
                    q.startswith(("torch.autograd", "object")) for q in info.base_qualnames)
            self._module_memo[name] = result
            if self.project is not None and self.project.misses() != before:
                return self._module_memo.pop(name)  # partial: ask again once the index has the files
        return self._module_memo[name]

    def workspace_compiles(self) -> dict[int, tuple[FunctionInfo, list]]:
        """id(entry) -> (entry, the `torch.compile(...)` calls in other workspace files that
        compile it): a class compiled there makes its `forward` an entry here."""
        if self._elsewhere is None:
            self._elsewhere = {}
            try:
                targets = self.project.compile_targets() if self.project is not None else {}
            except (OSError, RecursionError, ValueError):
                targets = {}
            for (path, name), sites in targets.items():
                cls, _, method = name.rpartition(".")
                info = None if path != self.path else \
                    self.method(name, "forward") if name in self.classes else \
                    self.method(cls, method) if cls in self.classes else self.functions.get(name)
                others = [s for s in sites if s.site_path != self.path]
                if info is not None and others:
                    info.fullgraph |= any(s.site.fullgraph for s in others)
                    self._elsewhere.setdefault(id(info), (info, []))[1].extend(others)
        return self._elsewhere

    def entries(self, assume_compiled: str) -> list[FunctionInfo]:
        """The compiled entry points under the `assume_compiled` mode that this file's code and the
        workspace's compile calls declare, in source order."""
        found: dict[int, FunctionInfo] = {}
        everything = [*self.functions.values(), *(m for c in self.classes.values() for m in c.methods.values())]
        targets = {id(info) for info in self.compiled_targets}
        dispatched = {id(info) for info in self._dispatched()} if assume_compiled != "decorated" else set()
        for info in everything:
            if info.disabled:
                continue
            own_entry = info.cls is not None and info.node.name in MODULE_ENTRIES and self.is_module_class(info.cls.name)
            info.dispatched = id(info) in dispatched and not own_entry
            module_entry = own_entry or info.dispatched
            declared = self._decorated(info.node) or id(info) in targets or module_entry
            info.fullgraph |= self._decorated_fullgraph(info.node)
            constructor = info.cls is not None and info.node.name == "__init__" and self.is_module_class(info.cls.name)
            info.assumed = assume_compiled == "all" and not declared and not constructor
            if info.assumed or declared and assume_compiled == "all" or self._decorated(info.node) \
                    or assume_compiled in ("modules", "api") and module_entry:  # a module is built before it is compiled
                found[id(info)] = info
        if assume_compiled != "decorated":
            found.update((id(info), info) for info in self.subclass_forwards())
        if assume_compiled == "api":
            for info, where in self.exported():
                if id(info) not in found:
                    info.exported = where
                    found[id(info)] = info
        for info in self.compiled_targets:
            if not info.disabled:
                found[id(info)] = info
        for info, _ in self.workspace_compiles().values():
            if not info.disabled:
                found[id(info)] = info
        return sorted(found.values(), key=lambda i: i.node.lineno)

    def exported(self) -> list[tuple[FunctionInfo, tuple[str, int, str]]]:
        """What this file's package exports (`ProjectIndex.exported`): its top-level functions, and
        the public methods of its classes, that return a value; each with the `__init__.py` that
        exports it, the line naming it there, and the name. Not `torch.compiler.disable`d ones, an
        autograd Function's methods, properties, decorators (a function defining an inner function),
        generators and context managers, nor functions run only for their effects (`set_seed(n)`):
        code calls those outside what it compiles."""
        if self.project is None:
            return []
        try:
            names = self.project.exported(self.path)
        except (OSError, RecursionError, ValueError):
            return []
        out = []
        for name, init in sorted(names.items()):
            cls = self.classes.get(name)
            if cls is not None and self.is_autograd_function(name):
                continue  # its API is `apply`, whose `forward` runs with what each caller passes
            infos = [self.functions.get(name)] if cls is None else \
                [m for n, m in cls.methods.items() if not n.startswith("_") and not _accessor(m.node)]
            infos = [i for i in infos if i is not None and not i.disabled and not defines_function(i.node)
                     and _returns_value(i.node)]
            if infos:
                text = (self.project.tree(init) or (None, ""))[1]
                found = re.search(rf"\b{re.escape(name)}\b", text)
                where = (init, text.count("\n", 0, found.start()) + 1 if found else 1, name)
                out += [(info, where) for info in infos]
        return out

    def subclass_forwards(self) -> list[FunctionInfo]:
        """The `forward` a module class inherits from an in-file base, as that class runs it, where
        the class (or a base in between) sets attributes in its own `__init__`: `self.<attr>` in the
        inherited code is then what the subclass set (timm's `LSTM2d` puts an `nn.LSTM` where its base
        `RNN2dBase` had an identity module)."""
        if self._subclass_forwards is None:
            self._subclass_forwards = []
            for cls in self.classes.values():
                if "forward" in cls.methods or not self.is_module_class(cls.name):
                    continue
                chain = list(self.chain(cls))
                owner = next((c for c in chain if "forward" in c.methods), None)
                base = owner.methods["forward"] if owner is not None else None
                if base is None or base.disabled or not any(c.attrs or c.attr_classes for c in chain[:chain.index(owner)]):
                    continue
                self._subclass_forwards.append(self.run_as(cls, base))
        return self._subclass_forwards

    def run_as(self, cls: ClassInfo, method: FunctionInfo) -> FunctionInfo:
        """`method`, of an in-file base of `cls`, as `cls` runs it (`self.<attr>` is what `cls` sets);
        `method` itself when it is `cls`'s own or not of this file."""
        if method.cls is None or method.cls is cls or method.module is not self:
            return method
        key = (cls.name, id(method.node))
        if key not in self._run_as:
            self._run_as[key] = FunctionInfo(method.node, f"{cls.name}.{method.node.name}", cls, method.disabled, self,
                                             inherited_from=method.cls.name)
        return self._run_as[key]

    def own_region(self, entries: list[FunctionInfo] | None = None) -> frozenset[str]:
        """The qualified names of the functions this file's entry points under "modules" (`entries`,
        when the caller has them) reach in it through plain and `self.` calls."""
        if self._own_region is None:
            todo: list[FunctionInfo] = list(self.entries("modules") if entries is None else entries)
            seen: set[str] = set()
            while todo:
                info = todo.pop()
                if info.qualname in seen or info.module not in (None, self):
                    continue
                seen.add(info.qualname)
                todo.extend(f for n in called_names(info.node) if (f := self.functions.get(n)) is not None)
                if info.cls is not None:
                    todo.extend(m for n in self_calls(info.node) if (m := self.method(info.cls.name, n)) is not None)
            self._own_region = frozenset(seen)
        return self._own_region

    def _dispatched(self) -> list[FunctionInfo]:
        """Methods of this file's module classes that base-class code (in any file) calls on
        `self`: an inherited `forward` calling `self.apply_transform`, or a base's `propagate`,
        called from the class's own `forward`, calling `self.message`."""
        out = []
        for cls in self.classes.values():
            chain = list(self.chain(cls))
            defined = {name for c in chain for name in c.methods}
            overridable = frozenset(defined - {"__init__", "forward", "__call__"})
            if not overridable or not self.is_module_class(cls.name):
                continue
            attrs = frozenset(a for c in chain for a in c.attrs)
            own = [m for m in (self.method(cls.name, n) for n in ("forward", "__call__")) if m is not None]
            names, calls = self._own_reach(cls, own, defined, attrs)
            inherited_call = None if own else next(
                (d for c in chain for q in c.base_qualnames if (d := external_call(q)) is not False), None)
            if inherited_call in overridable:  # `Transform.__call__` runs the `_call` the class defines
                names.add(inherited_call)
            elif self.project is not None:  # base classes in other files
                bases = tuple(b for b in (self.lookup(s) for c in chain for s in c.base_spellings) if b is not None)
                try:
                    names |= self.project.dispatched(bases, calls, not own, overridable, attrs) or set()
                except (OSError, RecursionError, ValueError):
                    pass  # what this file shows still stands
            out.extend(m for m in (self.method(cls.name, n) for n in sorted(names & overridable)) if m is not None)
            out.extend(self._element_called(cls))
        return out

    def _element_called(self, cls: ClassInfo) -> list[FunctionInfo]:
        """The class's own methods that module code in the workspace calls on an element of a
        container (`self.flows[i].inverse(z)` in a flow's `log_prob`, run from its `forward`): the
        element may be an instance of this class, so Dynamo may trace the method there."""
        if self.project is None:
            return []
        candidates = [(name, info) for name, info in cls.methods.items()
                      if name not in MODULE_ENTRIES and not name.startswith("__") and not info.disabled]
        return with_callers(candidates, self.project.element_callers, "element_callers")

    def _own_reach(self, cls: ClassInfo, start: list[FunctionInfo], defined: set[str],
                   attrs: frozenset[str]) -> tuple[set[str], tuple[str, ...]]:
        """Following the `self.<name>(...)` calls of this file's methods from `start` (the class's
        own or in-file inherited `forward`): the names where an in-file base's method calls one
        the class overrides, and the names of methods its imported bases define, in order."""
        overrides: set[str] = set()
        out: list[str] = []
        todo, seen = list(start), {id(f) for f in start}
        held = {a: m for c in self.chain(cls) for a, m in method_attrs(c.node).items()}  # `self.f = self.g`
        while todo:
            caller = todo.pop(0)
            fetched = [n for pattern in _self_name_patterns(caller.node) for n in names_like(defined, pattern)]
            for name in (m for called in (*self_calls(caller.node), *fetched) for m in held.get(called, (called,))):
                if name in attrs and name not in defined:
                    continue  # `self.encoder(...)`: a submodule (a method a base re-assigns, wrapped, still runs)
                if name not in defined:
                    if name not in out:
                        out.append(name)
                    continue
                inner = self.method(cls.name, name)
                if caller.cls is not None and inner is not self.method(caller.cls.name, name):
                    overrides.add(name)  # the walk of the base's method takes the base's own
                elif inner is not None and id(inner) not in seen:
                    seen.add(id(inner))
                    todo.append(inner)
        return overrides, tuple(out)

    def _decorated(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        return any(self.aliases.resolve(decorator_target(dec)) in COMPILE
                   for dec in node.decorator_list)

    def _decorated_fullgraph(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """`@torch.compile(fullgraph=True)` in any spelling."""
        return any(asks_fullgraph(dec) and self.aliases.resolve(dec.func) in COMPILE for dec in node.decorator_list)


@per_node
def defines_function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function defines a function in its body: a decorator may leave it as a wrapper
    on what it decorates (one only forwarding to another, `return _cached(name=name)`, does not)."""
    return any(sub is not node and isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) for sub in statements(node))


def _accessor(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A property's getter, setter or deleter."""
    return any((spelling := dotted(decorator_target(d)) or "") in PROPERTIES or spelling.endswith((".setter", ".deleter"))
               for d in node.decorator_list)


@per_node
def _returns_value(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function returns something other than None and yields nothing."""
    returns = [s.value for s in statements(node) if isinstance(s, ast.Return)]
    return any(v is not None and not (isinstance(v, ast.Constant) and v.value is None) for v in returns) \
        and not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in walk(node))


def _set_value(call: ast.Call, setter: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """The argument of `call` that `setter` stores under the name its first argument gives: its body
    does `setattr(self, name, value)` or `self.register_buffer(name, value)` with both its parameters."""
    params = [a.arg for a in (*setter.args.posonlyargs, *setter.args.args)][1:]
    if len(params) < 2:
        return None
    for node in walk(setter):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        if isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(node.args) == 3 \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
            name, value = node.args[1:]
        elif self_attribute(node.func) and node.func.attr in ("register_buffer", "register_parameter"):
            name, value = node.args[:2]
        else:
            continue
        if isinstance(name, ast.Name) and name.id == params[0] and isinstance(value, ast.Name) and value.id in params:
            at = params.index(value.id)
            return call.args[at] if at < len(call.args) else \
                next((k.value for k in call.keywords if k.arg == value.id), None)
    return None


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    return tuple(arg.arg for arg, _ in with_defaults(node))


def with_callers(candidates: list[tuple[str, FunctionInfo]], ask, kept: str) -> list[FunctionInfo]:
    """The functions of `candidates` ((name, function) pairs) whose callers `ask(name)` (a project
    index question) finds; each keeps them in its field `kept`."""
    out = []
    for name, info in candidates:
        try:
            callers = ask(name)
        except (OSError, RecursionError, ValueError):
            continue
        if callers:
            setattr(info, kept, callers)
            out.append(info)
    return out


@per_node
def called_names(node: ast.stmt) -> frozenset[str]:
    """The plain names a statement calls (`helper(...)`)."""
    return frozenset(sub.func.id for sub in walk(node) if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name))


@per_node
def self_calls(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The names a function calls as `self.<name>(...)`, in order."""
    return tuple(dict.fromkeys(sub.func.attr for sub in walk(node) if isinstance(sub, ast.Call)
                               and isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name)
                               and sub.func.value.id == "self"))


@per_node
def _self_name_patterns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, str], ...]:
    """The (prefix, suffix) of each method name a function fetches by a computed name
    (`getattr(self, "{}_reduction".format(kind))`)."""
    return tuple(dict.fromkeys(pattern for sub in walk(node) if isinstance(sub, ast.Call)
                               and isinstance(sub.func, ast.Name) and sub.func.id == "getattr" and len(sub.args) >= 2
                               and isinstance(sub.args[0], ast.Name) and sub.args[0].id == "self"
                               and (pattern := name_pattern(sub.args[1])) is not None))


def _constant_literal(node: ast.expr) -> bool:
    """A non-empty tuple, list, set or dict literal of constants (an empty one may be a cache that
    gets tensors)."""
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
        return False
    try:
        return bool(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


def _portable(fact):
    """A fact read from another file, without the class names that only that file resolves (a
    module stays a module: calling it gives a tensor)."""
    if isinstance(fact, Module) and fact.path is None:
        return Module("", _portable(fact.element))
    return fact  # a module of another file's class names its file: any file resolves it


def _bound_object(arg: ast.expr, assigned: dict[str, str]) -> ast.expr | None:
    """The object of a bound method `torch.compile` is given (`model` of `model.sample`, where
    `model = Flow(...)`, or `Flow(...)` of `Flow(...).sample`); None for anything else."""
    if isinstance(arg, ast.Attribute) and (isinstance(arg.value, ast.Call)
                                           or isinstance(arg.value, ast.Name) and arg.value.id in assigned):
        return arg.value
    return None


def _default_part(value: ast.expr) -> ast.expr:
    """The default of a "default unless given" value (`Default() if p is None else p`, `p or
    Default()`); else ``value``."""
    named = none_test(value.test) if isinstance(value, ast.IfExp) else None
    if named is not None:
        given, default = (value.orelse, value.body) if named[1] else (value.body, value.orelse)
        return default if isinstance(given, ast.Name) and given.id == named[0] else value
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2 \
            and isinstance(value.values[0], ast.Name):
        return value.values[1]
    return value


def _default_method(made: ast.expr) -> str | None:
    """`m` of a default made by `self.m()` (no arguments)."""
    if isinstance(made, ast.Call) and self_attribute(made.func) and not made.args and not made.keywords:
        return made.func.attr
    return None


def given_class(below: list[tuple[ModuleIndex, ClassInfo]], init: FunctionInfo, param: str,
                home: ModuleIndex, made: Constructed | None = None) -> tuple[ModuleIndex, str] | None:
    """The class (its file and spelling) parameter `param` of `init`, a base's `__init__` in `home`,
    receives in an object of the first of `below` (its subclasses with their files, the nearest
    last): the class a subclass's `super().__init__(...)` names for it, through parameters it
    renames (`super().__init__(act_layer=layer)`); else what `made` (the object's construction, as
    the analysed file shows it) passes; else the default. None when a subclass or the construction
    passes anything else, or a subclass runs its `__init__` without its base's."""
    for index, sub in reversed(below):
        own = sub.methods.get("__init__")
        if own is None:
            continue  # it inherits `__init__`: the parameter passes through
        call = _base_init_call(own.node)
        if call is None:
            return None
        passed = bind_arguments(init.node, True, call, lambda arg: ("passed", arg), lambda default: ("default", default),
                                facts=False).get(param)
        kind = passed[0] if isinstance(passed, tuple) and len(passed) == 2 else None
        if kind == "default":
            return _spelled(home, passed[1])
        if kind != "passed":
            return None
        value = passed[1]
        if isinstance(value, ast.Name) and value.id in parameter_names(own.node) and value.id not in stored_names(own.node):
            init, param, home = own, value.id, index
            continue
        return _spelled(index, value)
    passed, cls = made.passed(param) if made is not None else (False, None)
    if passed:
        found = home.class_home(cls) if cls is not None else None
        return (found[0], found[1].name) if found is not None else None
    return _spelled(home, _parameter_default_node(init.node, param))


def _called_parameter(value: ast.expr, params: frozenset[str]) -> tuple[str | None, ast.Call | None]:
    """(`p`, None) for a store `self.x = p(...)` in `__init__`, `p` one of its parameters `params`
    it never rebinds (`act_layer()`): the object is of whatever class the construction gives `p`;
    (None, the call) for another call given such a parameter (`resolver.make(p, kwargs)`), which
    may be a factory typed to make an object of the class it is given (`typed_factory`)."""
    if not isinstance(value, ast.Call):
        return None, None
    if isinstance(value.func, ast.Name) and value.func.id in params:
        return value.func.id, None
    given = any(isinstance(a, ast.Name) and a.id in params for a in (*value.args, *(k.value for k in value.keywords)))
    return None, value if given else None


def _own_parameters(init: ast.FunctionDef) -> frozenset[str]:
    """The parameters of `init` it never rebinds."""
    return parameter_names(init) - stored_names(init)


def _parameter_default_node(init: ast.FunctionDef, param: str) -> ast.expr | None:
    return next((default for arg, default in with_defaults(init) if arg.arg == param), None)


def _spelled(index: ModuleIndex, value: ast.expr | None) -> tuple[ModuleIndex, str] | None:
    """A class named as a value (`Masked`, `layers.Masked`) in `index`'s file, as (file, spelling)."""
    spelling = dotted(value)
    return (index, spelling) if spelling else None


def _base_init_call(init: ast.FunctionDef) -> ast.Call | None:
    """The `super().__init__(...)` call statement of `__init__` `init` (the first one)."""
    return next((stmt.value for stmt in init.body if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
                 and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "__init__"
                 and super_call(stmt.value)), None)


def _class_spelling(value: ast.expr, annotated: dict[str, ast.expr]) -> str | None:
    """The class an `__init__` assignment stores an instance of, as spelled: `Scope()` -> "Scope",
    `QNetwork(**kwargs).to(device)` -> "QNetwork" (a module method returning the module), a
    parameter annotated `processor: "AttnProcessor"` -> "AttnProcessor"."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in RETURNS_SELF \
            and isinstance(value.func.value, ast.Call):
        value = value.func.value
    if isinstance(value, ast.Call):
        return dotted(value.func)
    if isinstance(value, ast.Name) and value.id in annotated:
        annotation = annotated[value.id]
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            text = annotation.value.strip()
            return text if text.replace(".", "").replace("_", "").isalnum() else None
        return dotted(annotation)
    return None


def module_index(project: ProjectIndex, path: str) -> ModuleIndex | None:
    parsed = project.tree(path)
    return ModuleIndex(parsed[0], parsed[1], path, project) if parsed is not None else None


def shared_index(project: ProjectIndex, path: str) -> ModuleIndex | None:
    """The index of another file, built once per version of it and kept in the project index."""
    return project.derived(path, "module_index", lambda: module_index(project, path))


def _marks_constant(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a decorator sets Dynamo's constant-result mark on the function it is given."""
    for sub in walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == CONSTANT_MARK and isinstance(sub.ctx, ast.Store):
            return True
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "setattr" \
                and len(sub.args) == 3 and isinstance(sub.args[1], ast.Constant) and sub.args[1].value == CONSTANT_MARK:
            return True
    return False
