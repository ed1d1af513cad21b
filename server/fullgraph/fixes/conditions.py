"""Tensor conditions: which parts are plain Python, and lowering the rest to boolean tensor ops."""

from __future__ import annotations

import ast

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.sites import per_tree
from fullgraph.text import Text, has_line_break

SHAPE_ATTRS = {"shape", "ndim", "dtype", "device", "is_cuda", "requires_grad", "training", "is_leaf"}
SHAPE_METHODS = {"size", "dim", "numel", "ndimension", "is_floating_point", "is_contiguous", "is_complex"}
PYTHON_CALLS = {"isinstance", "hasattr", "len", "callable", "getattr"}
BOOLEAN_METHODS = {"any", "all", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "eq", "ne", "lt", "gt",
                   "le", "ge", "logical_and", "logical_or", "logical_not", "logical_xor", "isclose", "signbit", "bool"}
SCALAR_CONVERSIONS = {"float", "int", "bool"}
TORCH_DTYPES = frozenset(("float16", "half", "bfloat16", "float32", "float", "float64", "double", "complex64",
                          "complex128", "uint8", "int8", "int16", "short", "int32", "int", "int64", "long", "bool"))


def python_params(fn: ast.AST | None) -> set[str]:
    """Parameters with a constant default (flags such as ``use_cache=False``)."""
    if fn is None:
        return set()
    args = fn.args
    positional = args.posonlyargs + args.args
    names = {a.arg for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)
             if isinstance(d, ast.Constant)}
    names |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if isinstance(d, ast.Constant)}
    return names


def is_python(expr: ast.AST, flags: set[str], tensor_attrs: set[str]) -> bool:
    """Whether ``expr`` is a plain Python value (no tensor data involved), by its shape."""
    return id(expr) in python_nodes(expr, flags, tensor_attrs)


def _operands(expr: ast.AST) -> list[ast.AST]:
    """The sub-expressions whose kind decides whether ``expr`` is a Python value."""
    if isinstance(expr, ast.Compare):
        return [expr.left, *expr.comparators]
    if isinstance(expr, ast.BoolOp):
        return expr.values
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.BinOp):
        return [expr.left, expr.right]
    if isinstance(expr, ast.Subscript):
        return [expr.value, expr.slice]
    return []


def python_nodes(root: ast.AST, flags: set[str], tensor_attrs: set[str]) -> set[int]:
    """Ids of ``root`` and the operands under it that are plain Python values: one pass over the
    expression, each node judged once, without recursion (conditions can nest thousands deep)."""
    order, todo = [], [root]
    while todo:  # parents before their operands
        node = todo.pop()
        order.append(node)
        todo.extend(_operands(node))
    found: set[int] = set()
    for expr in reversed(order):  # operands before their parents
        if _python_here(expr, found, flags, tensor_attrs):
            found.add(id(expr))
    return found


def _python_here(expr: ast.AST, found: set[int], flags: set[str], tensor_attrs: set[str]) -> bool:
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Name):
        return expr.id in flags
    if isinstance(expr, ast.Attribute):
        if expr.attr in SHAPE_ATTRS or is_torch_dtype(expr):
            return True
        return isinstance(expr.value, ast.Name) and expr.value.id == "self" and expr.attr not in tensor_attrs
    if isinstance(expr, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in expr.ops):
        return True
    if isinstance(expr, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Subscript)):
        return all(id(o) in found for o in _operands(expr))
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Name) and expr.func.id in PYTHON_CALLS:
            return True
        return isinstance(expr.func, ast.Attribute) and expr.func.attr in SHAPE_METHODS
    return False


def is_torch_dtype(node: ast.AST) -> bool:
    """``torch.float16`` and the other dtypes, spelled through the ``torch`` module."""
    return isinstance(node, ast.Attribute) and node.attr in TORCH_DTYPES and isinstance(node.value, ast.Name) \
        and node.value.id == "torch"


def is_shape_only(expr: ast.AST) -> bool:
    """A condition on sizes only (``x.shape[0] == n``, ``x.dim() == 3``): ``torch._check`` can take it."""
    uses_shape = any((isinstance(n, ast.Attribute) and n.attr in ("shape", "ndim"))
                     or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("size", "dim", "numel"))
                     for n in walk(expr))
    return uses_shape and is_python(expr, set(), set())


def split_python(test: ast.expr, flags: set[str], tensor_attrs: set[str]) -> tuple[list[ast.expr], list[ast.expr]]:
    """Operands of a top-level ``and`` that are Python values, and the tensor ones."""
    values = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    python = [v for v in values if is_python(v, flags, tensor_attrs)]
    return python, [v for v in values if not any(v is p for p in python)]


def tensor_part(test: ast.expr, python: list[ast.expr]) -> ast.expr:
    """``test`` without its Python operands (``split_python``'s first list), the tensor condition
    left to lower once a real ``if`` tests the Python ones."""
    if not python:
        return test
    operands = [v for v in test.values if not any(v is p for p in python)]
    return ast.BoolOp(op=ast.And(), values=operands) if len(operands) > 1 else operands[0]


