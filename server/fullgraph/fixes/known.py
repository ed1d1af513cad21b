"""What the engine knows is a tensor at a finding, and the check that a rewrite turns only those
values into tensor code (``torch.where`` operands, lowered conditions, ``torch.cond`` operands,
a conversion it drops).

The engine puts the source text of the known tensors around a fixable finding in
``finding.data["tensors"]`` (local names and expressions; guesses never count), and the guessed
parameters a finding rests on in ``finding.data["guess"]``.
"""

from __future__ import annotations

import ast
import struct
from itertools import pairwise

from fullgraph.analysis.facts import VALUE_METHODS, scalar_operand
from fullgraph.analysis.nodes import walk
from fullgraph.fixes.conditions import BOOLEAN_METHODS


def known_tensors(finding) -> set[str]:
    data = finding.data if isinstance(finding.data, dict) else {}
    return set(data.get("tensors", ()))


def guess_reason(finding) -> str | None:
    """Why a finding that rests on a guess takes no rewrite."""
    data = finding.data if isinstance(finding.data, dict) else {}
    guess = data.get("guess")
    if not guess:
        return None
    names = ", ".join(f"`{g}`" for g in guess)
    return (f"it rests on a guess that {names} {'is a tensor' if len(guess) == 1 else 'are tensors'} (no call site "
            "or annotation says so); annotate the parameter `torch.Tensor` to allow the rewrite")


def callers_reason(finding, called_from: tuple[str, ...] = ()) -> str | None:
    """Why a rewrite is declined where calls in other files are involved: its parameters took
    their facts from them (those need not be all the calls: module-level code and callbacks are
    not seen), or other files call the function and what they pass was not checked (`called_from`,
    for rewrites that assume tensor arguments)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    if data.get("callers_elsewhere"):
        return (f"`{data.get('entry')}` takes its parameters' facts from calls in {_files(data['callers_elsewhere'])}, "
                "which need not be all its calls; annotate its parameters to allow the rewrite")
    if called_from:
        return (f"`{data.get('function')}` is also called from {_files(called_from)}, whose arguments the rewrite "
                "was not checked against")
    return None


def _files(files) -> str:
    return ", ".join(f"`{f}`" for f in files[:3]) + (f" and {len(files) - 3} more files" if len(files) > 3 else "")


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


# Tensor methods that return several tensors (always, or given a dimension): not one tensor.
SEQUENCE_METHODS = frozenset(("split", "chunk", "unbind", "tensor_split", "hsplit", "vsplit", "dsplit", "sort",
                              "topk", "kthvalue", "aminmax", "unique", "unique_consecutive", "slogdet", "frexp",
                              "histogram", "nonzero", "type"))
REDUCTIONS_WITH_INDICES = frozenset(("max", "min", "median", "nanmedian", "mode", "cummax", "cummin"))


def is_known(node: ast.AST, known: set[str]) -> bool:
    """Whether ``node`` is a known tensor: one the engine names, a tensor method's result on one
    (not a Python value, not several tensors), or arithmetic of known tensors and number literals."""
    if _text(node) in known:
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method = node.func.attr
        if method in VALUE_METHODS or method in SEQUENCE_METHODS or method.startswith("is_") \
                or (method in REDUCTIONS_WITH_INDICES and (node.args or node.keywords)):
            return False
        return is_known(node.func.value, known)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return is_known(node.operand, known)
    if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
        sides = (node.left, node.right)
        numbers = [isinstance(s, ast.Constant) and type(s.value) in (int, float) for s in sides]
        return any(not n for n in numbers) and all(n or is_known(s, known) for s, n in zip(sides, numbers))
    return False


def lowering_reason(node: ast.AST, known: set[str]) -> str | None:
    """Why lowering condition ``node`` to boolean tensor ops (``conditions.Lowering.lower``) would
    treat a value the engine does not know is a tensor as one."""
    if isinstance(node, ast.BoolOp):
        return next((r for r in (lowering_reason(v, known) for v in node.values) if r), None)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return lowering_reason(node.operand, known)
    if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
        return f"`{_text(node)}` tests membership in a tensor, which has no automatic rewrite"
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for left, right in pairwise(operands):
            if not (is_known(scalar_operand(left), known) or is_known(scalar_operand(right), known)):
                return f"`{_text(left)}` and `{_text(right)}` are not known to be tensors"
        return _conversion_reason(operands, known)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and len(node.args) == 1:
        return lowering_reason(node.args[0], known)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in BOOLEAN_METHODS:
        return None if is_known(node, known) else f"`{_text(node)}` is not known to be a tensor"
    if not is_known(scalar_operand(node), known):
        return f"`{_text(scalar_operand(node))}` is not known to be a tensor"
    return _truncation_reason(node)


def _truncation_reason(node: ast.AST) -> str | None:
    """Why ``int(t)`` can't be read as ``t``: it truncates a tensor not known to hold integers."""
    kept = scalar_operand(node)
    if kept is not node and isinstance(node.func, ast.Name) and node.func.id == "int" and not integer_valued(kept):
        return (f"`{_text(node)}` truncates, and the tensor is not known to hold integers: read as the tensor, its "
                "fraction would count")
    return None


