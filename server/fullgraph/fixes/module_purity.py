"""Submodule calls that are safe to run on both sides of a ``torch.where``.

A call is pure when it draws no random numbers, mutates no state (no buffers, no running
statistics, no in-place updates of its inputs), has no parameters (on the side not taken they
would get zero gradients where the original leaves none), does no I/O, cannot raise on data (no
``raise``/``assert``, no embedding lookups or computed indices) and returns one tensor: ``torch.nn`` layers of a known list, and in-file modules or helpers whose bodies
only do that, followed through ``self.<sub>`` attributes, ``ModuleList`` elements and the class's
own undecorated methods (``self.helper(x)``, which must not read the class's parameters either).
"""

from __future__ import annotations

import ast

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node
from fullgraph.fixes.captures import local_names
from fullgraph.fixes.purity import is_pure_call
from fullgraph.fixes.sites import enclosing_function, parents

PURE_LAYERS = frozenset((
    "Linear", "Bilinear", "LazyLinear", "Identity", "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm",
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "ReLU", "ReLU6", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Softplus", "ELU",
    "LeakyReLU", "Hardtanh", "Hardswish", "Hardsigmoid", "PReLU", "GLU", "Flatten", "Unflatten",
    "AvgPool1d", "AvgPool2d", "MaxPool1d", "MaxPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "Upsample",
    "PixelShuffle", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d",
))
IMPURE_LAYERS = {
    "Dropout": "draws random numbers (dropout) in training", "Dropout1d": "draws random numbers (dropout) in training",
    "Dropout2d": "draws random numbers (dropout) in training", "AlphaDropout": "draws random numbers (dropout) in training",
    "BatchNorm1d": "updates its running statistics in training", "BatchNorm2d": "updates its running statistics in training",
    "BatchNorm3d": "updates its running statistics in training", "LSTM": "is a recurrent module", "GRU": "is a recurrent module",
    "RNN": "is a recurrent module", "MultiheadAttention": "may apply dropout in training",
}
# Layers with parameters: run on the side not taken, they would get zero gradients where the
# original gives none, and optimizers such as AdamW still update a parameter whose gradient is zero.
PARAMETERIZED = frozenset(("Linear", "Bilinear", "LazyLinear", "LayerNorm", "GroupNorm", "RMSNorm", "Conv1d", "Conv2d",
                           "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "PReLU"))
GRADIENTS = ("has parameters, which would get zero gradients instead of none on the side not taken "
             "(optimizers such as AdamW still update them)")
MAX_DEPTH = 6
TORCH_ROOTS = frozenset(("torch", "F", "nn"))


def module_classes(tree: ast.AST) -> dict[str, ast.ClassDef]:
    """The file's top-level classes (from the module index the engine attaches to its small fix
    scopes, else the tree's own top level)."""
    return _top_level(tree, "classes", ast.ClassDef)


def module_functions(tree: ast.AST) -> dict[str, ast.FunctionDef]:
    """The file's top-level functions, like :func:`module_classes`."""
    return _top_level(tree, "functions", ast.FunctionDef)


def _top_level(tree: ast.AST, kind: str, node_type: type) -> dict:
    index = getattr(tree, "module_index", None)
    if index is None:
        return {node.name: node for node in getattr(tree, "body", []) if isinstance(node, node_type)}
    return per_file(tree, kind, lambda: {name: info.node for name, info in getattr(index, kind).items()
                                         if isinstance(info.node, node_type)})


def per_file(tree: ast.AST, name: str, compute):
    """``compute()`` once per analysis of the file: kept on the module index the engine attaches to
    its small fix scopes and shared by every scope (without one, computed each time)."""
    index = getattr(tree, "module_index", None)
    if index is None:
        return compute()
    memo = f"_fix_{name}"
    if not hasattr(index, memo):
        setattr(index, memo, compute())
    return getattr(index, memo)


def owner_class(tree: ast.AST, fn: ast.AST | None) -> ast.ClassDef | None:
    """The class ``fn`` is a method of (the whole class, also from the engine's small scope)."""
    if fn is None:
        return None
    parent = next((s for s in getattr(tree, "body", ()) if isinstance(s, ast.ClassDef) and any(m is fn for m in s.body)),
                  None)  # a top-level class, found without a parent map of the whole tree (fix-all asks per fix)
    if parent is None:
        parent = parents(tree).get(fn)
    if isinstance(parent, ast.ClassDef):  # in the engine's scope, a shell of the class
        return module_classes(tree).get(parent.name, parent)
    return None


class Purity:
    """Answers "may this call run on both sides?" for the calls of one function."""

    def __init__(self, tree: ast.AST, fn: ast.AST | None, cls: ast.ClassDef | None = None, memo: dict | None = None):
        self.tree, self.fn = tree, fn
        self.classes, self.functions = module_classes(tree), module_functions(tree)
        self._cls = cls
        self._owner_known = memo is not None
        self.memo: dict[tuple, str | None] = {} if memo is None else memo  # shared by the callees' oracles

    @property
    def cls(self) -> ast.ClassDef | None:
        """The class of the function (looked up only when a call needs it)."""
        if not self._owner_known:
            self._cls, self._owner_known = owner_class(self.tree, self.fn), True
        return self._cls

    def _known_pure(self, call: ast.Call) -> bool:
        """A pure torch operation or a method of a local value (a module-level receiver such as a
        logger, ``np`` or a registry is never taken for a tensor)."""
        if not is_pure_call(call):
            return False
        root = call.func
        while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if not isinstance(root, ast.Name) or isinstance(call.func, ast.Name):
            return True
        return root.id in TORCH_ROOTS or (self.fn is not None and root.id in local_names(self.fn))

    def call_reason(self, call: ast.Call) -> str | None:
        """Why ``call`` can't run on both sides (None: it is pure)."""
        if self._known_pure(call):
            return None
        built = self._constructor(call.func)
        if built is None:
            return f"calls `{ast.unparse(call.func)}`, which is not known to be pure"
        return self._built_reason(built, ast.unparse(call.func), 0)

    def _constructor(self, func: ast.expr) -> ast.expr | None:
        """What a called module was built from: ``self.sub`` → its ``__init__`` value; a loop variable
        over ``self.layers`` → the ``ModuleList``'s element; a top-level function name → itself."""
        if isinstance(func, ast.Attribute) and dotted(func.value) == "self" and self.cls is not None:
            return init_value(self.cls, func.attr) or plain_method(self.cls, func.attr)
        if isinstance(func, ast.Name):
            element = self._loop_element(func.id)
            if element is not None:
                return element
            if func.id in self.functions and not self._local(func.id):
                return ast.Name(func.id)
        return None

    def _local(self, name: str) -> bool:
        return self.fn is not None and any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                                           for n in walk(self.fn))

    def _loop_element(self, name: str) -> ast.expr | None:
        """``for layer in self.layers`` (or ``enumerate(self.layers)``): the module the list holds."""
        if self.fn is None or self.cls is None:
            return None
        loops = [n for n in walk(self.fn) if isinstance(n, ast.For)]
        stores = [n for n in walk(self.fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
        for loop in loops:
            target, source = loop.target, loop.iter
            if isinstance(source, ast.Call) and dotted(source.func) == "enumerate" and len(source.args) == 1 \
                    and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                target, source = target.elts[1], source.args[0]
            if isinstance(target, ast.Name) and target.id == name and len(stores) == 1 and dotted(source) \
                    and dotted(source).startswith("self.") and dotted(source).count(".") == 1:
                container = init_value(self.cls, source.attr)
                return _list_element(container)
        return None

    def _built_reason(self, built: ast.expr, label: str, depth: int) -> str | None:
        if depth > MAX_DEPTH:
            return f"calls `{label}`, whose code is nested too deeply to prove pure"
        if isinstance(built, ast.Name) and built.id in self.functions:
            inner = self._body_reason(self.functions[built.id], None, built.id, depth)
            return None if inner is None else f"calls `{label}`: {inner}"
        if isinstance(built, ast.FunctionDef):  # a method of the class, on the same module
            read = _parameters_read(self.cls, built)
            if read is not None:
                return f"calls `{label}`, which {read}: it would get zero gradients instead of none on the side " \
                       "not taken (optimizers such as AdamW still update it)"
            inner = self._body_reason(built, self.cls, f"{self.cls.name}.{built.name}", depth)
            return None if inner is None else f"calls `{label}`: {inner}"
        if not isinstance(built, ast.Call):
            return f"calls `{label}`, which is not known to be pure"
        name = dotted(built.func) or ""
        last = name.rpartition(".")[2]
        if last in IMPURE_LAYERS and (name.startswith(("nn.", "torch.nn.")) or last == name):
            return f"calls `{label}` (`{last}`), which {IMPURE_LAYERS[last]}"
        if name in ("nn.Sequential", "torch.nn.Sequential"):
            for part in built.args:
                reason = self._built_reason(part, label, depth + 1)
                if reason is not None:
                    return reason
            return None
        if last in PURE_LAYERS and name.startswith(("nn.", "torch.nn.")):
            return f"calls `{label}` (`{last}`), which {GRADIENTS}" if last in PARAMETERIZED else None
        if name in self.classes:
            cls = self.classes[name]
            forward = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "forward"), None)
            if forward is None:
                return f"calls `{label}` (`{name}`), whose `forward` is not in this file"
            if _owns_parameters(cls):
                return f"calls `{label}` (`{name}`), which {GRADIENTS}"
            inner = self._body_reason(forward, cls, f"{name}.forward", depth)
            return None if inner is None else f"calls `{label}`: {inner}"
        return f"calls `{label}` (`{name}`), which is not known to be pure"

    def _body_reason(self, fn: ast.FunctionDef, cls: ast.ClassDef | None, label: str, depth: int) -> str | None:
        key = (id(fn), id(cls))
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = f"`{label}` calls itself"
        reason = Purity(self.tree, fn, cls, self.memo)._statements_reason(fn, label, depth)
        self.memo[key] = reason
        return reason

    def _statements_reason(self, fn: ast.FunctionDef, label: str, depth: int) -> str | None:
        returns = [n for n in walk(fn) if isinstance(n, ast.Return)]
        if not returns or any(r.value is None or isinstance(r.value, (ast.Tuple, ast.List, ast.Dict)) for r in returns):
            return f"`{label}` does not return a single tensor"
        for node in walk(fn):
            if node is fn:
                continue
            if isinstance(node, (ast.Raise, ast.Assert)):
                return f"`{label}` can raise (`{ast.unparse(node).splitlines()[0]}`)"
            if isinstance(node, (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await, ast.Delete,
                                 ast.FunctionDef, ast.Lambda, ast.ClassDef, ast.Try, ast.With, ast.While)):
                return f"`{label}` contains a `{type(node).__name__.lower()}`"
            if isinstance(node, ast.AugAssign):
                return f"`{label}` updates `{ast.unparse(node.target)}` in place"
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in walk(target)):
                        return f"`{label}` assigns `{ast.unparse(target)}`"
            if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Store) and _data_index(node):
                return f"`{label}` indexes `{ast.unparse(node)}` with a computed index"
            if isinstance(node, ast.Call):
                reason = self._inner_call_reason(node, label, depth)
                if reason is not None:
                    return reason
        return None

    def _inner_call_reason(self, call: ast.Call, label: str, depth: int) -> str | None:
        func = call.func
        name = dotted(func) or ""
        if name.rpartition(".")[2] in ("dropout", "dropout1d", "dropout2d", "alpha_dropout", "feature_alpha_dropout"):
            return f"`{label}` calls `{name}`, which draws random numbers in training"
        if self._known_pure(call):
            return None
        if isinstance(func, ast.Name) and func.id in ("len", "isinstance"):
            return None
        built = self._constructor(func)
        if built is None:
            return f"`{label}` calls `{ast.unparse(func)}`, which is not known to be pure"
        inner = self._built_reason(built, ast.unparse(func), depth + 1)
        return None if inner is None else f"`{label}` {inner}"


