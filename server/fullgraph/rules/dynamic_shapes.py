"""FG45x: operators whose output shape depends on tensor data."""

from __future__ import annotations

import ast

from fullgraph.analysis.facts import TENSORISH
from fullgraph.rules.common import builtin_call, confidence, method_call, snippet
from fullgraph.rules.rule import Rule

_CAPTURE = ("Set `torch._dynamo.config.capture_dynamic_output_shape_ops = True` to trace it with "
            "unbacked sizes (the quick fix adds that line), or restructure to keep shapes static. The "
            "setting holds for the whole process; code after the op must not branch on the unknown size "
            "(a hard error instead of a break) and backends may compile such graphs less well.")

RULES = [
    Rule(
        "FG451", "nonzero", "`nonzero()` has a data-dependent output shape", ("GB0036",),
        what="Flags `torch.nonzero`, `.nonzero()`, `torch.argwhere`, `torch.masked_select` and "
             "one-argument `torch.where(cond)`.",
        why="The number of output elements depends on the data; with the default "
            "`capture_dynamic_output_shape_ops=False` Dynamo breaks the graph (GB0036).",
        example="idx = mask.nonzero()",
        fixed_example="out = torch.where(mask, x, torch.zeros_like(x))  # keep a static shape",
        fix_text=_CAPTURE,
        knob="capture_dynamic_output_shape_ops",
    ),
    Rule(
        "FG452", "unique", "`unique()` has a data-dependent output shape", ("GB0036",),
        what="Flags `torch.unique`, `.unique()`, `torch.unique_consecutive` and `torch.bincount`, with or "
             "without `minlength`.",
        why="The output size depends on the data (GB0036). `bincount`'s length is "
            "`max(minlength, y.max() + 1)`: `minlength` is only a lower bound, so Dynamo breaks there too.",
        example="labels = torch.unique(y)\ncounts = torch.bincount(y, minlength=self.num_classes)",
        fixed_example="counts = F.one_hot(y, num_classes=self.num_classes).sum(0)  # every y < num_classes",
        fix_text=_CAPTURE,
        knob="capture_dynamic_output_shape_ops",
    ),
    Rule(
        "FG453", "boolean-mask-index", "indexing with a boolean mask", ("GB0036",),
        what="Flags `x[mask]` and `x[:, mask]` reads, and `x[mask] += y` updates, where `mask` is a boolean "
             "tensor: a comparison of tensors (or its `~`, `&`, `|`), an `isnan`-like result, a tensor made "
             "with `dtype=torch.bool`, a `BoolTensor` parameter, or a reshape or device move of one; or a list of "
             "booleans (`[t == \"circular\" for t in tails]`), which torch turns into a mask. A plain "
             "store `x[mask] = y` keeps static shapes and is not flagged.\n\n"
             "The quick fix rewrites a store back through the same mask: `x[m] = y[m]` (or `-y[m]`) becomes "
             "`x.copy_(torch.where(m, y, x))` (`y.to(x.dtype)` unless `y` is known to have `x`'s dtype, as the store "
             "casts it: `torch.where` would promote the others), and `x[m] += v` becomes "
             "`x.copy_(torch.where(m, x.clone().add_(v), x))`, where `v` is a number or `y[m]`. It applies "
             "when `m` is built element by element from a tensor of `x`'s shape (so it has that shape: a "
             "mask over leading dimensions only would broadcast differently), and `m` has no side effects "
             "(it is computed once instead of at each use). Values and gradients are those of the store. "
             "Code that raised before, on a dtype or shape mismatch, may no longer raise.\n\n"
             "A selection reduced whole at once reduces over `torch.where` instead, with the same mask "
             "conditions: `x[m].any()` becomes `torch.where(m, x, False).any()`, `x[m].all()` "
             "`torch.where(m, x, True).all()`, `x[m].sum()` and `x[m].count_nonzero()` put 0 in place of the "
             "others, and `x[m].mean()` becomes `torch.where(m, x, 0).sum() / m.sum()` (NaN when nothing is "
             "selected, as before); `torch.sum(x[m])` and the other function forms too. `any`, `all`, "
             "`count_nonzero` and the sum of a boolean tensor give the same result. A floating-point sum or "
             "mean adds the same values in another order, so its last bits may differ: that fix is unsafe "
             "(a quick fix, or `fullgraph fix --unsafe-fixes`).",
        why="Boolean-mask indexing returns as many elements as the mask has `True` values, a "
            "data-dependent shape (GB0036).",
        example="positive = x[x > 0]",
        fixed_example="positive = torch.where(x > 0, x, 0)",
        fix_text="Use `torch.where` / `masked_fill` to keep the shape, or " + _CAPTURE[0].lower() + _CAPTURE[1:],
        fix_kind="where", fix_title="Select with torch.where (keeps the shape)",
        knob="capture_dynamic_output_shape_ops",
    ),
    Rule(
        "FG454", "one-hot-without-num-classes", "`one_hot` without `num_classes`", ("GB0246", "GB0033"),
        what="Flags `F.one_hot(x)` without `num_classes` (or with `num_classes=-1`), and with a `num_classes` "
             "computed from a tensor (`idx.max() + 1`, `max(idx.max() + 1, n)`).",
        why="The number of classes is then read from the data (`x.max() + 1`), a data-dependent shape "
            "Dynamo does not support (GB0246); a count given as a tensor is read the same way (GB0033, 'Data "
            "dependent operator').",
        example="onehot = F.one_hot(labels)",
        fixed_example="onehot = F.one_hot(labels, num_classes=self.num_classes)",
        fix_text="Pass `num_classes` explicitly.",
    ),
    Rule(
        "FG455", "repeat-interleave-without-output-size", "`repeat_interleave` by a tensor without `output_size`",
        ("GB0036",),
        what="Flags `torch.repeat_interleave(x, repeats)` and `x.repeat_interleave(repeats)` where `repeats` is a "
             "tensor and no `output_size` is given, and the one-argument `torch.repeat_interleave(repeats)`.",
        why="The output length is the sum of `repeats`, read from the data: with the default "
            "`capture_dynamic_output_shape_ops=False` Dynamo breaks the graph (GB0036). With `output_size` "
            "the length is known and the op traces.",
        example="expanded = torch.repeat_interleave(tokens, durations, dim=0)",
        fixed_example="expanded = torch.repeat_interleave(tokens, durations, dim=0, output_size=max_frames)",
        fix_text="Pass `output_size` when the total is known (a padded length, a config value), or " +
                 _CAPTURE[0].lower() + _CAPTURE[1:],
        knob="capture_dynamic_output_shape_ops",
    ),
]

