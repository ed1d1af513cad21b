"""Keep-tensor: drop ``.item()``/``float(t)``/``int(t)`` when the value only feeds tensor arithmetic."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.fixes.conditions import tensor_attributes
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix
from fullgraph.fixes.known import integer_valued
from fullgraph.fixes.layouts import LayoutCheck
from fullgraph.analysis.facts import VALUE_METHODS, is_tensor_qualname
from fullgraph.analysis.imports import dotted
from fullgraph.fixes.purity import TORCH_NAMESPACES
from fullgraph.fixes.sites import enclosing_function, local_parents, parents

ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


def converted(call: ast.Call) -> ast.expr | None:
    """The tensor a scalar conversion reads (``t`` in ``t.item()`` or ``float(t)``)."""
    if isinstance(call.func, ast.Attribute) and call.func.attr == "item" and not call.args and not call.keywords:
        return call.func.value
    if isinstance(call.func, ast.Name) and call.func.id in ("float", "int") and len(call.args) == 1 and not call.keywords:
        return call.args[0]
    return None


class KnownTensor:
    """Whether an expression is a tensor: a name or expression the engine knows is one, a tensor
    attribute, a torch call, or arithmetic and methods on those."""

    def __init__(self, tree: ast.AST, known: set[str]):
        self.known = known
        self.attrs = tensor_attributes(tree)

    def __call__(self, node: ast.expr) -> bool:
        if ast.unparse(node) in self.known:
            return True
        if isinstance(node, ast.Name):
            return False
        if isinstance(node, ast.Attribute):
            return isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr in self.attrs
        if isinstance(node, ast.Call):  # not `t.item()`, `t.size()`, `torch.equal(a, b)`: Python values
            name = dotted(node.func) or ""
            if name.rpartition(".")[0] in TORCH_NAMESPACES:  # `F.relu(...)`, `torch.zeros(...)`
                return is_tensor_qualname(name) if name.startswith("torch.") else True
            return isinstance(node.func, ast.Attribute) and node.func.attr not in VALUE_METHODS and self(node.func.value)
        if isinstance(node, ast.BinOp):
            return self(node.left) or self(node.right)
        if isinstance(node, ast.UnaryOp):
            return self(node.operand)
        if isinstance(node, ast.Subscript):
            return self(node.value)
        return False


def _feeds_tensor_math(node: ast.expr, chain: dict, is_tensor: KnownTensor) -> bool:
    """Whether ``node`` sits in an arithmetic expression that has a tensor operand."""
    parent = chain.get(node)
    while isinstance(parent, ast.UnaryOp) and isinstance(parent.op, (ast.USub, ast.UAdd)):
        node, parent = parent, chain.get(parent)
    if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ARITHMETIC)):
        return False
    other = parent.right if parent.left is node else parent.left
    return is_tensor(other) or _feeds_tensor_math(parent, chain, is_tensor)


def test_of(tree: ast.AST, node: ast.expr) -> ast.If | ast.Assert | None:
    """The ``if`` or ``assert`` whose condition holds ``node`` (``if t.item() > 0:``), if any."""
    chain = local_parents(tree, node)
    child, parent = node, chain.get(node)
    while isinstance(parent, ast.expr):
        child, parent = parent, chain.get(parent)
    return parent if isinstance(parent, (ast.If, ast.Assert)) and parent.test is child else None


def test_if(tree: ast.AST, node: ast.expr) -> ast.If | None:
    """The ``if`` whose condition holds ``node``, if any."""
    found = test_of(tree, node)
    return found if isinstance(found, ast.If) else None


def flag_uses(tree: ast.AST, call: ast.Call) -> tuple[str, list[ast.If]] | None:
    """``flag = t.item()`` (or ``bool(t)``) whose every use is a whole ``if`` condition (``if flag:``,
    ``if not flag:``, ``if flag and x.any():``): the name and those ``if``s; None otherwise."""
    fn = enclosing_function(tree, call)
    chain = parents(fn) if fn is not None else {}
    parent = chain.get(call)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return None
    name = parent.targets[0].id
    stores = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    uses = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    if len(stores) != 1 or not uses:
        return None
    branches = [test_if(fn, use) for use in uses]
    if any(b is None or b.lineno < parent.lineno for b in branches):
        return None
    return name, list(dict.fromkeys(branches))


def keep_tensor_reason(tree: ast.AST, call: ast.Call, known: set[str]) -> str | None:
    """Why the conversion can't simply be dropped, or None when it converts a tensor the engine
    knows (`known`: source texts) and every use is tensor arithmetic with a known tensor."""
    tensor = converted(call)
    fn = enclosing_function(tree, call)
    if tensor is None or fn is None:
        return "not a `.item()`/`float()`/`int()` conversion inside a function"
    if ast.unparse(tensor) not in known:
        return f"`{ast.unparse(tensor)}` is not known to be a tensor"
    if isinstance(call.func, ast.Name) and call.func.id == "int" and not integer_valued(tensor):
        return "`int()` truncates, and the tensor is not known to hold integers: it would keep its fraction"
    shape = LayoutCheck(fn, call, tree).zero_dim_reason(tensor, "the tensor")
    if shape is not None:
        return shape
    chain = parents(fn)
    is_tensor = KnownTensor(tree, known)
    parent = chain.get(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        stores = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
        uses = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if len(stores) != 1 or not uses:
            return f"`{name}` is reassigned or unused"
        if not all(_feeds_tensor_math(u, chain, is_tensor) for u in uses):
            return f"`{name}` is used as a Python number, not only in tensor arithmetic"
        return None
    if not _feeds_tensor_math(call, chain, is_tensor):
        return "the Python number is used outside tensor arithmetic"
    return None


PROMOTION = ("a tensor kept in arithmetic takes part in type promotion where the Python number did not (`x.sum() * s` "
             "with a float16 `x` gives float32, an integer tensor times it takes its float type, and a float16 operand "
             "meets the value rounded to float16), so fix-all leaves it to you (a quick fix, or "
             "`fullgraph fix --unsafe-fixes`)")


def conversion_warning(call: ast.Call) -> str | None:
    """Why a rewrite that drops ``float(t)`` is unsafe: torch warns when it converts a tensor that
    requires grad to a Python float, and the tensor kept instead converts nothing (``.item()`` and
    ``int()`` do not warn; a tensor of integers never requires grad)."""
    tensor = converted(call)
    if tensor is None or not (isinstance(call.func, ast.Name) and call.func.id == "float") or integer_valued(tensor):
        return None
    return ("`float()` of a tensor that requires grad prints a UserWarning (\"Converting a tensor with "
            "requires_grad=True to a scalar\"), which the rewrite would no longer print, so fix-all leaves it "
            "to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")


def keep_tensor(ctx: FixContext, call: ast.Call) -> list[Fix]:
    """Replace the conversion with the tensor itself, detached as the Python number was (no gradient
    flows through it; ``decline_reason`` said every use is tensor arithmetic)."""
    edit = ctx.expression_edit(call, f"{ctx.lowering.atom(converted(call))}.detach()")
    return ctx.make_fix("Keep the tensor, detached (drop the Python scalar conversion)", edit, "keep-tensor",
                        needs_torch=False)
