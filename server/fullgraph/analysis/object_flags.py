"""The `self` flags an object's construction decides, and the conditions on them it settles.

`TransformerWrapper(recycling=False)` (or no argument, its default being False), whose `__init__`
stores `self.recycling = recycling`, never runs an `if self.recycling:` branch. A flag counts only
when the construction call gives its parameter a literal (or leaves it its literal default), the
store is a statement of `__init__` itself after any `super().__init__(...)`, and no other
statement of the class or its in-file bases assigns that attribute (nor a `setattr` on `self`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from fullgraph.analysis.call_guards import atoms
from fullgraph.analysis.call_reach import incoming
from fullgraph.analysis.bindings import as_passed, local_bindings, parameter_names
from fullgraph.analysis.callers import bind_arguments
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import self_attribute, super_call, walk
from fullgraph.analysis.regions import ClassInfo, FunctionInfo, ModuleIndex, shared_index
from fullgraph.analysis.summary import self_stores

_NO = object()  # a test the flags do not settle


def construction_flags(index: ModuleIndex, call: ast.Call) -> dict[str, object]:
    """Attribute -> the literal `self.<attribute>` holds in the object `call` (a class call written
    in `index`'s file) makes."""
    spelling = dotted(call.func)
    if not spelling or any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return {}
    init = index.class_method(spelling, "__init__")
    if init is None or init.cls is None:
        return {}
    home = init.module or index
    passed = bind_arguments(init.node, True, call, lambda arg: arg, lambda default: default, facts=False)
    passed[EXTRA] = _extra_keywords(init.node, call, frozenset())
    flags, kept = _init_flags(home, init, passed, 0)
    made = index.object_of(spelling)
    classes = [(home, init.cls), _class_of(index, made.path, made.cls) if made is not None else None]
    stored: set[str] = set()
    for file, cls in filter(None, classes):  # the class defining `__init__`, and the object's own
        found = _stores(file, cls, kept)
        if found is None:
            return {}
        stored |= found
    return {attr: value for attr, value in flags.items() if attr not in stored}


MAX_BASE_INITS = 4  # `super().__init__(...)` calls followed into a base's `__init__`
EXTRA = "**"  # in what a call passes: the names of the keywords its `**kwargs` parameter receives, when known


def _extra_keywords(node: ast.FunctionDef, call: ast.Call, spread: frozenset[str] | None) -> frozenset[str] | None:
    """The keywords `call` passes into `node`'s `**kwargs` parameter: those naming no parameter, and
    `spread`, what a `**kwargs` argument passes on (None: unknown, a `**` argument of anything else)."""
    named = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
    out = {k.arg for k in call.keywords if k.arg is not None and k.arg not in named}
    if any(k.arg is None for k in call.keywords):
        if spread is None:
            return None
        out |= spread - named
    return frozenset(out)


def _popped_default(value: ast.expr, kwargs: str | None, extra: frozenset[str] | None) -> ast.Constant | None:
    """The literal default of `kwargs.pop("key", <literal>)` (or `.get`) where the `**kwargs`
    parameter does not receive `key`."""
    if not (kwargs and extra is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in ("pop", "get") and isinstance(value.func.value, ast.Name)
            and value.func.value.id == kwargs and len(value.args) == 2 and not value.keywords):
        return None
    key, default = value.args
    return default if isinstance(key, ast.Constant) and key.value not in extra and isinstance(default, ast.Constant) \
        else None


def _init_flags(home: ModuleIndex, init, passed: dict, depth: int) -> tuple[dict[str, object], set[int]]:
    """The literal stores of `__init__` `init` given what its parameters hold (`passed`: argument
    nodes), and the ids of those statements; a `super().__init__(...)` it makes first counts with
    the arguments it passes (`BinaryF1Score` passing `zero_division` on to `BinaryFBetaScore`)."""
    params = parameter_names(init.node)
    flags: dict[str, object] = {}
    kept: set[int] = set()
    kwargs = init.node.args.kwarg.arg if init.node.args.kwarg else None
    rebound = local_bindings(init.node)  # a parameter rebound before the store holds what it was set to
    popped_names: set[str] = set()

    def known(name: ast.Name):
        """The literal a parameter (or a popped keyword) holds where the store reads it, or _NO."""
        literal = passed.get(name.id) if name.id in params and (
            name.id in popped_names or name.id not in rebound or as_passed(name, name.id, init.node)) else None
        return literal.value if isinstance(literal, ast.Constant) else _NO

    for stmt in init.node.body:
        if _runs_base_init(stmt):  # a base's `__init__` sets them again: what it stores, if it is known
            flags, kept = _base_flags(home, init, stmt.value, passed, depth)
            continue
        popped = _popped_default(stmt.value, kwargs, passed.get(EXTRA)) if isinstance(stmt, ast.Assign) \
            and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) else None
        if popped is not None and len(rebound.get(stmt.targets[0].id) or ()) == 1:  # `zero_division = kwargs.pop(...)`
            passed = {**passed, stmt.targets[0].id: popped}
            params = params | {stmt.targets[0].id}
            popped_names.add(stmt.targets[0].id)
            continue
        attr, value = _self_store(stmt)
        if attr is None:
            continue
        literal = _folded(value, known)
        if literal is not _NO:
            flags[attr] = literal
            kept.add(id(stmt))
        else:
            flags.pop(attr, None)
    return flags, kept


