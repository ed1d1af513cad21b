"""Whether FG301's break-free fix applies: `print(...)` becomes
`torch._higher_order_ops.print(format, *values)` (:mod:`fullgraph.fixes.print_rewrite` writes it).

Torch's print operator is a graph op: Dynamo keeps it in the graph and it prints
`format.format(*values)` when the graph runs (eagerly too), in program order, mutations included
(checked on torch 2.13 with the eager, aot_eager and inductor backends). It carries only leaf
values unchanged: tensors, Python numbers, strings and None. A `torch.Size` comes out as a tuple,
containers fail under inductor and other objects make Dynamo raise, so only tensors the engine
knows, sizes read from them and constants qualify. It is an unsafe fix: under autograd a compiled
graph's tensor prints without its `grad_fn=` tag, and a parameter named through a local variable
may print without its `Parameter containing:` header. A print of constants alone prints the same
line in the same place, a safe fix.
"""

from __future__ import annotations

import ast

from fullgraph.fixes.guarded_output import moved_guard
from fullgraph.fixes.known import known_tensors, torchscript_reason
from fullgraph.fixes.project_torch import bases, has_module
from fullgraph.fixes.sites import local_parents

OPERATOR = "_higher_order_ops.print"
CONVERSIONS = {-1: "", 115: "!s", 114: "!r", 97: "!a"}
CONSTANTS = (str, int, float, bool, type(None))
SIZE_READS = ("dim", "numel")  # `t.dim()`, `t.numel()`: Python ints while Dynamo traces


def available(project=None) -> bool:
    """Whether the torch the project runs has the print operator."""
    return has_module(bases(project), "_higher_order_ops", "print")


def plan(tree: ast.AST, call: ast.Call, known: set[str]) -> tuple[str, list[ast.expr]] | str:
    """The operator's format string and values for ``call`` (a `print(...)` in ``tree``), or why it
    cannot carry it."""
    chain = local_parents(tree, call)
    if not isinstance(chain.get(call), ast.Expr):
        return "the call's result is used"
    if _shares_line(chain, chain[call]):
        return "another statement shares its line"
    if any(k.arg != "sep" for k in call.keywords):
        named = next(k.arg for k in call.keywords if k.arg != "sep")
        return f"`print(..., {named}=...)`: the print operator writes one line to stdout, with the default ending"
    sep = next((k.value for k in call.keywords), None)
    if sep is not None and not (isinstance(sep, ast.Constant) and isinstance(sep.value, str)):
        return "the separator is not a string literal"
    pieces, values = [], []
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            return "a starred argument's values are not known one by one"
        if isinstance(arg, ast.Constant) and isinstance(arg.value, CONSTANTS):
            pieces.append(_escape(str(arg.value)))
            continue
        if isinstance(arg, ast.JoinedStr):
            piece = _f_string(arg, known, values)
            if piece.startswith("\0"):
                return piece[1:]
            pieces.append(piece)
            continue
        if not _carried(arg, known):
            return _not_carried(arg)
        pieces.append("{!s}")  # print() applies str(), which for a 0-d tensor differs from format()
        values.append(arg)
    return _escape(sep.value if sep is not None else " ").join(pieces), values


def _shares_line(chain: dict, stmt: ast.stmt) -> bool:
    """Whether another statement, or the header of the block holding ``stmt``, is on one of its lines
    (`z = 1; print(...)`, `if c: print(...)`): the rewrite replaces whole lines. Only the statements
    next to it in its block can share one."""
    parent = chain.get(stmt)
    if parent is None:
        return False
    if isinstance(parent, ast.stmt) and parent.lineno == stmt.lineno:
        return True
    for name in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(parent, name, None)
        if isinstance(block, list) and stmt in block:
            at = block.index(stmt)
            before = block[at - 1] if at else None
            after = block[at + 1] if at + 1 < len(block) else None
            return before is not None and before.end_lineno >= stmt.lineno \
                or after is not None and after.lineno <= stmt.end_lineno
    return False


