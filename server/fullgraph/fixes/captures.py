"""What a deferred call captures where it stood: the sub-expressions of its arguments (or of a
stored value) that are evaluated at once, while the conversions around them (``.item()``, ``str()``,
f-strings, ``%``, NumPy and ``math`` functions) run at the replay; and whether later code in the
function could change a captured value in place before the replay."""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import parameter_names
from fullgraph.analysis.epilogue import CONVERSION_CALLS, CONVERSION_METHODS
from fullgraph.analysis.facts import VALUE_ATTRS, VALUE_METHODS
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node

# Methods that change a Python container in place (a tensor's in-place methods end with `_`).
CONTAINER_MUTATORS = frozenset(("append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
                                "popitem", "add", "discard", "sort", "reverse"))


def call_parts(call: ast.Call) -> list[ast.expr]:
    """A call's argument expressions, positional and keyword."""
    return [a.value if isinstance(a, ast.Starred) else a for a in call.args] + [k.value for k in call.keywords]


def captured_parts(tree: ast.Module, fn: ast.AST, parts: list[ast.expr]) -> list[ast.expr]:
    """The maximal sub-expressions of ``parts`` that are captured: every one that is not a constant,
    a global name, or a conversion (whose operands are split in turn)."""
    local, resolve = local_names(fn), _resolver(tree)
    out: list[ast.expr] = []
    todo = list(reversed(parts))
    while todo:
        node = todo.pop()
        name = dotted(node)
        if isinstance(node, ast.Constant) or name is not None and name.split(".")[0] not in local:
            continue
        if is_conversion(node) or _numeric(node, resolve):
            todo.extend(reversed(_operands(node)))
            continue
        out.append(node)
    return out


def mutation_reason(fn: ast.AST, captured: list[ast.expr], tensors: set[str]) -> str | None:
    """Why a captured value may be seen changed at the replay: later code in ``fn`` changes it in
    place (``x += 1``, ``x.add_()``, ``x[i] = ...``, ``items.append()``) and it is not known to be a
    tensor, which the capture copies (None: nothing captured can change)."""
    for node in captured:
        name = storage_root(node)
        if name is not None and ast.unparse(node) not in tensors and name not in tensors and mutated_in_place(fn, name):
            return (f"`{name}` is changed in place in this function and not known to be a tensor (which the deferred "
                    "call would copy): replayed later, the call would show it changed")
    return None


def _resolver(tree: ast.Module):
    """What a call's function stands for (``numpy.degrees``): by the file's imports, which the
    engine's one-function scope carries as its ``module_index``, else by the tree's own."""
    index = getattr(tree, "module_index", None)
    if index is not None:
        return index.aliases.resolve
    modules = {(a.asname or a.name): a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names}

    def resolve(func: ast.expr) -> str | None:
        head, _, rest = (dotted(func) or "").partition(".")
        return f"{modules[head]}.{rest}" if head in modules and rest else None
    return resolve


def _numeric(node: ast.expr, resolve) -> bool:
    """A call of a NumPy or `math` function (not NumPy's random generators): Python-side arithmetic
    on converted values, as pure as the conversion itself."""
    name = resolve(node.func) if isinstance(node, ast.Call) else None
    return name is not None and name.startswith(("numpy.", "math.")) and not name.startswith("numpy.random")


@per_node
def local_names(fn: ast.AST) -> frozenset[str]:
    """The function's parameters and the names it assigns."""
    args = fn.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    names |= {n.id for n in walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(names)


def is_conversion(node: ast.expr) -> bool:
    """An expression that turns tensors into Python values or text."""
    if isinstance(node, (ast.JoinedStr, ast.FormattedValue, ast.Tuple, ast.List, ast.Dict)):
        return True
    if isinstance(node, ast.BinOp):
        return any(isinstance(s, (ast.JoinedStr,)) or (isinstance(s, ast.Constant) and isinstance(s.value, str))
                   for s in (node.left, node.right)) or is_conversion(node.left)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id in CONVERSION_CALLS
        if isinstance(node.func, ast.Attribute):
            receiver_is_text = isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
            return node.func.attr in ("item", "tolist") or (receiver_is_text and node.func.attr in CONVERSION_METHODS)
    return False


def _operands(node: ast.expr) -> list[ast.expr]:
    """The sub-expressions a conversion converts."""
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.FormattedValue)]
    if isinstance(node, ast.FormattedValue):
        return [node.value] + ([node.format_spec] if node.format_spec is not None else [])
    if isinstance(node, (ast.Tuple, ast.List)):
        return list(node.elts)
    if isinstance(node, ast.Dict):
        return [v for v in (*node.keys, *node.values) if v is not None]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("item", "tolist"):
        return [node.func.value]
    return [*node.args, *(k.value for k in node.keywords)]


