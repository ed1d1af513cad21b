"""Values never None while Dynamo traces, and helpers that test for None.

A size is an int: `x.shape[1]`, `x.size(0)`, `x.ndim`, `x.numel()`, `len(...)`, an element of a
shape unpacked (`B, C, H, W = x.shape`), or a name bound once to one of those. A call passing one
leaves `if max_len is None:` (or `if not exists(max_len):`) decided in the callee. A helper that
tests for None is a function whose body returns `<its parameter> is (not) None` (einops-style
`def exists(v): return v is not None`).
"""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import local_bindings, unpacked_bindings
from fullgraph.analysis.narrowing import none_test
from fullgraph.analysis.per_node import per_node

NOT_NONE = type("NotNone", (), {"__repr__": lambda self: "<not None>"})()  # a literal known only not to be None
SIZE_ATTRIBUTES = frozenset(("shape", "ndim"))
SIZE_METHODS = frozenset(("size", "numel", "dim", "nelement"))


def never_none(node: ast.AST, fn: ast.AST, depth: int = 0) -> bool:
    """Whether `node`, read in function `fn`, is a size (never None)."""
    if depth > 4:
        return False
    if _size(node):
        return True
    if isinstance(node, ast.Name):
        if _unpacks_size(fn, node.id):
            return True
        values = local_bindings(fn).get(node.id)
        return bool(values) and len(values) == 1 and never_none(values[0], fn, depth + 1)
    return False


def _size(node: ast.AST) -> bool:
    """`x.shape[i]`, `x.shape`, `x.ndim`, `x.size(...)`, `x.numel()`, `len(...)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Attribute) and node.attr in SIZE_ATTRIBUTES:
        return True
    return isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) and node.func.attr in SIZE_METHODS
                                           or isinstance(node.func, ast.Name) and node.func.id == "len")


def _unpacks_size(fn: ast.AST, name: str) -> bool:
    """Whether every binding of `name` in `fn` unpacks a size: `B, C = x.shape`, or the matching
    element of a tuple of them (`seq, index = x.shape[1], self.ignore_index`)."""
    bound = unpacked_bindings(fn).get(name)
    return bool(bound) and all(
        isinstance(value, ast.Attribute) and value.attr == "shape"
        or isinstance(value, ast.Tuple) and index < len(value.elts) and _size(value.elts[index])
        for value, index in bound)


def none_helper_test(call: ast.expr, module) -> ast.Compare | None:
    """`v is not None` for `exists(v)` where `exists` (a function of `module`'s file, or imported
    there) returns its parameter's None test; None for any other expression."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and len(call.args) == 1
            and not call.keywords and module is not None):
        return None
    helper = module.functions.get(call.func.id) or module.imported_function(call.func.id)
    tested = _tests_none(helper.node) if helper is not None else None
    if tested is None:
        return None
    op = ast.Is() if tested else ast.IsNot()
    return ast.Compare(left=call.args[0], ops=[op], comparators=[ast.Constant(value=None)])


@per_node
def single_return(fn: ast.AST) -> tuple[str, ast.expr] | None:
    """(its parameter, what it returns) for a one-parameter function whose body is one `return`
    (a docstring aside): `def exists(v): return v is not None`, `def is_empty(t): return t.numel() == 0`."""
    args = fn.args
    params = args.posonlyargs + args.args
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(params) != 1 or args.vararg or args.kwarg or args.kwonlyargs or len(body) != 1 \
            or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return params[0].arg, body[0].value


def _tests_none(fn: ast.AST) -> bool | None:
    """For `def f(v): return v is None` True, `... is not None` False; None for any other function."""
    found = single_return(fn)
    named = none_test(found[1]) if found is not None else None
    return named[1] if named is not None and named[0] == found[0] else None