def operator_plan(tree: ast.AST, call: ast.Call, finding):
    """The operator's format text and values for ``call``, or why it cannot take it: the project's
    torch has no operator, TorchScript compiles the code (and rejects it), or a value does not qualify."""
    data = finding.data if isinstance(finding.data, dict) else {}
    if not data.get("print_operator"):
        return "the project's torch has no print operator (or no torch was found on its interpreter's path)"
    if moved_guard(tree, call, finding) is not None:
        return "the `if` on a tensor around it would still break the graph (a deferral moves that `if` with the call)"
    return torchscript_reason(finding, "torch's print operator") or plan(tree, call, known_tensors(finding))


def carries(tree: ast.AST, call: ast.Call, finding) -> bool:
    """Whether the operator can take ``call``."""
    return not isinstance(operator_plan(tree, call, finding), str)


def blocked_reason(tree: ast.AST, call: ast.Call, finding, deferral: str | None) -> str | None:
    """Why fix-all leaves a `print` alone: the operator is unsafe, or it cannot take this call
    (then why the deferral, ``deferral``, does not apply either)."""
    if deferral is None:
        return None
    planned = operator_plan(tree, call, finding)
    if isinstance(planned, str):
        return f"{deferral}; torch's print operator cannot take it: {planned}"
    if not planned[1]:
        return None  # constants alone: the operator prints the same line where the call was
    return (f"{deferral}; torch's print operator keeps it in the graph instead, but compiled under autograd the "
            "tensors it prints lose their `grad_fn=` tag (an unsafe fix: a quick fix, or "
            "`fullgraph fix --unsafe-fixes`)")


def _f_string(node: ast.JoinedStr, known: set[str], values: list[ast.expr]) -> str:
    """The format-string text of an f-string, its values appended to ``values``; "\\0reason" when
    a value or a nested format spec cannot be carried."""
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(_escape(str(part.value)))
            continue
        spec = ""
        if part.format_spec is not None:
            if not all(isinstance(p, ast.Constant) for p in part.format_spec.values):
                return "\0a format spec computed at run time is not carried"
            spec = ":" + "".join(str(p.value) for p in part.format_spec.values)
        if not _carried(part.value, known):
            return "\0" + _not_carried(part.value)
        out.append("{" + CONVERSIONS.get(part.conversion, "") + spec + "}")
        values.append(part.value)
    return "".join(out)


def _carried(node: ast.expr, known: set[str]) -> bool:
    """A leaf value the operator passes unchanged: a constant, a tensor the engine knows (not a
    module attribute, which may be a parameter), or a size read from such a tensor."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, CONSTANTS)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)
    if _tensor(node, known):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return _int(node.slice) and _tensor(node.value.value, known)
    if isinstance(node, ast.Attribute) and node.attr == "ndim":
        return _tensor(node.value, known)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        receiver, name = node.func.value, node.func.attr
        sized = name == "size" and len(node.args) == 1 and _int(node.args[0])
        return (sized or (name in SIZE_READS and not node.args)) and _tensor(receiver, known)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return len(node.args) == 1 and not node.keywords and _tensor(node.args[0], known)
    return False


def _tensor(node: ast.expr, known: set[str]) -> bool:
    return not isinstance(node, ast.Attribute) and ast.unparse(node) in known


def _int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _not_carried(node: ast.expr) -> str:
    sized = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size"
    if (isinstance(node, ast.Attribute) and node.attr == "shape") or (sized and not node.args):
        return f"`{ast.unparse(node)}` is a `torch.Size`, which the operator would print as a tuple"
    if isinstance(node, ast.Attribute):
        return f"`{ast.unparse(node)}` is an attribute, which may be a parameter (printed with its own header)"
    return f"`{ast.unparse(node)}` is not known to be a tensor, a size or a constant (the values the operator carries)"


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