def storage_root(node: ast.expr) -> str | None:
    """The dotted name whose storage ``node`` may be (a view of): ``h`` for ``h``, ``h[0]``,
    ``h.view(-1).t()`` and ``torch.narrow(h, ...)``; None for anything else."""
    while True:
        if isinstance(node, (ast.Subscript, ast.Starred)):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and dotted(node.func.value) not in TORCH_MODULES:
            node = node.func.value  # a method: its result may be its receiver or a view of it
        elif isinstance(node, ast.Call) and dotted(node.func) and dotted(node.func).rpartition(".")[0] in TORCH_MODULES \
                and node.args:
            node = node.args[0]  # `torch.transpose(h, ...)`: a view of its first argument
        else:
            return dotted(node)


def shared_root(node: ast.expr) -> str | None:
    """:func:`storage_root`, but None where the value is known not to share that storage: metadata
    (`h.shape[0]`, `h.size()`) or a new tensor a reduction or an element-wise function makes (`h.sum()`,
    `h.norm()`, `torch.isnan(h).sum()`)."""
    probe = node
    while isinstance(probe, (ast.Subscript, ast.Starred)):
        probe = probe.value
    if isinstance(probe, ast.Attribute) and probe.attr in VALUE_ATTRS:
        return None
    if isinstance(probe, ast.Call):
        name = probe.func.attr if isinstance(probe.func, ast.Attribute) else None
        if name in VALUE_METHODS or name in FRESH_METHODS:
            return None
    return storage_root(node)


# Tensor methods (and `torch.*` functions) whose result is a new tensor, never a view of an argument.
FRESH_METHODS = frozenset(("sum", "mean", "norm", "std", "var", "prod", "max", "min", "amax", "amin", "any", "all",
                           "count_nonzero", "logsumexp", "argmax", "argmin", "clone", "abs", "exp", "log", "sqrt",
                           "sigmoid", "tanh", "softmax", "log_softmax", "isnan", "isinf", "isfinite", "eq", "ne",
                           "lt", "le", "gt", "ge", "add", "sub", "mul", "div", "pow", "matmul", "cumsum", "nonzero"))
# Module paths whose functions take a tensor first (`torch.narrow(h, ...)`), not a receiver.
TORCH_MODULES = frozenset(("torch", "F", "torch.nn.functional", "nn.functional"))
# Builtins whose result never shares storage with an argument.
FRESH_BUILTINS = frozenset(("len", "int", "float", "bool", "str", "repr", "isinstance", "hasattr", "id", "type",
                            "callable", "hash", "format", "round", "abs"))


def _in_place_target(node: ast.AST) -> str | None:
    """The dotted name ``node`` may change in place (``x.add_()``, ``x[0].zero_()``, ``items.append()``,
    ``x[i] = ...``, ``x += 1``, ``out=x``), if any."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and (node.func.attr.endswith("_")
                                                     or node.func.attr in CONTAINER_MUTATORS):
            return storage_root(node.func.value)
        return next((storage_root(k.value) for k in node.keywords if k.arg == "out"), None)
    if isinstance(node, ast.AugAssign):  # a tensor's `+=` works in place
        return storage_root(node.target)
    if isinstance(node, ast.Assign):
        return next((storage_root(t.value) for t in node.targets if isinstance(t, ast.Subscript)), None)
    return None


def mutated_in_place(fn: ast.AST, name: str) -> bool:
    """Whether ``fn`` may change ``name`` in place anywhere, or a name that may share its storage (bound
    from it or it from that name: ``v = h[0]`` then ``v.add_(1)``; ``out = self.drop(h)`` then ``out += x``)."""
    changed = _changed_in_place(fn)
    return bool(changed) and bool(_aliases(fn).get(name, {name}) & changed)


def changed_after(fn: ast.AST, name: str, stmt: ast.stmt) -> bool:
    """Whether ``fn`` may change ``name`` (or a name sharing its storage) in place after ``stmt``:
    below it, or anywhere in a loop around it (the next iteration runs it after)."""
    if not mutated_in_place(fn, name):
        return False
    linked = _aliases(fn).get(name, {name})
    loops = [(n.lineno, n.end_lineno) for n in walk(fn) if isinstance(n, (ast.For, ast.While, ast.AsyncFor))
             and n.lineno <= stmt.lineno and stmt.end_lineno <= n.end_lineno]
    containers = _containers(fn)
    return any(_in_place_target(n) in linked and (n.lineno > stmt.end_lineno or any(a <= n.lineno <= b for a, b in loops))
               and not (isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in containers)
               for n in walk(fn) if isinstance(n, (ast.Call, ast.AugAssign, ast.Assign)))


@per_node
def _containers(fn: ast.AST) -> frozenset[str]:
    """Names every binding of ``fn`` makes a tuple, list or dict display (`outputs = (h,)`; `+=` aside):
    their `+=` extends or rebinds the container, never a tensor in it."""
    return _only_bound(fn, lambda value: isinstance(value, DISPLAYS), lambda value: True)


DISPLAYS = (ast.Tuple, ast.List, ast.Dict)


@per_node
def _changed_in_place(fn: ast.AST) -> frozenset[str]:
    """The dotted names ``fn`` may change in place (one walk per function, whatever it defers); a
    counter's `i += 1` rebinds a number."""
    counters = _counters(fn)
    return frozenset(name for node in walk(fn) if (name := _in_place_target(node)) is not None
                     and not (isinstance(node, ast.AugAssign) and name in counters))