def _folded(value: ast.expr, known: Callable[[ast.Name], object]):
    """The literal a store's value holds where `known` gives its names' (a name, or `and`/`or`/`not`
    of them that known operands settle: `quantize_dropout and num_quantizers > 1` with
    `quantize_dropout` False is False); _NO otherwise. A constant stored as such is not a flag of
    the construction (`self.gradient_checkpointing = False`, which other code turns on)."""
    if isinstance(value, ast.Name):
        return known(value)
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not):
        inner = _folded(value.operand, known)
        return _NO if inner is _NO else not inner
    if isinstance(value, ast.BoolOp):
        stops = not isinstance(value.op, ast.And)  # `and` stops at a false operand, `or` at a true one
        for operand in value.values:
            found = _folded(operand, known)
            if found is _NO:
                return _NO
            if bool(found) == stops:
                return found
        return found
    return _NO


def _base_flags(home: ModuleIndex, init, call: ast.Call, passed: dict, depth: int) -> tuple[dict[str, object], set[int]]:
    """What a base's `__init__`, called as `super().__init__(...)` from `init`, stores as literals."""
    bases = init.cls.base_names or init.cls.base_spellings
    if depth >= MAX_BASE_INITS or len(bases) != 1 or not super_call(call):
        return {}, set()
    base = home.class_method(bases[0], "__init__")
    if base is None or base.cls is None:
        return {}, set()
    here = parameter_names(init.node)
    given = bind_arguments(base.node, True, call, lambda arg: passed.get(arg.id) if isinstance(arg, ast.Name)
                           and arg.id in here else arg, lambda default: default, facts=False)
    kwargs = init.node.args.kwarg.arg if init.node.args.kwarg else None
    spread = passed.get(EXTRA) if all(k.arg is not None or isinstance(k.value, ast.Name) and k.value.id == kwargs
                                      for k in call.keywords) else None
    given[EXTRA] = _extra_keywords(base.node, call, spread)
    return _init_flags(base.module or home, base, given, depth + 1)


def contradicted(conditions, flags: dict[str, object]) -> bool:
    """Whether a condition on `self.<flag>` a finding sits under cannot hold with these flags."""
    for test, holds in conditions:
        for atom, atom_holds in atoms(test, holds):
            value = _settled(atom, flags)
            if value is not _NO and value != atom_holds:
                return True
    return False


def _through_locals(conditions, fn: ast.AST) -> tuple:
    """`conditions` as atoms, a name `fn` binds once (not a parameter) replaced by what it is bound to."""
    bound, params = local_bindings(fn), parameter_names(fn)
    out = []
    for test, holds in conditions:
        for atom, atom_holds in atoms(test, holds):
            values = bound.get(atom.id) if isinstance(atom, ast.Name) and atom.id not in params else None
            out.extend(atoms(values[0], atom_holds) if values and len(values) == 1 else [(atom, atom_holds)])
    return tuple(out)


def tests_self(conditions) -> bool:
    """Whether some condition reads a `self.<attribute>`."""
    return any(self_attribute(node) for test, _ in conditions for node in walk(test))


def _settled(atom: ast.expr, flags: dict[str, object]):
    """The truth of `self.x`, `self.x is (not) None`, `self.x == / != <literal>` under the flags."""
    if self_attribute(atom) and atom.attr in flags:
        return bool(flags[atom.attr])
    if isinstance(atom, ast.Compare) and len(atom.ops) == 1 and self_attribute(atom.left) \
            and atom.left.attr in flags and isinstance(atom.comparators[0], ast.Constant):
        value, other, op = flags[atom.left.attr], atom.comparators[0].value, atom.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)) and other is None:
            return (value is None) == isinstance(op, ast.Is)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (value == other) == isinstance(op, ast.Eq)
    return _NO


