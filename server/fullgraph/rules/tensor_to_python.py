"""FG2xx: tensor values converted to Python objects."""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import local_bindings
from fullgraph.analysis.facts import NUMPY, TENSORISH, string_literal
from fullgraph.analysis.nodes import walk
from fullgraph.rules.common import (
    builtin_call,
    confidence,
    last_binding,
    method_call,
    numpy_origin,
    scalar_sink_operand,
    snippet,
)
from fullgraph.rules.rule import Rule

_CAPTURE_SCALARS = (" The second quick fix sets `torch._dynamo.config.capture_scalar_outputs = True` for the "
                    "whole process: Dynamo then keeps the value as a symbolic scalar in the graph, which works "
                    "when it feeds arithmetic or sizes, but a Python `if` on it becomes a hard error "
                    "(\"could not guard on data-dependent expression\") unless you add `torch._check`s, and "
                    "`.tolist()` of a floating tensor still breaks.")

_STORED = (" A Python number a method stores on its module (`self.avg_dist = dist.mean().item()`, statistics kept "
           "for the user to read) is stored once the module's call returns instead: while compiled, the tensor is "
           "captured where the store stood and the conversion (with any NumPy or `math` step around it) runs when "
           "the call returns, from the hooks FG301's deferral adds, so the attribute gets the same value. It applies "
           "when a module `forward` of the file runs the method (its own, or the inherited one calling it on "
           "`self`) and nothing else in the module's class, in any file, uses the attribute in between (a safe fix; "
           "unsafe when the module also runs inside other module code, where the store stays in place).")