def _owns_parameters(cls: ast.ClassDef) -> bool:
    """``nn.Parameter(...)`` or ``register_parameter`` in the class's ``__init__``."""
    return bool(_parameter_names(cls))


@per_node
def _parameter_names(cls: ast.ClassDef) -> frozenset[str]:
    """The attributes the class's ``__init__`` makes parameters (``*``: one made under a name it
    does not spell, as in a ``ParameterList``)."""
    init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
    nodes = list(walk(init)) if init is not None else []
    names: set[str] = set()
    assigned = set()
    for n in nodes:
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and _called(n.value) == "Parameter":
            paths = [dotted(t) or "" for t in n.targets]  # `self.scale`, or `self.embedding.weight`: via `embedding`
            named = [p.split(".")[1] for p in paths if p.startswith("self.")]
            names.update(named)
            assigned.update([id(n.value)] if named else [])
        elif isinstance(n, ast.Call) and _called(n) == "register_parameter":
            first = n.args[0] if n.args else None
            names.add(first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else "*")
    if any(isinstance(n, ast.Call) and _called(n) == "Parameter" and id(n) not in assigned for n in nodes):
        names.add("*")
    return frozenset(names)


def _called(call: ast.Call) -> str:
    return (dotted(call.func) or "").rpartition(".")[2]


