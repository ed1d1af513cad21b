"""Whether a masked store (`x[m] = y[m]`, `x[m] += v`) may become a `torch.where` selection
(:mod:`fullgraph.fixes.masked_store` writes it).

The rewrite holds when `m` has `x`'s shape. `m` is built element-wise from a tensor of `x`'s
layout (`m = (inputs > a) & (inputs < b)` where `x = torch.zeros_like(inputs)`). Broadcasting
cannot lower a rank, so `m` has at least `x`'s rank. A boolean index must match the leading
sizes of what it indexes, so when the original runs, `m` has exactly `x`'s shape. For the same
reason, every `y` the value reads as `y[m]` has that shape too. So `torch.where` selects element
by element what the store wrote, with the same values and gradients. The value may only copy,
negate or (in an augmented store) combine the selections: nothing is computed on elements the
store did not touch. An augmented store runs its operator in place on a copy, so dtype rules
(and errors) stay those of `x[m] += v`. Code that raised before, with a dtype or shape mismatch,
may no longer raise.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import local_bindings
from fullgraph.analysis.facts import MASK_FUNCS
from fullgraph.analysis.nodes import walk
from fullgraph.fixes.known import is_known, known_tensors
from fullgraph.fixes.layouts import LayoutCheck
from fullgraph.fixes.purity import impure_call
from fullgraph.fixes.sites import enclosing_function, local_parents

IN_PLACE = {ast.Add: "add_", ast.Sub: "sub_", ast.Mult: "mul_", ast.Div: "div_"}
ELEMENTWISE = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.Mult, ast.Add, ast.Sub, ast.Div)
SAME_SHAPE_METHODS = frozenset(("bool", "logical_not", "isnan", "isinf", "isfinite", "abs", "float", "detach"))
MAX_DEPTH = 8


class Store:
    """The parts of a masked store: the tensor `target` written, the mask, the value, the operator
    of an augmented store (None for `=`) and the statement."""

    def __init__(self, stmt: ast.Assign | ast.AugAssign, subscript: ast.Subscript, value: ast.expr, op):
        self.stmt, self.target, self.mask, self.value, self.op = stmt, subscript.value, subscript.slice, value, op


def store_of(tree: ast.AST, node: ast.AST) -> Store | str:
    """The masked store `node` (a selection read, or the target of `x[m] += v`) belongs to."""
    chain = local_parents(tree, node)
    stmt = node
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = chain.get(stmt)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
        return Store(stmt, stmt.targets[0], stmt.value, None)
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript) and type(stmt.op) in IN_PLACE:
        return Store(stmt, stmt.target, stmt.value, stmt.op)
    return "only a store back through the same mask (`x[m] = y[m]`, `x[m] += v`) keeps its shape with `torch.where`"


def masked_store_reason(tree: ast.AST, node: ast.AST, finding) -> str | None:
    """Why the boolean-mask selection at ``node`` has no `torch.where` rewrite (None: it has)."""
    store = store_of(tree, node)
    if isinstance(store, str):
        return store
    known = known_tensors(finding)
    target, mask = store.target, store.mask
    if not (isinstance(target, ast.Name) and target.id in known):
        return f"`{ast.unparse(target)}` is not known to be a tensor"
    layouts = LayoutCheck(enclosing_function(tree, store.stmt), store.stmt)
    bindings = layouts.bindings
    if not _is_mask(mask, known, bindings, 0):
        return f"`{ast.unparse(mask)}` is not known to be a boolean tensor"
    if impure_call(mask) is not None:
        return f"the mask `{ast.unparse(mask)}` would be computed once instead of at each use, and it may not be pure"
    reason = _value_reason(store, known)
    if reason is not None:
        return reason
    if _reaches(mask, target.id, {}, 0):  # read from `x` itself where the store is
        return None
    root = layouts.root(target)
    if root is None or not _bound_once(layouts.fn, root) or not _reaches(mask, root, bindings, 0):
        return (f"`{ast.unparse(mask)}` is not known to have the shape of `{target.id}` (a mask over its leading "
                "dimensions would broadcast differently)")
    return None


def _bound_once(fn: ast.AST | None, name: str) -> bool:
    """Whether ``name`` holds one value all through ``fn`` (a parameter or one binding, never both)."""
    if fn is None:
        return False
    bound = local_bindings(fn).get(name, [])
    parameter = name in {a.arg for a in walk(fn.args) if isinstance(a, ast.arg)}
    return bound is not None and parameter + len(bound) == 1


def _value_reason(store: Store, known: set[str]) -> str | None:
    """Why the stored value is not one the rewrite may compute on every element."""
    mask = ast.dump(store.mask)

    def allowed(node: ast.expr) -> bool:
        if isinstance(node, ast.Subscript):
            return isinstance(node.value, ast.Name) and node.value.id in known and ast.dump(node.slice) == mask
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return allowed(node.operand)
        if store.op is not None and isinstance(node, ast.Constant):
            return type(node.value) in (int, float)
        return False

    if not allowed(store.value):
        what = "an augmented store's value" if store.op is not None else "the stored value"
        return (f"{what} `{ast.unparse(store.value)}` is not a selection by the same mask (negated or not)"
                + (" or a number" if store.op is not None else ""))
    return None


def _is_mask(node: ast.expr, known: set[str], bindings: dict, depth: int) -> bool:
    """Whether ``node`` is a boolean tensor by construction (a comparison with a known tensor, `~`,
    `&`/`|`/`^`/`*` of masks, `.bool()`), following single bindings."""
    if depth > MAX_DEPTH:
        return False
    step = depth + 1
    if isinstance(node, ast.Name):
        values = bindings.get(node.id)
        return values is not None and len(values) == 1 and _is_mask(values[0], known, bindings, step)
    if isinstance(node, ast.Compare):
        return len(node.ops) == 1 and not isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)) \
            and any(is_known(side, known) for side in (node.left, *node.comparators))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _is_mask(node.operand, known, bindings, step)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.Mult)):
        return _is_mask(node.left, known, bindings, step) and _is_mask(node.right, known, bindings, step)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        name, receiver = node.func.attr, node.func.value
        torch_function = isinstance(receiver, ast.Name) and receiver.id == "torch" and len(node.args) == 1
        if not torch_function and node.args:
            return False
        subject = node.args[0] if torch_function else receiver
        return name in MASK_FUNCS and (is_known(subject, known) or _is_mask(subject, known, bindings, step))
    return False


def _reaches(node: ast.expr, root: str, bindings: dict, depth: int) -> bool:
    """Whether ``node`` is built element-wise from a value of ``root``'s shape (so it has at least
    its rank)."""
    if depth > MAX_DEPTH:
        return False
    step = depth + 1
    if isinstance(node, ast.Name):
        if node.id == root:
            return True
        values = bindings.get(node.id)
        return values is not None and len(values) == 1 and _reaches(values[0], root, bindings, step)
    if isinstance(node, ast.Compare):
        return any(_reaches(s, root, bindings, step) for s in (node.left, *node.comparators))
    if isinstance(node, ast.UnaryOp):
        return _reaches(node.operand, root, bindings, step)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ELEMENTWISE):
        return _reaches(node.left, root, bindings, step) or _reaches(node.right, root, bindings, step)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SAME_SHAPE_METHODS \
            and not node.args and not node.keywords:
        return _reaches(node.func.value, root, bindings, step)
    return False
