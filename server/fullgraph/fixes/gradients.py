"""Whether a value a rewrite merges carries no autograd history: ``torch.where`` of such a value
and one that does requires grad on every path, where the original's value on that path did not
(a loss of `torch.zeros(())` would then give parameters zero gradients instead of none)."""

from __future__ import annotations

import ast

from fullgraph.analysis.imports import dotted

# torch factories whose result is a fresh tensor with no history (unless `requires_grad=True`).
FACTORIES = frozenset(("zeros", "ones", "empty", "full", "tensor", "as_tensor", "arange", "linspace", "logspace",
                       "eye", "rand", "randn", "randint", "randperm", "zeros_like", "ones_like", "empty_like",
                       "full_like", "rand_like", "randn_like", "randint_like"))
# Methods whose result has no history: a detached copy, a new tensor made from the receiver's
# metadata, an integer or boolean result, a size.
NO_HISTORY_METHODS = frozenset(("detach", "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "size",
                                "dim", "numel", "argmax", "argmin", "long", "int", "bool", "short", "byte",
                                "isnan", "isinf", "isfinite", "eq", "ne", "lt", "le", "gt", "ge", "any", "all",
                                "nonzero", "get_device"))
METADATA_ATTRS = frozenset(("shape", "dtype", "device", "ndim", "layout", "is_cuda"))
TORCH_PREFIXES = ("torch.", "F.", "nn.functional.")


def without_history(node: ast.expr, held: dict[str, ast.expr], depth: int = 3) -> bool:
    """Whether ``node`` is computed only from constants, torch factories, tensors' metadata,
    comparisons and detached values (``held``: what branch-local names hold, followed ``depth`` deep);
    False when it may read a tensor that requires grad, or when that is not known."""
    if isinstance(node, ast.Constant) or isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.Name):
        return depth > 0 and node.id in held and without_history(held[node.id], held, depth - 1)
    if isinstance(node, ast.Attribute):
        return node.attr in METADATA_ATTRS
    if isinstance(node, (ast.BinOp, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Tuple, ast.List)):
        parts = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        if isinstance(node, ast.IfExp):
            parts = [node.body, node.orelse]
        return all(without_history(p, held, depth) for p in parts)
    if isinstance(node, ast.Subscript):
        return without_history(node.value, held, depth)
    if not isinstance(node, ast.Call) or any(k.arg == "requires_grad" for k in node.keywords):
        return False
    func = node.func
    name = dotted(func) or ""
    arguments = [*node.args, *(k.value for k in node.keywords)]
    if name.startswith(TORCH_PREFIXES):
        if name.rpartition(".")[2] in FACTORIES:  # sizes, and a fill value read as a number
            return True
        return all(without_history(a, held, depth) for a in arguments)  # `torch.exp(z)`, `F.pad(z, (1, 1))`
    if isinstance(func, ast.Attribute):
        if func.attr in NO_HISTORY_METHODS:
            return True
        return without_history(func.value, held, depth) and all(without_history(a, held, depth) for a in arguments)
    return False


def history_reason(values: list[ast.expr], held: list[dict[str, ast.expr]], what: str) -> str | None:
    """Why merging ``values`` (``held[i]``: what names hold where ``values[i]`` is computed) with
    ``torch.where`` could make a gradient appear: some value carries no history and another may."""
    free = [without_history(v, h) for v, h in zip(values, held)]
    if any(free) and not all(free):
        shown = ast.unparse(values[free.index(True)])
        other = ast.unparse(values[free.index(False)])
        return (f"{what} `{shown}` carries no gradient while `{other}` may: `torch.where` would make the result "
                "require grad on both paths (a parameter would get a zero gradient where it got none, which "
                "changes an optimizer's step)")
    return None