RULES = [
    Rule(
        "FG201", "item", "`.item()` turns a tensor into a Python number", ("GB0124",),
        what="Flags `.item()` calls (not in the arguments of a print/logging/warnings call in epilogue position, see FG301).",
        why="With the default `capture_scalar_outputs=False`, Dynamo cannot put a Python scalar read "
            "from tensor data into the graph, so it breaks at `.item()` (GB0124).",
        example="scale = x.abs().max().item()\ny = x / scale",
        fixed_example="scale = x.abs().max()\ny = x / scale",
        fix_text="Keep the value as a 0-dim tensor when it only feeds tensor arithmetic: an unsafe fix (a quick "
                 "fix, or `fullgraph fix --unsafe-fixes`), because a tensor takes part in type promotion where a "
                 "Python number does not (`x.sum() * s` with a float16 `x` gives float32; a float16 operand meets "
                 "the value rounded to float16). A flag only tested "
                 "by `if`s keeps the tensor and those `if`s are predicated (a safe fix), where each test compares "
                 "alike on the tensor: a number it meets must be exact in every floating dtype (`> 0.5`, not "
                 "`> 0.3`: `float32(0.3) > 0.3` holds as Python floats, not as float32 tensors), and `int()` "
                 "must read a tensor known to hold integers (`int(0.5) > 0` is False). In an `assert`, the check is lowered "
                 "to `torch._assert_async` on the tensor: an unsafe fix (a quick fix, or `fullgraph fix "
                 "--unsafe-fixes`), because a failing check then raises RuntimeError instead of AssertionError "
                 "(and on a GPU fails later, as a device-side assert)." + _STORED + _CAPTURE_SCALARS,
        fix_kind="keep-tensor", fix_title="Keep the value as a tensor, or store it once the module's call returns",
        knob="capture_scalar_outputs",
    ),
    Rule(
        "FG202", "tolist", "`.tolist()` turns a tensor into Python lists", ("GB0109", "GB0033"),
        what="Flags `.tolist()` calls.",
        why="Dynamo cannot trace `tolist()` on floating tensors (GB0109) and on integer tensors it "
            "needs data-dependent scalars (GB0033).",
        example="sizes = counts.tolist()\nparts = x.split(sizes)",
        fixed_example="parts = x.split(self.sizes)  # sizes known ahead of time",
        fix_text="Keep the data in tensors, or compute the Python values outside the compiled region."
                 + _CAPTURE_SCALARS,
        knob="capture_scalar_outputs",
    ),
    Rule(
        "FG203", "numpy-conversion", "`.numpy()` value read back into Python", ("GB0033",),
        what="Flags `t.numpy()` whose result is turned into a Python scalar or list (`.item()`, "
             "`.tolist()`, `float()`, `int()`, `bool()`).",
        why="Dynamo traces `.numpy()` and NumPy operations through its `torch._numpy` shim, but reading "
            "a value out of the array is a data-dependent operator it cannot put in the graph (GB0033).",
        example="total = x.numpy().sum().item()\nreturn x * total",
        fixed_example="total = x.sum()\nreturn x * total",
        fix_text="Use the torch operation and keep the result as a tensor.",
    ),
    Rule(
        "FG204", "python-scalar-cast", "`int()`/`float()` of a tensor", ("GB0124",),
        what="Flags `int(t)` and `float(t)` where `t` is a tensor (not in the arguments of a print/logging/warnings call in epilogue position, see FG301).",
        why="The cast reads the tensor's value (an implicit `.item()`), which Dynamo cannot trace "
            "with `capture_scalar_outputs=False` (GB0124).",
        example="n = int(mask.sum())\ny = x * n",
        fixed_example="n = mask.sum()\ny = x * n",
        fix_text="Keep the value as a tensor when it only feeds tensor arithmetic: an unsafe fix (a quick fix, or "
                 "`fullgraph fix --unsafe-fixes`), as for `.item()` (FG201: a kept tensor takes part in type "
                 "promotion). Dropping `float(t)` is unsafe wherever it is, unless the tensor holds integers: torch "
                 "warns when `float()` converts a tensor that requires grad, and the kept tensor converts nothing, "
                 "so that warning is no longer printed." + _STORED + _CAPTURE_SCALARS,
        fix_kind="keep-tensor", fix_title="Keep the value as a tensor, or store it once the module's call returns",
        knob="capture_scalar_outputs",
    ),
    Rule(
        "FG205", "tensor-to-string", "tensor formatted into a string", ("GB0059", "GB0088", "GB0208"),
        what="Flags tensors in `str()`, `repr()`, `format()` and `%`, and in f-strings and `str.format` whose "
             "text is used at once (a method of the string, `len()`, a comparison, an operator): Dynamo builds "
             "those two lazily, so one that is only stored, returned or passed on costs no break.",
        why="Formatting a tensor reads its values (`Tensor.__repr__` / `__format__`), which Dynamo "
            "cannot trace: depending on the spelling it reports GB0059 'Failed to trace builtin "
            "operator', GB0088 or GB0208.",
        example="width = len(f\"loss={loss}\")",
        fixed_example="msg = \"loss computed\"  # or format outside the compiled region",
        fix_text="Format metadata (`x.shape`, `x.dtype`) instead, or move the formatting out of the region.",
    ),
    Rule(
        "FG206", "tensor-as-size", "a computed tensor used as a size, slice bound or index", ("GB0033", "GB0124"),
        what="Flags a reduction of tensor data (`lengths.max()`, `mask.sum()`) passed as a size to "
             "`torch.arange`/`zeros`/`ones`/`empty`/`full`/`rand`/`randn`/`linspace`, to `new_zeros`-style "
             "methods, `view`/`reshape`/`expand`, or as `narrow`'s start or length (a tensor made from shapes and ints is known to Dynamo "
             "symbolically), any tensor computed in the region used as a slice bound (`x[:, :n]`, `slice(start, stop)`) or as "
             "`repeat_interleave`'s `output_size`, and the 0-d "
             "tensor of `argmax()`/`argmin()` without `dim` used as an index (`x[scores.argmax()]`).",
        why="A size (or an index by a 0-d tensor) must be a Python int: Dynamo reads the tensor's value (`aten._local_scalar_dense`, a "
            "data-dependent operator, GB0033) and breaks the graph.",
        example="steps = torch.arange(lengths.max())",
        fixed_example="steps = torch.arange(max_length)  # a Python int known before the region",
        fix_text="Pass a Python int (a shape, a config value) instead, or compute the size outside the region.",
        severity="warning",
    ),
    Rule(
        "FG207", "tensor-equal", "`torch.equal()` / `allclose()` reads tensor data into a Python bool", ("GB0033",),
        what="Flags `torch.equal(a, b)`, `a.equal(b)`, `torch.allclose(a, b)`, `a.allclose(b)` and "
             "`a.is_nonzero()` when an operand is a tensor.",
        why="They return a Python bool that depends on the tensors' data (`aten.equal`, `aten.allclose`, "
            "`aten.is_nonzero`: data-dependent operators, GB0033): Dynamo breaks the graph there, whether or "
            "not an `if` uses it.",
        example="if not torch.equal(row, col):\n    return False",
        fixed_example="same = (row.shape == col.shape) and bool((row == col).all())  # outside the region\n"
                      "# or keep it a tensor inside: (row == col).all()",
        fix_text="Keep the comparison a tensor (`(a == b).all()`) and let later tensor code use it, or decide "
                 "it outside the compiled region.",
    ),
    Rule(
        "FG208", "check-tensor-all", "`torch._check_tensor_all()` reads tensor data into Python", ("GB0124",),
        what="Flags `torch._check_tensor_all(cond, ...)` calls in compiled regions.",
        why="`torch._check_tensor_all` takes `cond.all().item()` to decide whether to raise: with the default "
            "`capture_scalar_outputs=False` Dynamo breaks the graph at that `.item()` (GB0124). `torch._check` "
            "on Python and symbolic values does not.",
        example="torch._check_tensor_all(lengths > 0, lambda: \"empty sequence\")",
        fixed_example="torch._assert_async((lengths > 0).all(), \"empty sequence\")  # checked on the device",
        fix_text="Use `torch._assert_async(cond.all(), msg)`, which Dynamo keeps in the graph, or check "
                 "outside the compiled region.",
    ),
    Rule(
        "FG209", "math-of-tensor", "a `math` function of a tensor", ("GB0033",),
        what="Flags a call of a function of Python's `math` module (`math.sqrt`, `math.floor`, `math.exp`, "
             "`math.isnan`, ...) with a tensor argument in a compiled region.",
        why="`math` functions take Python numbers: given a tensor, they read its value (`float(t)` or "
            "`t.__index__()`, an implicit `.item()`), which Dynamo cannot trace with the default "
            "`capture_scalar_outputs=False`: it breaks the graph there (GB0033 'Data dependent operator').",
        example="s = math.sqrt(h.pow(2).mean())\nreturn h / s",
        fixed_example="s = torch.sqrt(h.pow(2).mean())\nreturn h / s",
        fix_text="Use the torch function (`torch.sqrt(t)`, `t.floor()`, `torch.exp(t)`, `torch.isnan(t)`), which "
                 "keeps the value a tensor in the graph; where the result must be a Python number, compute it "
                 "outside the compiled region. No automatic fix: the torch function computes in the tensor's "
                 "dtype where `math` computed in double precision.",
    ),
]

