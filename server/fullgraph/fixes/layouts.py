"""Whether the values a `torch.where`/`torch.cond` rewrite merges have one shape and dtype.

`torch.where(c, a, b)` broadcasts `a` and `b` and promotes their dtypes, while the `if` it replaces
returned one of them as it was: `torch.where(c, x.sum(), x)` has `x`'s shape where the original
returned a 0-d tensor, and `torch.where(c, x / 2, x)` is float where the original kept an integer
`x`. `torch.cond` refuses branches whose outputs differ. So a value's layout is worked out from the
source alone: the name whose shape it keeps (its root: elementwise arithmetic with numbers and 0-d
reductions, `clamp`, `masked_fill`, `*_like` factories...), whether it is 0-d, and whether it may
turn an integer tensor into a float one (true division, a float operand, `exp`, `sigmoid`...).
Values with the same root and the same float-making keep one layout; anything the rules here do
not cover is unknown, and the rewrite is declined.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from fullgraph.analysis.bindings import bindings_among
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node
from fullgraph.fixes.module_purity import owner_class, submodule_attrs


# Methods and `torch.*` functions whose result has their input's shape and dtype.
SAME = frozenset(("clamp", "clip", "clamp_min", "clamp_max", "masked_fill", "clone", "detach", "contiguous", "abs",
                  "neg", "negative", "nan_to_num", "relu", "zeros_like", "ones_like", "full_like", "empty_like",
                  "where", "maximum", "minimum", "sign", "floor", "ceil", "round", "trunc"))
# ... the input's shape, a floating dtype.
FLOATING = frozenset(("exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sigmoid", "tanh", "sin", "cos", "erf",
                      "reciprocal", "softmax", "log_softmax", "rand_like", "randn_like", "float", "gelu", "silu",
                      "leaky_relu", "elu", "softplus", "dropout"))
# Element-wise logical ops and tests: a boolean of their operands' broadcast shape.
LOGICAL = frozenset(("logical_not", "logical_and", "logical_or", "logical_xor", "isnan", "isinf", "isfinite",
                     "isposinf", "isneginf"))
# Called with no argument: a 0-d result (floating for the averages).
REDUCTIONS = frozenset(("sum", "prod", "max", "min", "amax", "amin", "all", "any"))
FLOAT_REDUCTIONS = frozenset(("mean", "norm", "std", "var"))
# Ops that raise on an integer tensor: applying one shows the tensor is floating-point.
FLOAT_ONLY = FLOAT_REDUCTIONS | frozenset(("softmax", "log_softmax", "layer_norm", "group_norm", "batch_norm"))
MAX_DEPTH = 8


@dataclass(frozen=True)
class Layout:
    """The name whose shape a value keeps (None: a 0-d value or a number), whether it may be a float
    made from an integer tensor, whether arithmetic made it from a boolean tensor (an integer one),
    and whether it is a boolean tensor."""

    root: str | None
    floating: bool
    arith: bool = False
    boolean: bool = False  # a boolean tensor by construction (a comparison, a logical op)


class LayoutCheck:
    """Layouts of values in one function, around the statement or expression a rewrite replaces
    (``rewritten``: its own bindings are not followed), in the module ``tree`` (whose class's
    submodules' outputs are floating). The function's bindings are read once."""

    def __init__(self, fn: ast.AST | None, rewritten: ast.AST, tree: ast.AST | None = None) -> None:
        self.fn = fn
        self.tree = tree
        self.rewritten = rewritten
        self.bindings = _outside_bindings(fn, rewritten)
        cls = owner_class(tree, fn) if tree is not None else None
        self.cls = cls
        self.bindings.update(zero_dim_attributes(cls) if cls is not None else {})

    def merge(self, alternatives: list[ast.expr], body_values: list[dict[str, ast.expr]], what: str) -> Layout | str:
        """The layout ``alternatives`` (one per branch; ``body_values[i]``: what names hold inside branch
        ``i`` before its value) share, or why merging them could change a shape or a dtype."""
        layouts = []
        for value, inside in zip(alternatives, body_values):
            layout = _layout(value, self.bindings, inside, 0)
            if layout is None:
                return f"{what} `{ast.unparse(value)}` may not have the shape and dtype of the other branch's" \
                    + self._unannotated(value)
            layouts.append(layout)
        shown = ", ".join(f"`{ast.unparse(v)}`" for v in alternatives)
        if any(layout.root != layouts[0].root for layout in layouts):
            return f"the branches' values ({shown}) may differ in shape"
        if any((layout.floating, layout.arith) != (layouts[0].floating, layouts[0].arith) for layout in layouts) \
                and not (layouts[0].root and self._floating_root(layouts[0].root)):
            subject = f"`{layouts[0].root}` is a floating-point tensor" if layouts[0].root \
                else "they are floating-point tensors"
            return f"the branches' values ({shown}) may differ in dtype (nothing shows {subject})"
        return layouts[0]

    def _unannotated(self, value: ast.expr) -> str:
        """A hint naming an attribute of ``value`` set once from an unannotated parameter (`self.clip =
        clip`), which could be a tensor of any shape: annotated ``float``, it would be known a number."""
        once = _set_once(self.cls) if self.cls is not None else {}
        for node in walk(value):
            if isinstance(node, ast.Attribute) and _is_self(node.value) and node.attr in once:
                made, method = once[node.attr]
                arg = next((a for a in walk(method.args) if isinstance(a, ast.arg) and isinstance(made, ast.Name)
                            and a.arg == made.id and a.annotation is None), None)
                if arg is not None:
                    return (f" (nothing shows `self.{node.attr}` is a number: annotate `{method.name}`'s parameter "
                            f"`{arg.arg}` `float` or `int` to allow the rewrite)")
        return ""

    def layout(self, node: ast.expr) -> Layout | None:
        """The layout of ``node`` (None: unknown)."""
        return _layout(node, self.bindings, {}, 0)

    def root(self, node: ast.expr) -> str | None:
        """The name whose shape ``node`` keeps (None: unknown, or a 0-d value)."""
        layout = _layout(node, self.bindings, {}, 0)
        return layout.root if layout is not None else None

    def zero_dim_reason(self, node: ast.expr, what: str, shaped_like: str | None = None) -> str | None:
        """Why ``node`` (a condition, or a tensor read as a Python number) may have a dimension: a
        `(1, 1)` tensor passes `if` and `.item()`, but `torch.where` and arithmetic broadcast with it
        (unless it has the shape of ``shaped_like``, the root of the values it selects between)."""
        layout = _layout(node, self.bindings, {}, 0)
        if layout is not None and layout.root in (None, shaped_like):
            return None
        return f"{what} `{ast.unparse(node)}` is not known to be 0-d (a one-element tensor of more dimensions broadcasts)"

    def _floating_root(self, name: str) -> bool:
        """Whether ``name`` is a floating-point tensor: one of its bindings makes a float (a float op, a
        submodule's output), or the function applies an op that raises on integers (`mean`, `norm`) to it
        or to a value of its layout."""
        for value in self.bindings.get(name) or ():
            layout = _layout(value, self.bindings, {}, 0)
            if layout is not None and layout.floating or isinstance(value, ast.Call) and self._submodule_call(value.func):
                return True
        for node in walk(self.fn) if self.fn is not None else ():
            if isinstance(node, ast.Call) and _name(node.func) in FLOAT_ONLY:
                method = isinstance(node.func, ast.Attribute) and not _is_module_path(node.func.value)
                subject = node.func.value if method else (node.args[0] if node.args else None)
                layout = _layout(subject, self.bindings, {}, 0) if subject is not None else None
                if layout is not None and layout.root == name:
                    return True
        return self._rebound_floating(name)

    def _rebound_floating(self, name: str) -> bool:
        """A name (a parameter, say) that the function's top-level code last binds before the rewritten
        code to a floating value (`x = x.float()`), with no other binding of it before that code."""
        body = getattr(self.fn, "body", None)
        line = getattr(self.rewritten, "lineno", None)
        if not body or line is None:
            return False
        top = [s for s in body if s.end_lineno < line and isinstance(s, ast.Assign) and len(s.targets) == 1
               and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
        stores = [n for n in walk(self.fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                  and n.lineno < line]
        if not top or len(stores) != len(top):
            return False
        layout = _layout(top[-1].value, self.bindings, {}, 0)
        return layout is not None and layout.floating

    def _submodule_call(self, func: ast.expr) -> bool:
        """`self.proj(...)` where `__init__` assigns `self.proj` a module: a layer's output, floating."""
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and self.tree is not None and func.attr in submodule_attrs(self.tree, self.fn)


ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)  # of a boolean tensor: an integer one
# Of SAME, those whose result takes its arguments' dtype too (type promotion), not only the tensor's.
PROMOTING = frozenset(("clamp", "clip", "clamp_min", "clamp_max", "where", "maximum", "minimum"))
FLOAT_DTYPES = frozenset(("float16", "half", "bfloat16", "float32", "float", "float64", "double"))
SHAPE_CHANGES = frozenset(("resize_", "resize_as_", "set_", "unsqueeze_", "squeeze_", "t_", "transpose_", "as_strided_"))


@per_node
def zero_dim_attributes(cls: ast.ClassDef) -> dict[str, list[ast.expr]]:
    """``self.<attr>`` the class's methods set once to a 0-d tensor (``torch.tensor(0.5)``, or
    ``torch.tensor(weight)`` of a parameter annotated ``float``), by ``register_buffer`` or an
    assignment, and never reshape in place, or to a number (a numeric constant, or a parameter
    annotated ``int``/``float``/``bool``): each as the number standing for its layout."""
    out = {}
    for attr, (value, method) in _set_once(cls).items():
        number = _number(value, method) or _scalar_tensor(value, method)
        if number is not None:
            out[f"self.{attr}"] = [number]
    return out


def number_attributes(cls: ast.ClassDef) -> set[str]:
    """``self.<attr>`` the class's methods set once to a Python number (a numeric constant, or a
    parameter annotated ``int``/``float``/``bool``): never a parameter or a buffer."""
    return {f"self.{attr}" for attr, (value, method) in _set_once(cls).items() if _number(value, method) is not None}


@per_node
def _set_once(cls: ast.ClassDef) -> dict[str, tuple[ast.expr | None, ast.FunctionDef]]:
    """The attributes the class's methods set exactly once (by ``register_buffer``, ``setattr`` or
    an assignment) and never reshape in place, with the value and the method; nothing when the
    class registers or sets attributes under computed names."""
    made: dict[str, list[tuple[ast.expr | None, ast.FunctionDef]]] = {}
    reshaped = set()
    for method in (m for m in cls.body if isinstance(m, ast.FunctionDef)):
        for node in walk(method):
            if isinstance(node, ast.Call):
                func, args = node.func, node.args
                if isinstance(func, ast.Attribute) and func.attr in SHAPE_CHANGES and isinstance(func.value, ast.Attribute):
                    reshaped.add(func.value.attr)
                if isinstance(func, ast.Attribute) and func.attr == "register_buffer" and _is_self(func.value):
                    key, value = [*args, None, None][:2]
                elif isinstance(func, ast.Name) and func.id == "setattr" and args and _is_self(args[0]):
                    key, value = [*args[1:], None, None][:2]
                else:
                    continue
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    return {}
                made.setdefault(key.value, []).append((value, method))
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and _is_self(target.value):
                        made.setdefault(target.attr, []).append((node.value, method))
    return {attr: values[0] for attr, values in made.items() if len(values) == 1 and attr not in reshaped}


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _number(value: ast.expr | None, method: ast.FunctionDef) -> ast.Constant | None:
    """The number standing for a Python number's layout: a numeric constant, or a parameter of
    ``method`` annotated ``int``/``float``/``bool`` (or ``Optional`` of one) that it never rebinds."""
    arg = value.operand if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) else value
    if isinstance(arg, ast.Constant) and type(arg.value) in (int, float, bool):
        return ast.Constant(0.0 if isinstance(arg.value, float) else 0)
    kind = _annotation(method, arg.id) if isinstance(arg, ast.Name) else None
    return ast.Constant(0.0 if kind == "float" else 0) if kind in ("int", "float", "bool") else None


