"""Whether a masked store (`x[m] = y[m]`, `x[m] += v`) or a masked reduction (`x[m].sum()`,
`torch.any(x[m])`) may become a `torch.where` selection (:mod:`fullgraph.fixes.masked_store` and
:mod:`fullgraph.fixes.masked_reduction` write them).

The rewrite holds when `m` has `x`'s shape. `m` is built element-wise from a tensor of `x`'s
layout (`m = (inputs > a) & (inputs < b)` where `x = torch.zeros_like(inputs)`). Broadcasting
cannot lower a rank, so `m` has at least `x`'s rank. A boolean index must match the leading
sizes of what it indexes, so when the original runs, `m` has exactly `x`'s shape. For the same
reason, every `y` the value reads as `y[m]` has that shape too. So `torch.where` selects element
by element what the store wrote, with the same values and gradients. The value may only copy,
negate or (in an augmented store) combine the selections: nothing is computed on elements the
store did not touch. An augmented store runs its operator in place on a copy, so dtype rules
(and errors) stay those of `x[m] += v`. Code that raised before, with a dtype or shape mismatch,
may no longer raise. A reduction reads the unselected elements as its identity (0 for a sum,
False for `any`, True for `all`): `any`, `all` and `count_nonzero` give the same result, and so
does the sum of a boolean tensor; a floating-point sum or mean adds the same values in another
order, which may change its last bits.
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
IDENTITIES = {"sum": "0", "mean": "0", "count_nonzero": "0", "any": "False", "all": "True"}  # of unselected elements
ORDER_FREE = frozenset(("any", "all", "count_nonzero"))
REORDERED = ("the reduction adds the selected values in another order (the others as zeros): a floating-point "
             "result may differ in its last bits, so fix-all leaves it to you (a quick fix, or "
             "`fullgraph fix --unsafe-fixes`)")


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


class Reduction:
    """A masked selection reduced whole at once: `x[m].sum()` (a `method`) or `torch.sum(x[m])`;
    `call` is the reduction's call, `name` its function."""

    def __init__(self, call: ast.Call, subscript: ast.Subscript, name: str, method: bool):
        self.call, self.tensor, self.mask, self.name, self.method = call, subscript.value, subscript.slice, name, method


def reduction_of(tree: ast.AST, node: ast.AST) -> Reduction | None:
    """The reduction of the selection `node` when it is reduced whole at once, with no arguments."""
    if not isinstance(node, ast.Subscript):
        return None
    chain = local_parents(tree, node)
    parent = chain.get(node)
    if isinstance(parent, ast.Attribute) and parent.attr in IDENTITIES:
        call = chain.get(parent)
        if isinstance(call, ast.Call) and call.func is parent and not call.args and not call.keywords:
            return Reduction(call, node, parent.attr, True)
    if isinstance(parent, ast.Call) and len(parent.args) == 1 and parent.args[0] is node and not parent.keywords \
            and isinstance(parent.func, ast.Attribute) and parent.func.attr in IDENTITIES \
            and isinstance(parent.func.value, ast.Name) and parent.func.value.id == "torch":
        return Reduction(parent, node, parent.func.attr, False)
    return None


def masked_store_reason(tree: ast.AST, node: ast.AST, finding) -> str | None:
    """Why the boolean-mask selection at ``node`` has no `torch.where` rewrite (None: it has), as
    a store back through its mask or a reduction."""
    store = store_of(tree, node)
    reduction = reduction_of(tree, node) if isinstance(store, str) else None
    if reduction is not None:
        return _mask_reason(tree, reduction.call, reduction.tensor, reduction.mask, known_tensors(finding))
    if isinstance(store, str):
        return store
    known = known_tensors(finding)
    reason = _value_reason(store, known)
    return reason if reason is not None else _mask_reason(tree, store.stmt, store.target, store.mask, known)


def reordered_reason(tree: ast.AST, node: ast.AST, finding) -> str | None:
    """Why the reduction rewrite of the selection at ``node`` is unsafe: a sum or mean of values that
    are not known to be booleans (None: it is exact, or not a reduction)."""
    reduction = reduction_of(tree, node)
    if reduction is None or reduction.name in ORDER_FREE:
        return None
    layouts = LayoutCheck(enclosing_function(tree, reduction.call), reduction.call)
    exact = reduction.name == "sum" and _is_mask(reduction.tensor, known_tensors(finding), layouts.bindings, 0)
    return None if exact else REORDERED


def _mask_reason(tree: ast.AST, at: ast.AST, target: ast.expr, mask: ast.expr, known: set[str]) -> str | None:
    """Why selecting from ``target`` by ``mask`` (at ``at``) does not keep the shape with `torch.where`:
    ``target`` a tensor, ``mask`` a pure boolean tensor of its shape."""
    if not (isinstance(target, ast.Name) and target.id in known):
        return f"`{ast.unparse(target)}` is not known to be a tensor"
    layouts = LayoutCheck(enclosing_function(tree, at), at)
    bindings = layouts.bindings
    if not _is_mask(mask, known, bindings, 0):
        return f"`{ast.unparse(mask)}` is not known to be a boolean tensor"
    if impure_call(mask) is not None:
        return f"the mask `{ast.unparse(mask)}` would be computed once instead of at each use, and it may not be pure"
    loops = _loop_spans(layouts.fn)
    if _reaches(mask, target.id, _bound_after(layouts.fn, target.id, bindings, loops), 0):  # made from `x`
        return None
    root = layouts.root(target)
    if root is None or not _bound_once(layouts.fn, root, loops) or not _reaches(mask, root, bindings, 0):
        return (f"`{ast.unparse(mask)}` is not known to have the shape of `{target.id}` (a mask over its leading "
                "dimensions would broadcast differently)")
    return None


def _bound_after(fn: ast.AST | None, target: str, bindings: dict, loops: list[tuple[int, int]]) -> dict:
    """The names of ``bindings`` bound once after every binding of ``target``, none of which is in a
    loop: those run at most once, in the order written, so such a name holds what it made from
    ``target``'s value, which is still ``target``'s value where it is read."""
    made = local_bindings(fn).get(target, []) if fn is not None else None
    if made is None or any(_in_loop(value, loops) for value in made):
        return {}
    after = max((value.lineno for value in made), default=0)
    return {name: values for name, values in bindings.items() if len(values) == 1 and values[0].lineno > after}


def _bound_once(fn: ast.AST | None, name: str, loops: list[tuple[int, int]]) -> bool:
    """Whether ``name`` holds one value all through ``fn``: a parameter, or one binding outside
    loops, never both."""
    if fn is None:
        return False
    bound = local_bindings(fn).get(name, [])
    parameter = name in {a.arg for a in walk(fn.args) if isinstance(a, ast.arg)}
    return bound is not None and parameter + len(bound) == 1 and not any(_in_loop(v, loops) for v in bound)


def _loop_spans(fn: ast.AST | None) -> list[tuple[int, int]]:
    """The line spans of the loops of ``fn``."""
    nodes = walk(fn) if fn is not None else ()
    return [(n.lineno, n.end_lineno) for n in nodes if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]


def _in_loop(node: ast.AST, loops: list[tuple[int, int]]) -> bool:
    return any(first <= node.lineno <= last for first, last in loops)


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
            and not node.keywords:
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and receiver.id == "torch" and len(node.args) == 1:  # torch.isnan(x)
            return _reaches(node.args[0], root, bindings, step)
        return not node.args and _reaches(receiver, root, bindings, step)
    return False