# Callables whose positional arguments are sizes (`torch.full`: only the first; `linspace`: the third;
# `narrow`: from the dimension on).
SIZE_CALLS = {"torch.arange": None, "torch.zeros": None, "torch.ones": None, "torch.empty": None,
              "torch.rand": None, "torch.randn": None, "torch.full": 0, "torch.linspace": 2}
SIZE_SLICES = {"torch.narrow": slice(1, 4)}
SIZE_METHODS = frozenset(("new_zeros", "new_ones", "new_empty", "new_full", "view", "reshape", "expand", "narrow"))


def _what(node: ast.expr, w) -> str:
    """How a message names the value read into Python: NumPy code is traced as tensors too."""
    return "a NumPy value (traced as a tensor)" if w.kind(node) == NUMPY else "a tensor"


def check_call(node: ast.Call, w) -> None:
    func = node.func
    if method_call(node, "item") and not node.args and not node.keywords:
        w.report("FG201", node, f"`{snippet(node)}` converts {_what(func.value, w)} to a Python number",
                 confidence(w, func.value))
    elif method_call(node, "tolist") and not node.args:
        w.report("FG202", node, f"`{snippet(node)}` converts {_what(func.value, w)} to Python lists",
                 confidence(w, func.value))
    elif builtin_call(node, w, "int", "float") and len(node.args) == 1 and w.kind(node.args[0]) in TENSORISH:
        w.report("FG204", node, f"`{snippet(node)}` reads a tensor's value into a Python {func.id}",
                 confidence(w, node.args[0]))
    elif (w.resolve(func) or "").startswith("math.") and (read := _tensor_argument(node, w)) is not None:
        w.report("FG209", node, f"`{snippet(node)}` reads a tensor's value into a Python number", confidence(w, read),
                 gb_ids=("GB0033",))
    elif w.resolve(func) == "torch._check_tensor_all" and node.args:
        w.report("FG208", node, f"`{snippet(node)}` reads a tensor's value to decide whether to raise",
                 confidence(w, node.args[0]))
    elif operands := _equal_operands(node, w):
        w.report("FG207", node, f"`{snippet(node)}` reads tensor data into a Python bool",
                 "certain" if any(w.is_tensor(o) for o in operands) else "likely")
    elif _formats_tensor(node, w) and not _quiet(w) and (not method_call(node, "format") or _text_used(node, w.parent(1))):
        w.report("FG205", node, f"`{snippet(node)}` formats a tensor into a string")