def _scalar_tensor(value: ast.expr | None, method: ast.FunctionDef) -> ast.Constant | None:
    """The number whose layout ``torch.tensor(<number>)`` has (0-d; floating as its dtype says),
    for a constant, or a parameter of ``method`` annotated ``int``/``float``/``bool`` (or
    ``Optional`` of one) that the method never rebinds."""
    if not (isinstance(value, ast.Call) and _name(value.func) == "tensor" and len(value.args) == 1
            and _is_module_path(value.func.value if isinstance(value.func, ast.Attribute) else value.func)):
        return None
    number = _number(value.args[0], method)
    if number is None:
        return None
    floating = isinstance(number.value, float)
    dtype = next((k.value for k in value.keywords if k.arg == "dtype"), None)
    if dtype is not None:
        if not isinstance(dtype, ast.Attribute):
            return None
        floating = dtype.attr in FLOAT_DTYPES
    elif any(k.arg not in ("device", "requires_grad") for k in value.keywords):
        return None
    return ast.Constant(0.0 if floating else 0)


def _annotation(method: ast.FunctionDef, name: str) -> str | None:
    """The plain annotation (``int``, ``float``...) of ``method``'s parameter ``name``, ``Optional``
    or ``| None`` taken off; None when the method rebinds it."""
    arg = next((a for a in walk(method.args) if isinstance(a, ast.arg) and a.arg == name), None)
    if arg is None or any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in walk(method)):
        return None
    note = arg.annotation
    if isinstance(note, ast.BinOp) and isinstance(note.op, ast.BitOr):
        sides = [s for s in (note.left, note.right) if not (isinstance(s, ast.Constant) and s.value is None)]
        note = sides[0] if len(sides) == 1 else None
    if isinstance(note, ast.Subscript) and _name(note.value) == "Optional":
        note = note.slice
    return note.id if isinstance(note, ast.Name) else None


