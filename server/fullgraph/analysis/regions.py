"""Compiled regions: the module index (classes, functions, aliases) and the entry points.

Built from the top-level statements and class bodies only; the whole tree is walked once
more only when the text has a ``compile(`` call (to find ``torch.compile(x)`` targets).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from fullgraph.analysis.facts import ENUM_BASES, TENSOR, VALUE, Module
from fullgraph.analysis.imports import Aliases

COMPILE = ("torch.compile",)
DISABLE = ("torch.compiler.disable", "torch._dynamo.disable", "torch._disable_dynamo")
_COMPILE_CALL = re.compile(r"compile\s*\(")  # a cheap pre-filter (no \b: that makes it 40x slower)
MODULE_CONTAINERS = ("torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.ModuleDict")
LOGGER_FACTORIES = ("getLogger", "get_logger")


@dataclass
class FunctionInfo:
    """A module-level function or a method of a top-level class."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    cls: ClassInfo | None = None
    disabled: bool = False  # decorated with torch.compiler.disable
    assumed: bool = False  # an entry only because assume_compiled = "all" says every function is


@dataclass
class ClassInfo:
    """A top-level class: its methods, bases and what `__init__` assigns to `self`."""

    node: ast.ClassDef
    name: str
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    attrs: dict[str, object] = field(default_factory=dict)  # self.<attr> -> fact
    base_names: list[str] = field(default_factory=list)  # in-file bases
    base_qualnames: list[str] = field(default_factory=list)  # imported bases