def flag_reason(test: ast.expr, name: str, conversion: ast.Call, known: set[str]) -> str | None:
    """Why ``name = <conversion>``, kept as the tensor, can't meet what ``test`` compares it with, or
    be tested for truth (see :func:`_conversion_reason`)."""
    for node in walk(test):
        if isinstance(node, ast.Compare):
            operands = [conversion if isinstance(o, ast.Name) and o.id == name else o
                        for o in (node.left, *node.comparators)]
            reason = _conversion_reason(operands, known)
            if reason is not None:
                return reason
        elif isinstance(node, ast.Name) and node.id == name and (truncated := _truncation_reason(conversion)):
            return truncated
        elif isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Call)) and not _truth_op(node) \
                and any(isinstance(o, ast.Name) and o.id == name for o in ast.iter_child_nodes(node)):
            return (f"the test computes `{_text(node)}` from `{name}`: kept as the tensor, that would be computed in the "
                    "tensor's dtype instead of as Python numbers, and may round the other way")
    return None


def _truth_op(node: ast.expr) -> bool:
    """``not x``: it takes a truth value, which the kept tensor gives the same."""
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def _conversion_reason(operands: list[ast.expr], known: set[str]) -> str | None:
    """Why a comparison can't drop its scalar conversions (``t.item() > 0.3`` lowered to ``t > 0.3``):
    ``int()`` truncates a tensor not known to hold integers; ``bool()`` compares a truth value; and
    kept as a tensor, a value meets a Python number in the tensor's dtype, where Python compared
    doubles, so the number must be exact in every floating dtype (a value equal to its rounding
    would compare the other way: ``float32(0.3) > 0.3`` as doubles, not as float32)."""
    for left, right in pairwise(operands):
        for converted, other in ((left, right), (right, left)):
            kept = scalar_operand(converted)
            if kept is converted:
                continue
            name = converted.func.id if isinstance(converted.func, ast.Name) else "item"
            if name == "bool":
                return f"`{_text(converted)}` compares a truth value, which the tensor it reads would not"
            truncated = _truncation_reason(converted) if name == "int" else None
            if truncated is not None:
                return truncated
            if scalar_operand(other) is not other or is_known(other, known):
                continue  # tensor against tensor: promoted to a common dtype, exactly
            if not _exact_number(other):
                return (f"`{_text(converted)}` would meet `{_text(other)}` in the tensor's dtype instead of as Python "
                        f"floats, and `{_text(other)}` is not known to be exact in float16 and bfloat16: a value equal "
                        "to its rounding would compare the other way")
    return None


def _exact_number(node: ast.expr) -> bool:
    """A number literal exactly representable in float16 and bfloat16 (so in every floating dtype)."""
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    value = node.operand.value if negated and isinstance(node.operand, ast.Constant) else \
        node.value if isinstance(node, ast.Constant) else None
    if type(value) not in (int, float, bool):
        return False
    try:
        half = struct.unpack("<e", struct.pack("<e", value))[0]
        single = struct.unpack("<f", struct.pack("<f", value))[0]
    except (OverflowError, struct.error):
        return False
    return half == value and single == value and struct.unpack("<I", struct.pack("<f", value))[0] & 0xFFFF == 0


def integer_valued(node: ast.expr) -> bool:
    """A tensor of integers: a count of a condition (`(x > 0).sum()`), an index, an integer cast."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    method, receiver = node.func.attr, node.func.value
    if method in ("long", "int", "argmax", "argmin", "count_nonzero"):
        return True
    return method == "sum" and (isinstance(receiver, ast.Compare) or isinstance(receiver, ast.Call)
                                and isinstance(receiver.func, ast.Attribute) and receiver.func.attr == "bool")


def values_reason(values: list[ast.expr], known: set[str], what: str) -> str | None:
    """Why values that a rewrite merges into one tensor are not all known tensors (a Python value
    would turn into a tensor, and later Python uses of it would break or change)."""
    for value in values:
        if not is_known(value, known):
            return f"{what} `{_text(value)}` is not known to be a tensor, and would become one"
    return None


# `torch` functions that raise on anything but a tensor `input` (a Python number, a NumPy array).
TENSOR_INPUT_FUNCTIONS = frozenset(("isinf", "isnan", "isfinite", "isneginf", "isposinf", "signbit", "any", "all"))


def proven_by_test(test: ast.AST) -> set[str]:
    """Names an `if` test proves are tensors whenever its body runs: passed as the input of a
    `torch.isinf`-like function in a part of the test that is always evaluated then (every operand
    of an `and`); on any other value that call raises, in the original as in the rewrite."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    proven = set()
    for part in parts:
        nodes = list(walk(part))
        if any(isinstance(n, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.comprehension)) for n in nodes):
            continue  # a call in there may not run
        for sub in nodes:
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                    and isinstance(sub.func.value, ast.Name) and sub.func.value.id == "torch" \
                    and sub.func.attr in TENSOR_INPUT_FUNCTIONS and sub.args and isinstance(sub.args[0], ast.Name):
                proven.add(sub.args[0].id)
    return proven


def torchscript_reason(finding, adds: str) -> str | None:
    """Why a rewrite that adds ``adds``, which `torch.jit.script` rejects, is declined where the
    engine saw signs that the code is scripted."""
    data = finding.data if isinstance(finding.data, dict) else {}
    scripted = data.get("torchscript")
    return f"{scripted}, and the rewrite adds {adds}, which `torch.jit.script` rejects" if scripted else None