def _outside_bindings(fn: ast.AST | None, rewritten: ast.AST) -> dict[str, list[ast.expr]]:
    """The function's plain `name = value` bindings made outside ``rewritten``, of names that are not
    parameters and have no other binding there (a loop target, `a, b = ...`): what a name read in a
    branch value held before it (one binding is followed)."""
    if fn is None:
        return {}
    inside = {id(n) for n in walk(rewritten)}
    params = {a.arg for a in walk(fn.args) if isinstance(a, ast.arg)} \
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else set()
    bound = bindings_among([n for n in walk(fn) if id(n) not in inside], fn)
    return {name: values for name, values in bound.items() if values is not None and name not in params}




def _layout(node: ast.expr, bindings: dict, inside: dict[str, ast.expr], depth: int) -> Layout | None:
    if depth > MAX_DEPTH:
        return None
    step = depth + 1
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        return Layout(None, isinstance(node.value, float))
    if isinstance(node, ast.Name):
        if node.id in inside:
            return _layout(inside[node.id], bindings, {k: v for k, v in inside.items() if k != node.id}, step)
        values = bindings.get(node.id)
        followed = _layout(values[0], bindings, {}, step) if values is not None and len(values) == 1 else None
        return followed or Layout(node.id, False)  # what it was made from, or its own shape
    if isinstance(node, ast.UnaryOp):
        return _layout(node.operand, bindings, inside, step)
    if isinstance(node, (ast.Compare, ast.BoolOp)):  # a condition: its operands broadcast together
        return _condition(([node.left, *node.comparators] if isinstance(node, ast.Compare) else node.values),
                          bindings, inside, step)
    if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
        left, right = _layout(node.left, bindings, inside, step), _layout(node.right, bindings, inside, step)
        if left is None or right is None or None not in (left.root, right.root) and left.root != right.root:
            return None
        arithmetic = isinstance(node.op, ARITHMETIC)
        return Layout(left.root or right.root, left.floating or right.floating or isinstance(node.op, ast.Div),
                      left.arith or right.arith or arithmetic and (left.boolean or right.boolean),
                      not arithmetic and left.boolean and right.boolean)
    if isinstance(node, ast.Attribute) and node.attr in ("max", "min", "eps", "tiny") \
            and isinstance(node.value, ast.Call) and _name(node.value.func) == "finfo":
        read = node.value.args[0] if node.value.args else None  # `torch.finfo(x.dtype)`: raises unless x is floating
        return Layout(None, not (isinstance(read, ast.Attribute) and read.attr == "dtype"))  # a Python float
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        made = bindings.get(f"self.{node.attr}")  # a 0-d buffer the class registers once
        return _layout(made[0], bindings, {}, step) if made else Layout(f"self.{node.attr}", False)
    if isinstance(node, ast.Call):
        return _call_layout(node, bindings, inside, step)
    return None