def plain_method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    """The undecorated method ``name`` the class itself defines, when nothing assigns ``self.<name>``."""
    method = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == name), None)
    if method is None or method.decorator_list or name in _self_assigned(cls):
        return None
    return method


@per_node
def _self_assigned(cls: ast.ClassDef) -> frozenset[str]:
    """The attributes the class assigns on ``self`` anywhere (``self.<name> = ...``)."""
    return frozenset(t.attr for n in walk(cls) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                     if isinstance(t, ast.Attribute) and dotted(t.value) == "self")


def _parameters_read(cls: ast.ClassDef, method: ast.FunctionDef) -> str | None:
    """Why the method may read a parameter of the class: a ``self.<attr>`` that holds one (any
    ``self.<attr>`` when ``__init__`` makes one under a name it does not spell)."""
    names = _parameter_names(cls)
    for n in walk(method) if names else ():
        if isinstance(n, ast.Attribute) and dotted(n.value) == "self" and n.attr in names:
            return f"reads `self.{n.attr}`, which holds a parameter"
        if isinstance(n, ast.Attribute) and dotted(n.value) == "self" and "*" in names:
            return f"reads `self.{n.attr}`, which may hold a parameter (`__init__` makes one it does not name)"
    return None


def _data_index(node: ast.Subscript) -> bool:
    """An index computed from anything but constants, slices of constants and names."""
    for sub in walk(node.slice):
        if isinstance(sub, (ast.Call, ast.Compare, ast.Subscript)):
            return True
    return False