def mixed_reason(test: ast.expr, flags: set[str], tensor_attrs: set[str]) -> str | None:
    """Why a condition mixing Python and tensor values can't be lowered (Python parts only under a top-level ``and``)."""
    _, tensor = split_python(test, flags, tensor_attrs)
    return nested_mix_reason(tensor, flags, tensor_attrs) if tensor else "the condition is a Python value"


def nested_mix_reason(tensor: list[ast.expr], flags: set[str], tensor_attrs: set[str]) -> str | None:
    """Why the tensor operands of a condition's top-level ``and`` can't be lowered: a Python value
    inside one's own ``and``/``or``/``not``."""
    for part in tensor:
        values = python_nodes(part, flags, tensor_attrs)
        for sub in walk(part):
            if sub is not part and isinstance(sub, (ast.BoolOp, ast.UnaryOp)):
                operands = sub.values if isinstance(sub, ast.BoolOp) else [sub.operand]
                mixed = next((o for o in operands if id(o) in values and not isinstance(o, ast.Constant)), None)
                if mixed is not None:
                    return f"the condition mixes the Python value `{ast.unparse(mixed)}` into a tensor `and`/`or`/`not`"
    return None


class Lowering:
    """Turns a tensor condition into boolean tensor ops, as text cut from the original source."""

    def __init__(self, source: str, torch: str):
        self.source = source
        self.torch = torch
        self.positions = Text(source)

    def segment(self, node: ast.AST) -> str:
        """Exact source text of ``node`` (``ast`` columns are UTF-8 byte offsets)."""
        return self.source[self.positions.ast_offset(node.lineno, node.col_offset):
                           self.positions.ast_offset(node.end_lineno, node.end_col_offset)]

    def text(self, node: ast.AST) -> str:
        """Original source of ``node``, parenthesized when it spans lines."""
        segment = self.segment(node)
        return f"({segment})" if has_line_break(segment) else segment

    def atom(self, node: ast.AST) -> str:
        """Text usable as an operand or call receiver."""
        text = self.text(node)
        simple = isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant))
        return text if simple or _wrapped(text) else f"({text})"

    def scalar(self, node: ast.AST) -> str:
        """An operand with ``.item()``/``float()``/``int()`` stripped so it stays a tensor."""
        if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) and node.func.attr == "item":
            return self.atom(node.func.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SCALAR_CONVERSIONS and len(node.args) == 1:
            return self.atom(node.args[0])
        return self.atom(node)

    def lower(self, node: ast.AST) -> str:
        """A boolean-tensor expression equivalent to ``bool(node)``."""
        t = self.torch
        if isinstance(node, ast.BoolOp):
            name = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
            out = self.lower(node.values[-1])
            for value in reversed(node.values[:-1]):
                out = f"{t}.{name}({self.lower(value)}, {out})"
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"{t}.logical_not({self.lower(node.operand)})"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            parts = []
            for left, op, right in zip(operands, node.ops, operands[1:]):
                symbol = self.source_op(op)
                parts.append(f"{self.scalar(left)} {symbol} {self.scalar(right)}")
            out = parts[-1]
            for part in reversed(parts[:-1]):
                out = f"{t}.logical_and({part}, {out})"
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and len(node.args) == 1:
            return self.lower(node.args[0])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in BOOLEAN_METHODS:
            return self.text(node)
        return f"{self.scalar(node)}.bool()"

    @staticmethod
    def source_op(op: ast.cmpop) -> str:
        return {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
                ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}[type(op)]


@per_tree
def buffer_names(tree: ast.AST) -> set[str]:
    """Buffer names anywhere in the module: ``register_buffer("name", ...)`` and
    ``self.name = nn.Buffer(...)`` (torch 2.5's spelling, which registers it the same way)."""
    names = set()
    for node in walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register_buffer" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and (dotted(node.value.func) or "").rpartition(".")[2] == "Buffer":
            names |= {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
    return names


@per_tree
def tensor_attributes(tree: ast.AST) -> set[str]:
    """``self`` attributes known to hold tensors: registered buffers and ``nn.Parameter``s."""
    names = buffer_names(tree)
    for node in walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (isinstance(func, ast.Attribute) and func.attr == "Parameter") or (isinstance(func, ast.Name) and func.id == "Parameter"):
                names |= {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
    return names


def _wrapped(text: str) -> bool:
    """Whether ``text`` is one expression inside its own parentheses (`(a + b)`, not `(a) + (b)`):
    the expression then begins after the opening one."""
    if not text.startswith("("):
        return False
    try:
        body = parse_tree(text, mode="eval").body
    except (SyntaxError, ValueError):
        return False
    return (body.lineno, body.col_offset) != (1, 0)