def _tensor_argument(node: ast.Call, w) -> ast.expr | None:
    """The first argument of ``node`` known to be a tensor, guesses aside (a `math` function is far more
    often given a number: a guessed parameter is not taken for a tensor here), if any."""
    return next((a for a in [*node.args, *(k.value for k in node.keywords)] if w.facts.known_tensor(a)), None)


def _equal_operands(node: ast.Call, w) -> list[ast.expr]:
    """The tensor operands of `torch.equal(a, b)`, `a.equal(b)`, their `allclose` forms and
    `a.is_nonzero()` (none for another call)."""
    callee = w.resolve(node.func)
    if callee in ("torch.equal", "torch.allclose"):
        operands = node.args[:2]
    elif callee == "torch.is_nonzero":
        operands = node.args[:1]
    elif method_call(node, "equal", "allclose") and node.args:
        operands = [node.func.value, node.args[0]]
    elif method_call(node, "is_nonzero") and not node.args:
        operands = [node.func.value]
    else:
        return []
    return [o for o in operands if w.kind(o) in TENSORISH]


def _formats_tensor(node: ast.Call, w) -> bool:
    """`str(t)`, `repr(t)`, `format(t)` or `"...".format(t)`."""
    if builtin_call(node, w, "str", "repr", "format"):
        return bool(node.args) and w.is_tensor(node.args[0])
    return method_call(node, "format") and string_literal(node.func.value) and any(
        w.is_tensor(a) for a in [*node.args, *(k.value for k in node.keywords)])


def check_numpy_readback(node: ast.Call, w) -> None:
    """FG203 for a ``t.numpy()`` value read back into Python, FG410 for ``numpy.f(tensor)``'s."""
    operand = scalar_sink_operand(node, w)
    origin = numpy_origin(operand, w) if operand is not None else None
    if origin is None:
        return
    inline = any(sub is origin for sub in walk(operand))
    at, later = (origin, "") if inline else (node, f" by `{snippet(node)}`")  # a name bound to it: read here
    if method_call(origin, "numpy"):
        w.report("FG203", at, f"`{snippet(origin)}` is read back into Python from NumPy{later}")
    else:
        w.report("FG410", at, f"`{snippet(origin.func)}(...)` on a tensor is read back into Python{later}")


def _text_used(string: ast.AST, holder: ast.AST | None) -> bool:
    """Whether a string built from a tensor is used where its text is needed at once: a method
    of it, a comparison, an operator, an index, a builtin such as `len()`. Dynamo builds an
    f-string or `str.format` lazily: stored, returned or passed on, it costs no break (printing
    or logging it is reported by those rules)."""
    if isinstance(holder, ast.Attribute) and holder.value is string:
        return True
    if isinstance(holder, (ast.Compare, ast.BinOp, ast.Subscript, ast.JoinedStr)):
        return True
    return isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name) and holder.func.id in TEXT_BUILTINS \
        and any(a is string for a in holder.args)


TEXT_BUILTINS = frozenset(("len", "hash", "int", "float", "bool", "ord", "list", "tuple", "set", "sorted", "open"))


def check_formatted(node: ast.FormattedValue, w) -> None:
    if w.is_tensor(node.value) and not _quiet(w) and _text_used(w.parent(1), w.parent(2)):
        w.report("FG205", node, f"f-string formats tensor `{snippet(node.value)}`")


def check_binop(node: ast.BinOp, w) -> None:
    if isinstance(node.op, ast.Mod) and string_literal(node.left) and not _quiet(w):
        values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        if any(w.is_tensor(v) for v in values):
            w.report("FG205", node, f"`{snippet(node)}` formats a tensor into a string")


def _quiet(w) -> bool:
    """Strings inside print/logging/warnings calls are reported by those rules; assert and raise
    messages are only built when the check fails."""
    for ancestor in reversed(w.parents[:-1]):
        if isinstance(ancestor, (ast.Assert, ast.Raise)) or id(ancestor) in w.quiet:
            return True
        if isinstance(ancestor, ast.stmt):
            return False
    return False


def _computed_tensor(node: ast.AST, w) -> bool:
    """A tensor the region computes (not an input of the compiled entry, which Dynamo may
    specialise as a constant); a helper's parameters hold what its callers computed."""
    if w.is_entry and isinstance(node, ast.Name) and node.id in {
            a.arg for a in (*w.function.node.args.args, *w.function.node.args.kwonlyargs)}:
        return False
    return w.is_tensor(node)


