"""Which expressions are safe to evaluate on both sides of a predicated branch (``ast``)."""

from __future__ import annotations

import ast

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk

TORCH_NAMESPACES = ("torch", "F", "torch.nn.functional", "nn.functional", "torch.special", "torch.linalg")
IMPURE_TORCH = {"manual_seed", "seed", "save", "load", "set_default_dtype", "set_grad_enabled",
                "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
                "bernoulli", "multinomial", "normal", "dropout", "nonzero", "unique", "masked_select",
                "_assert_async", "_check", "cond", "empty", "empty_like", "print"}
IMPURE_METHODS = {"item", "tolist", "numpy", "backward", "register_buffer", "cpu", "cuda",
                  "nonzero", "unique", "masked_select", "append", "extend", "pop", "update",
                  "insert", "remove", "clear", "add_module", "register_parameter", "bernoulli",
                  "data_ptr", "storage", "untyped_storage", "random", "uniform", "normal"}


def callee_text(call: ast.Call) -> str:
    """A short readable name for a call's callee."""
    return dotted(call.func) or ast.unparse(call.func)


def is_pure_call(call: ast.Call) -> bool:
    """A known side-effect-free tensor operation (``torch.*``, ``F.*`` or a tensor method)."""
    func = call.func
    name = dotted(func)
    if name is not None and "." in name:
        namespace, _, attr = name.rpartition(".")
        if namespace in TORCH_NAMESPACES:
            return attr not in IMPURE_TORCH and not attr.endswith("_")
        if namespace.startswith("self") or namespace.split(".")[0] in ("logging", "warnings", "np", "numpy", "math", "random", "time", "os", "sys"):
            return False
    if isinstance(func, ast.Attribute):
        if func.attr.endswith("_") or func.attr in IMPURE_METHODS:
            return False
        return isinstance(func.value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.BinOp)) and not _is_self_attr_callee(func)
    return isinstance(func, ast.Name) and func.id == "abs"


def _is_self_attr_callee(func: ast.Attribute) -> bool:
    """``self.proj(...)``: a submodule or method call, not a tensor method."""
    return isinstance(func.value, ast.Name) and func.value.id == "self"


def impure_call(node: ast.AST) -> ast.Call | None:
    """The first call under ``node`` that is not a known pure tensor op."""
    for sub in walk(node):
        if isinstance(sub, ast.Call) and not is_pure_call(sub):
            return sub
    return None


def non_tensor_value(node: ast.AST) -> str | None:
    """Describe a value that cannot be an operand of ``torch.where`` (``None``, containers, strings)."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, bytes))):
        return repr(node.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
                         ast.SetComp, ast.GeneratorExp, ast.Lambda, ast.JoinedStr)):
        return "a " + type(node).__name__.lower().replace("comp", " comprehension")
    return None


def risky_subscript(node: ast.AST) -> ast.Subscript | None:
    """An index that is computed from data (not a constant or slice of constants) and could raise."""
    for sub in walk(node):
        if isinstance(sub, ast.Subscript) and not _static_index(sub.slice):
            return sub
    return None


def _static_index(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) or node is None:
        return True
    if isinstance(node, ast.Slice):
        return all(_static_index(p) for p in (node.lower, node.upper, node.step) if p is not None)
    if isinstance(node, ast.Tuple):
        return all(_static_index(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _static_index(node.operand)
    return False


# Operations whose value or gradient is infinite or NaN for some inputs (a pole, a log or root at 0,
# an overflow): computed on a side `torch.where` does not select, they make its gradient NaN (0 * inf).
GRADIENT_POLES = frozenset((
    "div", "divide", "true_divide", "floor_divide", "remainder", "fmod", "reciprocal", "rsqrt", "sqrt",
    "log", "log2", "log10", "log1p", "logit", "xlogy", "pow", "float_power", "exp", "exp2", "expm1",
    "acos", "arccos", "asin", "arcsin", "acosh", "arccosh", "atanh", "arctanh", "tan", "digamma", "lgamma",
    "polygamma", "mvlgamma", "erfinv", "norm", "vector_norm", "matrix_norm", "dist", "cdist", "atan2",
    "arctan2", "inverse", "inv", "pinv", "solve", "cholesky", "logdet", "slogdet"))
_PYTHON_NUMBERS = ("math.", "len", "float", "int")  # a divisor these give is a Python number: no gradient


def unbounded_op(node: ast.AST) -> ast.AST | None:
    """The first operation under ``node`` whose value or gradient may be infinite or NaN for some
    inputs: a division by anything but a Python number, a power other than a non-negative whole
    one, a logarithm, a root, an inverse (:data:`GRADIENT_POLES`)."""
    for sub in walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Div, ast.FloorDiv, ast.Mod)) \
                and not _python_number(sub.right):
            return sub
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Pow) and not _whole_power(sub.right):
            return sub
        if isinstance(sub, ast.Call):
            func = sub.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in GRADIENT_POLES and not (dotted(func) or "").startswith("math."):
                return sub
    return None


def _python_number(node: ast.expr) -> bool:
    """A nonzero number literal, or a call that gives a Python number (`math.sqrt(d)`, `len(x)`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and node.value != 0
    return isinstance(node, ast.Call) and (dotted(node.func) or "").startswith(_PYTHON_NUMBERS)


def _whole_power(node: ast.expr) -> bool:
    """A non-negative whole exponent literal (`x ** 2`), whose power is smooth everywhere."""
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
        and not isinstance(node.value, bool) and node.value >= 0 and float(node.value).is_integer()