def _condition(parts: list[ast.expr], bindings: dict, inside: dict[str, ast.expr], depth: int) -> Layout | None:
    """A boolean made element-wise from ``parts``, which broadcast together: their one shape."""
    layouts = [_layout(p, bindings, inside, depth) for p in parts]
    roots = {layout.root for layout in layouts if layout is not None} - {None}
    return None if None in layouts or len(roots) > 1 else Layout(roots.pop() if roots else None, False, boolean=True)


def _call_layout(node: ast.Call, bindings: dict, inside: dict[str, ast.expr], depth: int) -> Layout | None:
    name = _name(node.func)
    method = isinstance(node.func, ast.Attribute) and not _is_module_path(node.func.value)
    subject = node.func.value if method else (node.args[0] if node.args else None)
    if subject is None or name is None:
        return None
    if name == "item" and method and not node.args or name in ("float", "int", "bool") and not method \
            and isinstance(node.func, ast.Name) and len(node.args) == 1:
        return _layout(subject, bindings, inside, depth)  # kept as the tensor it reads by a rewrite
    if name in REDUCTIONS | FLOAT_REDUCTIONS and not (node.args[1:] if not method else node.args) and not node.keywords:
        return Layout(None, name in FLOAT_REDUCTIONS)
    if name in LOGICAL and not node.keywords:  # as `~`, `&`, `|`, `^`
        return _condition([subject, *(node.args if method else node.args[1:])], bindings, inside, depth)
    if name == "where" and not method and len(node.args) == 3:
        a, b = (_layout(v, bindings, inside, depth) for v in node.args[1:])
        return a if a is not None and a == b else None
    if name in SAME or name in FLOATING:
        inner = _layout(subject, bindings, inside, depth)
        if inner is None or inner.root is None:
            return None
        extra = [*(node.args if method else node.args[1:]), *(k.value for k in node.keywords)]
        if name == "masked_fill":
            extra = extra[1:]  # the mask: broadcast to the tensor, never the other way
        floating = inner.floating or name in FLOATING
        for arg in extra:  # a bound or fill: a number, a 0-d value or one of the same layout
            layout = _layout(arg, bindings, inside, depth)
            if layout is None or layout.root not in (None, inner.root):
                return None
            floating |= layout.floating and name in PROMOTING  # `counts.clamp(min=0.5)` of integers is float
        return Layout(inner.root, floating, inner.arith, inner.boolean and name not in FLOATING and not floating)
    return None


def _name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _is_module_path(node: ast.expr) -> bool:
    """`torch`, `torch.nn.functional`, `F`: a module the function is called from, not a tensor."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("torch", "F", "nn", "functional")