def size_arguments(node: ast.Call, w) -> list[ast.expr]:
    """The arguments of a call that are sizes (tuple and list elements included)."""
    q = w.resolve(node.func)
    if q in SIZE_CALLS:
        position = SIZE_CALLS[q]
        args = node.args if position is None else node.args[position:position + 1]
    elif q in SIZE_SLICES:
        args = node.args[SIZE_SLICES[q]]
    elif q is None and method_call(node, *SIZE_METHODS) and w.is_tensor(node.func.value):
        args = node.args[:1] if method_call(node, "new_full") else node.args  # new_full(size, fill_value)
    else:
        return []
    return [e for a in args for e in (a.elts if isinstance(a, (ast.Tuple, ast.List)) else [a])]


REDUCTIONS = frozenset(("max", "min", "sum", "prod", "amax", "amin", "argmax", "argmin", "count_nonzero"))


def _reads_data(node: ast.AST, w, depth: int = 3) -> bool:
    """A size computed from tensor data (`lengths.max()`, `torch.sum(mask)`, or a local name the
    function last bound to one before this line): Dynamo knows a tensor made from shapes and ints
    (`torch.div(x.size(1), 2)`) symbolically, but not a reduction's value."""
    for sub in walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in REDUCTIONS:
            q = w.resolve(sub.func)
            operand = sub.args[0] if q is not None and sub.args else sub.func.value if q is None else None
            if operand is not None and w.is_tensor(operand):
                return True
        elif isinstance(sub, ast.Name) and depth:
            value = last_binding(w.function.node, sub.id, getattr(node, "lineno", 0))
            if value is not None and _reads_data(value, w, depth - 1):
                return True
    return False


def check_size(node: ast.Call, w) -> None:
    for size in size_arguments(node, w):
        if _computed_tensor(size, w) and _reads_data(size, w):
            w.report("FG206", size, f"`{snippet(size)}` is a tensor used as a size: Dynamo reads its value")
            return
    total = _output_size(node, w)
    if total is not None and _computed_tensor(total, w):
        w.report("FG206", total, f"`{snippet(total)}` is a tensor passed as `output_size`: Dynamo reads its value")


def _output_size(node: ast.Call, w) -> ast.expr | None:
    """The `output_size` of `torch.repeat_interleave(...)` / `t.repeat_interleave(...)`, which must be an int."""
    q = w.resolve(node.func)
    if q == "torch.repeat_interleave" or q is None and method_call(node, "repeat_interleave") \
            and w.is_tensor(node.func.value):
        return next((k.value for k in node.keywords if k.arg == "output_size"), None)
    return None


def check_slice(node: ast.Slice, w) -> None:
    _report_bound((node.lower, node.upper, node.step), w)


def check_slice_call(node: ast.Call, w) -> None:
    """`slice(start, stop)` built from tensors: the same bounds as `x[start:stop]`."""
    if builtin_call(node, w, "slice") and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
        _report_bound(node.args, w)


def _report_bound(bounds, w) -> None:
    for bound in bounds:
        if bound is not None and _computed_tensor(bound, w):
            w.report("FG206", bound, f"`{snippet(bound)}` is a tensor used as a slice bound: Dynamo reads its value")
            return


def _scalar_index(node: ast.AST, w) -> bool:
    """A 0-d integer tensor: `argmax()`/`argmin()` of a tensor with no `dim`, or a local name only
    such calls bind."""
    if isinstance(node, ast.Call):
        func, q = node.func, w.resolve(node.func)
        if q in ("torch.argmax", "torch.argmin"):
            return len(node.args) == 1 and not node.keywords
        return (q is None and isinstance(func, ast.Attribute) and func.attr in ("argmax", "argmin")
                and not node.args and not node.keywords and w.is_tensor(func.value))
    if isinstance(node, ast.Name) and w.is_tensor(node):
        values = local_bindings(w.function.node).get(node.id)
        return bool(values) and all(isinstance(v, ast.Call) and _scalar_index(v, w) for v in values)
    return False


def check_index(node: ast.Subscript, w) -> None:
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    index = next((p for p in parts if _scalar_index(p, w)), None)
    if index is not None and w.is_tensor(node.value):
        w.report("FG206", index, f"`{snippet(index)}` is a 0-d tensor used as an index: Dynamo reads its value")


CHECKS = {
    ast.Call: [check_call, check_numpy_readback, check_size, check_slice_call],
    ast.FormattedValue: [check_formatted],
    ast.BinOp: [check_binop],
    ast.Slice: [check_slice],
    ast.Subscript: [check_index],
}