NONZERO = frozenset(("torch.nonzero", "torch.argwhere", "torch.masked_select"))
UNIQUE = frozenset(("torch.unique", "torch.unique_consecutive"))


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def check_call(node: ast.Call, w) -> None:
    q = w.resolve(node.func)
    if q in NONZERO or method_call(node, "nonzero", "argwhere", "masked_select") and q is None:
        receiver = node.func.value if q is None else (node.args[0] if node.args else node)
        w.report("FG451", node, f"`{snippet(node)}` has a data-dependent output shape", confidence(w, receiver))
    elif q == "torch.where" and len(node.args) == 1 and not node.keywords:
        w.report("FG451", node, f"one-argument `{snippet(node)}` has a data-dependent output shape")
    elif q in UNIQUE or (q is None and method_call(node, "unique", "unique_consecutive") and w.is_tensor(node.func.value)):
        w.report("FG452", node, f"`{snippet(node)}` has a data-dependent output shape")
    elif q == "torch.bincount" or (q is None and method_call(node, "bincount") and w.is_tensor(node.func.value)):
        bound = "" if _keyword(node, "minlength") is None and len(node.args) < (3 if q else 2) else \
            " (`minlength` is only a lower bound on its length)"
        w.report("FG452", node, f"`{snippet(node)}` has a data-dependent output shape{bound}")
    elif (q == "torch.repeat_interleave" or (q is None and method_call(node, "repeat_interleave")
                                               and w.is_tensor(node.func.value))) and _keyword(node, "output_size") is None:
        repeats = _keyword(node, "repeats") or (node.args[1] if q and len(node.args) > 1 else
                                                node.args[0] if node.args else None)
        if repeats is not None and w.kind(repeats) in TENSORISH:
            w.report("FG455", node, f"`{snippet(node)}` repeats by a tensor without `output_size`", confidence(w, repeats))
    elif q == "torch.nn.functional.one_hot":
        classes = _keyword(node, "num_classes") or (node.args[1] if len(node.args) > 1 else None)
        negative = isinstance(classes, ast.UnaryOp) and isinstance(classes.op, ast.USub)
        if classes is None or negative:
            w.report("FG454", node, f"`{snippet(node)}` without `num_classes`")
        elif _tensor_count(classes, w):
            w.report("FG454", node, f"`{snippet(node)}` takes `num_classes` from a tensor (`{snippet(classes)}`), "
                     "whose value Dynamo reads", confidence(w, classes), gb_ids=("GB0033",))


def _tensor_count(node: ast.expr, w) -> bool:
    """A count computed from a tensor: a tensor itself, or Python's `max`/`min` over one (`max(idx.max() + 1, n)`)."""
    if w.kind(node) in TENSORISH:
        return True
    return isinstance(node, ast.Call) and builtin_call(node, w, "max", "min") \
        and any(w.kind(a) in TENSORISH for a in node.args)


def check_subscript(node: ast.Subscript, w) -> None:
    if isinstance(node.ctx, ast.Load) and w.is_tensor(node.value) and w.facts.masks_in(node.slice):
        w.report("FG453", node, f"`{snippet(node)}` indexes with a boolean mask")


def check_augassign(node: ast.AugAssign, w) -> None:
    """`x[m] += y` reads `x[m]` first (a plain `x[m] = y` store keeps static shapes)."""
    target = node.target
    if isinstance(target, ast.Subscript) and w.is_tensor(target.value) and w.facts.masks_in(target.slice):
        w.report("FG453", target, f"`{snippet(node)}` reads a boolean-mask selection before writing it back")


CHECKS = {ast.Call: [check_call], ast.Subscript: [check_subscript], ast.AugAssign: [check_augassign]}