def submodule_attrs(tree: ast.AST, fn: ast.AST | None) -> frozenset[str]:
    """The attributes the class of ``fn`` assigns a module in `__init__` (`self.proj = nn.Linear(...)`,
    `self.block = Block(...)`: a call of a capitalised name)."""
    cls = owner_class(tree, fn)
    init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None) if cls else None
    found = set()
    for sub in walk(init) if init is not None else ():
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call) \
                and (dotted(sub.value.func) or "").rpartition(".")[2][:1].isupper():
            found.update(t.attr for t in sub.targets if isinstance(t, ast.Attribute)
                         and isinstance(t.value, ast.Name) and t.value.id == "self")
    return frozenset(found)


def init_value(cls: ast.ClassDef | None, attr: str) -> ast.expr | None:
    """What ``__init__`` assigns to ``self.<attr>`` (its only assignment there), if anything."""
    init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None) if cls else None
    if init is None:
        return None
    found = [sub.value for sub in walk(init) if isinstance(sub, ast.Assign)
             and any(dotted(t) == f"self.{attr}" for t in sub.targets)]
    return found[0] if len(found) == 1 else None


def _list_element(container: ast.expr | None) -> ast.expr | None:
    """The module built for each element of ``nn.ModuleList([Block(...) for _ in ...])``."""
    if not (isinstance(container, ast.Call) and (dotted(container.func) or "").endswith("ModuleList") and container.args):
        return None
    items = container.args[0]
    if isinstance(items, (ast.ListComp, ast.GeneratorExp)):
        return items.elt
    if isinstance(items, (ast.List, ast.Tuple)) and items.elts and all(ast.dump(e) == ast.dump(items.elts[0]) for e in items.elts):
        return items.elts[0]
    return None


def purity_for(tree: ast.AST, node: ast.AST) -> Purity:
    """The purity oracle for the function around ``node``."""
    return Purity(tree, enclosing_function(tree, node))