def _counters(fn: ast.AST) -> frozenset[str]:
    """Names ``fn`` only ever binds to a number literal (`i = 0`) and updates by one (`i += 1`, `t -= 0.5`)."""
    return _only_bound(fn, _number, _number)


def _only_bound(fn: ast.AST, assigned, augmented) -> frozenset[str]:
    """Local names (not parameters) that ``fn`` binds with `=` at least once, whose every `name = value`
    satisfies ``assigned`` and every `name op= value` ``augmented``, and that nothing else binds (a
    loop target, an unpacking, a `:=`)."""
    only: dict[str, bool] = {}
    whole: set[int] = set()  # the Name nodes that are whole targets of an `=` or an augmented assignment
    for node in walk(fn):
        if isinstance(node, ast.Assign):
            for target in (t for t in node.targets if isinstance(t, ast.Name)):
                whole.add(id(target))
                only[target.id] = only.get(target.id, True) and assigned(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            whole.add(id(node.target))
            if not augmented(node.value):
                only[node.target.id] = False
    for node in walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in whole:
            only[node.id] = False
    params = parameter_names(fn) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else ()
    return frozenset(name for name, ok in only.items() if ok and name not in params)


def _number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


@per_node
def _aliases(fn: ast.AST) -> dict[str, set[str]]:
    """Each dotted name a binding of ``fn`` links to another that may share its storage, with the
    names it is linked to (through any number of bindings, either way): what a later in-place change
    of one may change in the other."""
    groups: dict[str, set[str]] = {}
    for node in walk(fn):
        for targets, value in _bindings(node):
            names = {t for t in targets if t} | _sources(value)
            if len(names) < 2:
                continue
            merged = set(names)
            for name in names:
                merged |= groups.get(name, set())
            for name in merged:
                groups[name] = merged
    return groups


def _bindings(node: ast.AST):
    """(target names, value) of a binding statement or expression."""
    if isinstance(node, ast.Assign):
        yield [n for t in node.targets for n in _target_names(t)], node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        yield _target_names(node.target), node.value
    elif isinstance(node, ast.NamedExpr):
        yield _target_names(node.target), node.value
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        yield _target_names(node.target), node.iter
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        yield _target_names(node.optional_vars), node.context_expr


def _target_names(target: ast.expr) -> list[str | None]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    return [storage_root(target)]


def _sources(value: ast.expr) -> set[str]:
    """The names whose storage ``value`` may be: its own root, the elements of a literal, a
    conditional expression's sides, and the arguments of a function call that may return one of them."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return {n for elt in value.elts for n in _sources(elt)}
    if isinstance(value, ast.IfExp):
        return _sources(value.body) | _sources(value.orelse)
    root = storage_root(value)
    if root is not None:
        return {root}
    if isinstance(value, ast.Call) and not (isinstance(value.func, ast.Name) and value.func.id in FRESH_BUILTINS):
        return {n for arg in call_parts(value) for n in _sources(arg)}
    return set()