class ModuleIndex:
    """Everything about a file the per-function walk needs to look up."""

    def __init__(self, tree: ast.Module, source: str) -> None:
        self.aliases = Aliases()
        self.functions: dict[str, FunctionInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.loggers: set[str] = set()
        self.instances: dict[str, str] = {}  # module variable -> in-file class it was built from
        self._module_memo: dict[str, bool] = {}
        self.return_memo: dict[tuple, object] = {}  # (function id, argument facts) -> return fact
        self.return_depth = 0
        for stmt in tree.body:
            self._top_level(stmt)
        for info in self.classes.values():
            self._class_attrs(info)
        self.compiled_targets: list[FunctionInfo] = []
        if _COMPILE_CALL.search(source):
            self._compile_calls(tree)

    # -- indexing ---------------------------------------------------------------------

    def _top_level(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.aliases.add_import(stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[stmt.name] = FunctionInfo(stmt, stmt.name, None, self._disabled(stmt))
        elif isinstance(stmt, ast.ClassDef):
            self._add_class(stmt)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            self._module_assign(stmt)
        elif isinstance(stmt, (ast.If, ast.Try)):  # imports under `if TYPE_CHECKING` / try-except
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    self._top_level(child)
                elif isinstance(child, ast.ExceptHandler):
                    for inner in child.body:
                        self._top_level(inner)

    def _module_assign(self, stmt: ast.Assign) -> None:
        func = stmt.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                if name in LOGGER_FACTORIES:
                    self.loggers.add(target.id)
                else:
                    self.instances[target.id] = name

    def _add_class(self, node: ast.ClassDef) -> None:
        info = ClassInfo(node, node.name)
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in self.classes:
                info.base_names.append(base.id)
            else:
                q = self.aliases.resolve(base) or (base.id if isinstance(base, ast.Name) else None)
                if q:
                    info.base_qualnames.append(q)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{node.name}.{stmt.name}"
                info.methods[stmt.name] = FunctionInfo(stmt, qual, info, self._disabled(stmt))
        self.classes[node.name] = info

    def _disabled(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if self.aliases.resolve(target) in DISABLE:
                return True
        return False

    def _class_attrs(self, info: ClassInfo) -> None:
        """What `__init__` assigns to `self.<attr>` (statements only, through nested blocks)."""
        init = info.methods.get("__init__")
        todo = list(reversed(init.node.body)) if init is not None else []
        local: dict[str, ast.expr] = {}  # `layers = [Block(...) for ...]` before `nn.ModuleList(layers)`
        while todo:
            stmt = todo.pop()
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == "self":
                        info.attrs[target.attr] = self.value_fact(stmt.value, local)
                    elif isinstance(target, ast.Name):
                        local[target.id] = stmt.value
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                if isinstance(call.func, ast.Attribute) and call.func.attr in ("register_buffer", "register_parameter") \
                        and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
                    info.attrs[call.args[0].value] = TENSOR
            else:
                for name in ("finalbody", "handlers", "orelse", "body"):
                    todo.extend(reversed(getattr(stmt, name, ())))

    def value_fact(self, value: ast.expr, local: dict[str, ast.expr] | None = None):
        """The fact of a value assigned to `self.x` in `__init__` (`local`: what its local names hold)."""
        if isinstance(value, ast.Constant):
            return VALUE
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Name) and func.id in self.classes:
            return Module(func.id) if self.is_module_class(func.id) else None
        q = self.aliases.resolve(func)
        if q is None:
            return None
        if q in MODULE_CONTAINERS:
            return Module(q, self._element(value, local or {}))
        if q in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
            return TENSOR
        head, _, last = q.rpartition(".")
        if head.startswith("torch.nn") and last[:1].isupper():
            return Module(q)
        if head == "torch" and last[:1].islower():
            return TENSOR
        return None

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
        calls = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned[target.id] = node.value.func.id
            elif isinstance(node, ast.Call) and node.args and self.aliases.resolve(node.func) in COMPILE:
                calls.append(node.args[0])
        for arg in calls:
            info = self._target(arg, assigned)
            if info is not None:
                self.compiled_targets.append(info)

    def _target(self, arg: ast.expr, assigned: dict[str, str]) -> FunctionInfo | None:
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):  # torch.compile(Model())
            return self.method(arg.func.id, "forward")
        if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):  # model.forward
            return self.method(assigned.get(arg.value.id, arg.value.id), arg.attr)
        if isinstance(arg, ast.Name):
            if arg.id in self.functions:
                return self.functions[arg.id]
            return self.method(assigned.get(arg.id, arg.id), "forward")
        return None

    # -- queries ----------------------------------------------------------------------

    def method(self, cls: str, name: str) -> FunctionInfo | None:
        """`cls.name`, looked up through in-file base classes."""
        seen = set()
        todo = [cls]
        while todo:
            c = todo.pop(0)
            info = self.classes.get(c)
            if info is None or c in seen:
                continue
            seen.add(c)
            if name in info.methods:
                return info.methods[name]
            todo.extend(info.base_names)
        return None

    def attr(self, cls: ClassInfo, name: str):
        """The fact of `self.<name>` in methods of `cls` (through in-file bases)."""
        todo, seen = [cls], set()
        while todo:
            c = todo.pop(0)
            if c.name in seen:
                continue
            seen.add(c.name)
            if name in c.attrs:
                return c.attrs[name]
            todo.extend(self.classes[b] for b in c.base_names)
        return None

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

    def is_module_class(self, name: str) -> bool:
        """An nn.Module subclass: a `torch.nn` base, an in-file module base, or an imported
        base (e.g. `PreTrainedModel`) with a `forward(self, ...)` method."""
        if name not in self._module_memo:
            self._module_memo[name] = False  # cycles
            info = self.classes[name]
            result = any(self.is_module_class(b) for b in info.base_names) or any(
                q.startswith("torch.nn.") and q.rpartition(".")[2][:1].isupper() for q in info.base_qualnames)
            if not result and "forward" in info.methods:
                forward = info.methods["forward"].node
                args = forward.args.posonlyargs + forward.args.args
                result = bool(info.base_qualnames) and bool(args) and args[0].arg == "self" and not any(
                    q.startswith(("torch.autograd", "object")) for q in info.base_qualnames)
            self._module_memo[name] = result
        return self._module_memo[name]

    def entries(self, assume_compiled: str) -> list[FunctionInfo]:
        """The compiled entry points under the `assume_compiled` mode, in source order."""
        found: dict[int, FunctionInfo] = {}
        everything = [*self.functions.values(), *(m for c in self.classes.values() for m in c.methods.values())]
        targets = {id(info) for info in self.compiled_targets}
        for info in everything:
            if info.disabled:
                continue
            declared = self._decorated(info.node) or id(info) in targets or info.cls is not None \
                and info.node.name == "forward" and self.is_module_class(info.cls.name)
            info.assumed = assume_compiled == "all" and not declared
            if assume_compiled == "all" or self._decorated(info.node) or assume_compiled == "modules" \
                    and info.cls is not None and info.node.name == "forward" and self.is_module_class(info.cls.name):
                found[id(info)] = info
        for info in self.compiled_targets:
            if not info.disabled:
                found[id(info)] = info
        return sorted(found.values(), key=lambda i: i.node.lineno)

    def _decorated(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if self.aliases.resolve(target) in COMPILE:
                return True
        return False
