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