def _runs_base_init(stmt: ast.stmt) -> bool:
    """`super().__init__(...)` or `Base.__init__(self, ...)` as a statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
    return call is not None and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"


def _self_store(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """(`x`, value) for a statement `self.x = value` (or annotated)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and self_attribute(stmt.targets[0]):
        return stmt.targets[0].attr, stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and self_attribute(stmt.target):
        return stmt.target.attr, stmt.value
    return None, None


def _stores(index: ModuleIndex, cls: ClassInfo, kept: set[int]) -> set[str] | None:
    """The `self.<attribute>`s any statement of `cls` or its in-file bases assigns, but those of
    `kept`; None when one sets attributes by name (`setattr(...)`)."""
    out: set[str] = set()
    for c in index.chain(cls):
        stores, by_name = self_stores(c.node)
        if by_name:
            return None
        out.update(attr for attr, found in stores.items() if any(id(stmt) not in kept for _, stmt, _ in found))
    return out


def _class_of(index: ModuleIndex, path: str, name: str) -> tuple[ModuleIndex, ClassInfo] | None:
    """The file index and ClassInfo of class `name` of `path`."""
    home = index if path == index.path else shared_index(index.project, path) if index.project is not None else None
    cls = home.classes.get(name) if home is not None else None
    return (home, cls) if cls is not None else None


class ObjectFlags:
    """The flags of the objects walked functions run on, where the code shows the construction:
    the object a file compiles (`torch.compile(Wrapper(looped=False))`), or a submodule its holder's
    `__init__` makes (`self.block = Block(use_cache=False)`), carried into the object's own methods
    (`self.m(...)`). A function called on several objects keeps the flags they all agree on."""

    def __init__(self, walks, index: ModuleIndex, library: dict[int, ast.Call]) -> None:
        self.walks, self.index, self.library = walks, index, library  # library: id of a library entry -> its compile call
        self._incoming: dict[int, list[tuple[FunctionInfo, ast.AST]]] | None = None
        self._flags: dict[int, dict] = {}
        self._pending: set[int] = set()

    @property
    def incoming(self) -> dict[int, list[tuple[FunctionInfo, ast.AST]]]:
        """Function id -> (caller, call) for each call the walks recorded; gathered on first use (most
        analyses have no finding under a condition on `self`)."""
        if self._incoming is None:
            self._incoming = incoming(self.walks)
        return self._incoming

    def rules_out(self, conditions, function: FunctionInfo) -> bool:
        """Whether a finding of `function` under `conditions` cannot happen on its objects (a local
        bound once to a test of them, `should_drop = self.training and self.dropout`, read as that test)."""
        conditions = _through_locals(conditions, function.node)
        if not conditions or not tests_self(conditions):
            return False
        flags = self.flags(function)
        return bool(flags) and contradicted(conditions, flags)

    def flags(self, function: FunctionInfo) -> dict:
        """The flags every object `function` runs on agrees on."""
        key = id(function)
        if key in self._flags:
            return self._flags[key]
        if key in self._pending:
            return {}
        self._pending.add(key)
        compile_call = self.library.get(key)  # `function` is the `forward` a file compiles
        made = self.index.library_made.get(id(compile_call)) if compile_call is not None else None
        found = [construction_flags(self.index, made)] if made is not None else []
        found += [self._given(function, caller, call) for caller, call in self.incoming.get(key, ())]
        self._pending.discard(key)
        agreed = dict(found[0]) if found else {}
        for other in found[1:]:
            agreed = {k: v for k, v in agreed.items() if k in other and other[k] == v}
        self._flags[key] = agreed
        return agreed

    def _given(self, function: FunctionInfo, caller: FunctionInfo, call: ast.AST) -> dict:
        """The flags one call gives: a submodule's construction (`self.block(x)`), or its caller's
        object (`self.m(x)`); none for a call on anything else."""
        func = getattr(call, "func", None)
        if isinstance(func, ast.Attribute) and isinstance(call, ast.Call) and super_call(call) \
                and caller.cls is not None:
            # `super().forward(x)`: the same object
            return self.flags(caller) if func.attr == function.node.name else {}
        if isinstance(func, ast.Name) and func.id == "self" and caller.cls is not None:
            return self.flags(caller) if function.node.name in ("forward", "__call__") else {}  # `self(x)`
        if not self_attribute(func) or caller.cls is None:
            return {}
        if function.node.name in ("forward", "__call__") and func.attr != function.node.name:
            home = caller.module or self.index
            made = home.attr_made(caller.cls, func.attr)
            return construction_flags(home, made) if made is not None else {}
        return self.flags(caller) if func.attr == function.node.name else {}
