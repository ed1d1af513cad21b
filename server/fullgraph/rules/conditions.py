"""Conditions on values known when Dynamo traces (dtype tests, `self.training`, config flags,
`is None`): the walker records the tests around a finding; this module names them for the
message ("breaks when `x` is float16", "in training mode only") and decides whether one can
hold under the project's `assume` setting (`{ training = false, dtype = "float32" }`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from fullgraph.analysis.call_guards import atom_mode, atoms
from fullgraph.rules.common import snippet

FLOAT_DTYPES = {"float16": "float16", "half": "float16", "bfloat16": "bfloat16", "float32": "float32",
                "float": "float32", "float64": "float64", "double": "float64"}
MAX_NAMED = 2  # conditions named in one message (the innermost ones)


@dataclass(frozen=True)
class Condition:
    """One test and whether it holds where the finding is; `training`/`dtypes` say what it
    means for the configuration (None: something else)."""

    text: str
    training: bool | None = None
    dtypes: frozenset[str] | None = None  # the floating dtypes the tested tensor has when it holds
    negated: bool = False  # holds when the dtype (the device) is NOT one of `dtypes` (`device`)
    device: str | None = None  # the device type the tested tensor is on when it holds (`cpu`, `cuda`, ...)


def conditions(test: ast.expr, holds: bool) -> list[Condition]:
    """What `test` evaluating to `holds` says (an `and` that holds: each part; an `or` that
    does not hold: each part negated)."""
    return [_one(part, part_holds) for part, part_holds in atoms(test, holds)]


def _one(test: ast.expr, holds: bool) -> Condition:
    mode = atom_mode(test, holds)  # `self.training`, `self.training is False`
    if mode is not None:
        return Condition("in training mode only" if mode else "in eval mode only", training=mode)
    device = _device_test(test)
    if device is not None:
        tensor, kind, positive = device
        on = holds == positive
        return Condition(f"when `{tensor}` is {'' if on else 'not '}on {kind}", device=kind, negated=not on)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
            none = holds == isinstance(op, ast.Is)
            return Condition(f"when `{snippet(left)}` is {'None' if none else 'not None'}")
        dtypes = _dtype_test(left, op, right)
        if dtypes is not None:
            tensor, names, positive = dtypes
            is_one = holds == positive
            shown = " or ".join(sorted(names))
            return Condition(f"when `{tensor}` is {'' if is_one else 'not '}{shown}", dtypes=frozenset(names),
                             negated=not is_one)
    return Condition(f"when `{snippet(test)}`" if holds else f"unless `{snippet(test)}`")


def _dtype_test(left: ast.expr, op: ast.cmpop, right: ast.expr):
    """(tensor text, floating dtype names, True for ==/in) for `x.dtype == torch.float16` and
    `x.dtype in (torch.float16, torch.bfloat16)`; None for anything else."""
    if not (isinstance(left, ast.Attribute) and left.attr == "dtype"):
        left, right = right, left
    if not (isinstance(left, ast.Attribute) and left.attr == "dtype"):
        return None
    items = right.elts if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) \
        else [right] if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) else None
    if not items:
        return None
    names = set()
    for item in items:
        if not (isinstance(item, ast.Attribute) and item.attr in FLOAT_DTYPES):
            return None  # an integer or bool dtype test: the assumed float dtype says nothing
        names.add(FLOAT_DTYPES[item.attr])
    return snippet(left.value), names, isinstance(op, (ast.Eq, ast.In, ast.Is))


DEVICE_FLAGS = {"is_cuda": "cuda", "is_cpu": "cpu", "is_mps": "mps", "is_xpu": "xpu", "is_meta": "meta"}


def _device_test(test: ast.expr) -> tuple[str, str, bool] | None:
    """(tensor text, device type, True for == / the flag) for `x.is_cuda`, `x.device.type == "cpu"`
    and `x.device == torch.device("cpu")` (either side, `!=` too); None for anything else."""
    if isinstance(test, ast.Attribute) and test.attr in DEVICE_FLAGS:
        return snippet(test.value), DEVICE_FLAGS[test.attr], True
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    for left, right in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        kind = _device_name(right)
        if kind is None:
            continue
        if isinstance(left, ast.Attribute) and left.attr == "type" and isinstance(left.value, ast.Attribute) \
                and left.value.attr == "device":
            return snippet(left.value.value), kind, isinstance(test.ops[0], ast.Eq)
        if isinstance(left, ast.Attribute) and left.attr == "device" and isinstance(right, ast.Call):
            return snippet(left.value), kind, isinstance(test.ops[0], ast.Eq)
    return None


def _device_name(node: ast.expr) -> str | None:
    """`"cpu"`, or `torch.device("cpu")` (no index): the device type it names."""
    if isinstance(node, ast.Call) and snippet(node.func) in ("torch.device", "device") and len(node.args) == 1 \
            and not node.keywords:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return node.value
    return None


def impossible(condition: Condition, assume: dict) -> bool:
    """True when the project's assumptions say the condition never holds."""
    training = assume.get("training")
    if condition.training is not None and isinstance(training, bool):
        return condition.training != training
    dtype = FLOAT_DTYPES.get(str(assume.get("dtype", "")))
    if condition.dtypes is not None and dtype is not None:
        return (dtype in condition.dtypes) == condition.negated
    device = assume.get("device")
    if condition.device is not None and isinstance(device, str):
        return (device == condition.device) == condition.negated
    return False


def contradictory(found: list[Condition]) -> bool:
    """True when the conditions cannot all hold: training and eval mode at once (a value that is a
    tensor only in training, tested only in eval mode)."""
    return len({c.training for c in found if c.training is not None}) > 1


def describe(found: list[Condition]) -> str:
    """The message suffix naming the innermost conditions (and how many outer ones it leaves out), or ""."""
    texts = list(dict.fromkeys(c.text for c in found))
    more = len(texts) - MAX_NAMED
    named = ", ".join(texts[-MAX_NAMED:])
    return "" if not texts else f" ({named})" if more <= 0 else \
        f" ({named}; {more} more condition{'s' if more > 1 else ''} around it)"
