"""FG1xx: data-dependent control flow (Dynamo GB0170 and friends)."""

from __future__ import annotations

import ast

from fullgraph.analysis.facts import (
    LIKELY,
    NUMPY,
    TENSOR,
    TENSOR_ATTRS,
    TENSORISH,
    VALUE_ATTRS,
    Elements,
    Instance,
    Items,
    Module,
    string_literal,
)
from fullgraph.analysis.tensor_methods import TENSOR_METHODS
from fullgraph.rules.common import builtin_call, snippet
from fullgraph.rules.rule import Rule

RULES = [
    Rule(
        "FG101", "tensor-condition-if", "`if`/`elif` tests a tensor's value", ("GB0170",),
        what="Flags an `if` or `elif` whose test is a tensor (or `and`/`or`/`not` of tensors). NumPy "
             "arrays count too (`np.any(space.low != 0)`): Dynamo traces NumPy code as tensor code.",
        why="Dynamo traces one path through the code. Branching on a tensor's value needs the value, "
            "which only exists at run time, so Dynamo stops the graph at the test (GB0170 "
            "'Data-dependent branching') and runs the branch eagerly. The same holds for a NumPy "
            "array or NumPy scalar in compiled code, which Dynamo turns into a tensor; no tensor "
            "rewrite is offered for one.",
        example="def forward(self, x):\n    if x.sum() > 0:\n        x = x * 2\n    return x",
        fixed_example="def forward(self, x):\n    x = torch.where(x.sum() > 0, x * 2, x)\n    return x",
        fix_text="Compute both branches and select with `torch.where` (when both are cheap and "
                 "side-effect free), or use `torch.cond` for branches that return tensors of the "
                 "same shape. A test with the shape of the values it selects between (`if h > 0:` on a "
                 "one-element `h`) becomes an element-wise selection: where the original raised (a "
                 "tensor of several elements has no truth value), the rewrite selects element by element "
                 "instead. Declined where one side's value carries no gradient (`torch.zeros_like(h)`, "
                 "`h.detach()`, a constant) and the other may: the merged value would require grad on both "
                 "paths, and a parameter would get a zero gradient where it got none. Known differences: the "
                 "merged value is a new tensor, where a branch may have handed back the very tensor it was "
                 "given (`y = x`), so a caller's in-place change of the result no longer reaches that tensor; "
                 "and both sides run, so an operation that raises for some dtype on the side not taken (`h - 1` "
                 "of a bool tensor) raises.",
        fix_kind="predicate", fix_title="Predicate with torch.where",
    ),
    Rule(
        "FG102", "tensor-condition-while", "`while` loop tests a tensor's value", ("GB0170",),
        what="Flags a `while` loop whose condition is a tensor.",
        why="The number of iterations depends on tensor data, so Dynamo cannot unroll the loop; it "
            "breaks the graph at the test (GB0170) and, since the break sits in a loop, skips the "
            "whole function (GB7000).",
        example="def forward(self, x):\n    while x.norm() > 1:\n        x = x / 2\n    return x",
        fixed_example="def forward(self, x):\n    for _ in range(self.max_steps):\n"
                      "        x = torch.where(x.norm() > 1, x / 2, x)\n    return x",
        fix_text="Bound the loop by a Python int and predicate the body, or use "
                 "`torch._higher_order_ops.while_loop`.",
    ),
    Rule(
        "FG103", "tensor-condition-ternary", "conditional expression tests a tensor's value", ("GB0170",),
        what="Flags `a if cond else b` where `cond` is a tensor.",
        why="Like an `if`, the conditional expression needs the tensor's value at trace time (GB0170).",
        example="y = x * 2 if x.mean() > 0 else x",
        fixed_example="y = torch.where(x.mean() > 0, x * 2, x)",
        fix_text="Replace with `torch.where(cond, a, b)` when both branches are tensors of one shape and dtype "
                 "and safe to compute on both sides (pure torch ops, and helper methods and functions of the file "
                 "whose bodies are: no randomness, state, parameters or I/O). Python operands of a top-level "
                 "`and` stay a Python test: `a if self.training and c else b` becomes "
                 "`torch.where(c, a, b) if self.training else b`.",
        fix_kind="predicate", fix_title="Predicate with torch.where",
    ),
    Rule(
        "FG104", "tensor-assert", "`assert` on a tensor that Dynamo cannot lower", ("GB0170",),
        what="Flags `assert <tensor>, <message>` whose message is built at run time (f-string, `%`, "
             "`.format`, `str()`), and asserts whose test takes a tensor's truth value before Dynamo "
             "sees a tensor (`assert not t.any()`, `assert a.all() and b.all()`).",
        why="Dynamo rewrites `assert tensor_cond, \"literal\"` into `torch._assert_async`, but only "
            "when the message is a string constant and the test itself is a tensor; otherwise it must "
            "evaluate the condition in Python and breaks the graph (GB0170).",
        example="assert (x >= 0).all(), f\"negative input: {x.min()}\"",
        fixed_example="torch._assert_async((x >= 0).all(), \"negative input\")",
        fix_text="Use a literal message, or lower the check to `torch._assert_async(cond, \"message\")`: an "
                 "unsafe fix (a quick fix, or `fullgraph fix --unsafe-fixes`), because a failing check then raises "
                 "RuntimeError instead of AssertionError (and on a GPU fails later, as a device-side assert).",
        fix_kind="trap", fix_title="Lower to torch._assert_async",
    ),
    Rule(
        "FG105", "tensor-bool-coercion", "`and`/`or`/`not`/`bool()` on a tensor", ("GB0170", "GB0124", "GB0033"),
        what="Flags `and`, `or`, `not` and `bool()` applied to tensors outside an `if`/`while` test, "
             "chained comparisons of tensors there (`inside = lo < t < hi`, which Python evaluates as "
             "`lo < t and t < hi`), and Python's `any()`/`all()` over a tensor's elements or a list of "
             "tensors (`any(t > 0)`), which test each one's truth value.",
        why="Each of these asks for the tensor's truth value, a Python bool that only exists at run "
            "time: `and`/`or` and chained comparisons break as data-dependent branching (GB0170), "
            "`bool()` as a scalar read (GB0124) and `not` as a data-dependent operator (GB0033).",
        example="valid = (x > 0) and (x < 1)",
        fixed_example="valid = (x > 0) & (x < 1)",
        fix_text="Use the element-wise operators `&`, `|`, `~` or `torch.logical_and/or/not`. A chained "
                 "comparison has no automatic fix: write `(lo < t) & (t < hi)` (its value is then a tensor, "
                 "which an `if` on it still branches on).",
        fix_kind="predicate", fix_title="Use element-wise logical operators",
    ),
    Rule(
        "FG106", "tensor-range", "`range()` over a tensor value", ("GB0059",),
        what="Flags `range()` with a tensor argument, or a NumPy value (`range(np.prod(x.shape[1:]))`).",
        why="`range` needs a Python int; converting the tensor reads its value at run time, which "
            "Dynamo cannot trace (GB0059 / GB0124). Dynamo traces NumPy calls as tensor code, so a NumPy "
            "scalar is a tensor there too (\"Failed to trace builtin operator\").",
        example="for i in range(lengths.max()):\n    ...",
        fixed_example="for i in range(x.size(1)):\n    ...",
        fix_text="Loop over a shape (`x.size(d)`) or a config value instead, or vectorise the loop.",
    ),
    Rule(
        "FG107", "tensor-guard-raise", "`if <tensor>: raise ...` guard", ("GB0170",),
        what="Flags an `if` on a tensor whose only statement raises an exception with a literal message.",
        why="The guard branches on tensor data (GB0170). Unlike a general `if`, it can be lowered to "
            "an in-graph check.",
        example="if torch.isnan(x).any():\n    raise ValueError(\"NaN in input\")",
        fixed_example="torch._assert_async(~torch.isnan(x).any(), \"NaN in input\")",
        fix_text="Lower to `torch._assert_async(~cond, \"message\")`: an unsafe fix (a quick fix, or `fullgraph "
                 "fix --unsafe-fixes`), because a failing check then raises RuntimeError instead of the exception "
                 "the code raised, so an `except ValueError:` in a caller no longer catches it (and on a GPU it "
                 "fails later, as a device-side assert). The message is kept.",
        fix_kind="trap", fix_title="Lower to torch._assert_async",
    ),
    Rule(
        "FG108", "assert-non-string-message", "`assert` on a tensor with a non-string message",
        ("GB0170", "GB0171"),
        what="Flags `assert <tensor>, <message>` whose message is neither a string literal nor a built "
             "string: a value such as `x.shape`, a tuple, a number.",
        why="Dynamo only rewrites asserts with string-literal messages into `torch._assert_async`; with "
            "any other message it has to evaluate the tensor condition in Python (GB0170, or GB0171 "
            "'assert with non-string message').",
        example="assert (x > 0).all(), (x.shape, \"bad\")",
        fixed_example="assert (x > 0).all(), \"bad input\"",
        fix_text="Use a literal string message.",
    ),
    Rule(
        "FG109", "tensor-method-truth", "a tensor's method tested without calling it", ("GB4841",),
        what="Flags a tensor method used as a truth value without its call: `x if x.is_floating_point "
             "else x.float()`, `if mask.any:`, `not t.is_contiguous` (methods of `torch.Tensor`, not "
             "properties such as `is_cuda` or `requires_grad`).",
        why="A bound method is always true, so the test never does what it says. Dynamo cannot take the "
            "truth value of a method of a tensor computed in the graph (GB4841, 'Unsupported "
            "python_type() call'): it breaks, or runs the whole function eagerly (probed on torch 2.13).",
        example="preds = preds if preds.is_floating_point else preds.float()",
        fixed_example="preds = preds if preds.is_floating_point() else preds.float()",
        fix_text="Call the method. That changes what the code does (the test was always true), so it is "
                 "not applied automatically: check which branch was meant.",
    ),
    Rule(
        "FG110", "tensor-condition-comprehension", "comprehension `if` filter tests a tensor's value", ("GB0170",),
        what="Flags the `if` clauses of list, set and dict comprehensions and generator expressions that "
             "test a tensor: `[p for p, r in zip(precision, recall) if r >= min_recall]`.",
        why="Each element's filter needs the tensor's truth value in Python, a data-dependent branch "
            "(GB0170), and the number of elements kept depends on the data.",
        example="best = max(p for p, r in zip(precision, recall) if r >= min_recall)",
        fixed_example="best = torch.where(recall >= min_recall, precision, 0.0).max()",
        fix_text="Compute on the whole tensor with `torch.where` (keep the elements that fail the filter as a "
                 "neutral value) instead of filtering element by element; indexing with the boolean mask "
                 "would make the length data-dependent (FG453).",
    ),
    Rule(
        "FG111", "assert-on-object", "`assert` on a module or a container of tensors", ("GB0055", "GB0112"),
        what="Flags `assert <value>` (with or without a message) whose value is a module "
             "(`assert self.layers`), an object of a class known to the index (made or passed in the "
             "compiled code, whether or not it defines `__bool__`), or a list, tuple or dict holding tensors or modules "
             "(`assert [self.proj]`, a `list[Tensor]` argument), as the whole test or the last operand of "
             "`and`/`or`.",
        why="Dynamo takes an `assert` on anything that is not a constant for a tensor check and tries to "
            "lower it to `torch._assert`; a module or another object has no graph value (GB0055, 'Failed to convert "
            "args/kwargs to proxy'), a list of tensors is no tensor (GB0112, a TypeError while tracing the "
            "check), and Dynamo gives up on the whole function: it runs eagerly, "
            "with no graph at all (probed on torch 2.13). An `if` on the same value, or `assert` on "
            "`len(...)` or `is not None`, is fine.",
        example="assert self.blocks, \"no blocks\"",
        fixed_example="assert len(self.blocks) > 0, \"no blocks\"",
        fix_text="Assert what the truth test means: `len(xs) > 0` for a list, tuple, dict or module "
                 "container, `m is not None` for an optional module. These are constants while Dynamo "
                 "traces. Not applied automatically: a class may define its own truth value.",
    ),
]



def _guard_raise(node: ast.If) -> bool:
    """`if cond: raise E("literal")` with no else."""
    if node.orelse or len(node.body) != 1 or not isinstance(node.body[0], ast.Raise):
        return False
    exc = node.body[0].exc
    if isinstance(exc, ast.Name):
        return True
    return isinstance(exc, ast.Call) and not exc.keywords and (
        not exc.args or (len(exc.args) == 1 and string_literal(exc.args[0])))


def _test_confidence(test: ast.AST, w) -> str | None:
    """How sure we are that evaluating `test` needs a tensor's value (None: it does not)."""
    return w.test_dependence(test)


def check_if(node: ast.If, w) -> None:
    confidence = _test_confidence(node.test, w)
    if confidence is None:
        return
    if _guard_raise(node):
        w.report("FG107", node, f"raise guarded by tensor condition `{snippet(node.test)}`", confidence)
    else:
        w.report("FG101", node, f"`if` branches on tensor value `{snippet(node.test)}`", confidence)


def check_while(node: ast.While, w) -> None:
    confidence = _test_confidence(node.test, w)
    if confidence:
        w.report("FG102", node, f"`while` loop condition depends on tensor value `{snippet(node.test)}`",
                 confidence)


def check_ifexp(node: ast.IfExp, w) -> None:
    confidence = _test_confidence(node.test, w)
    if confidence:
        w.report("FG103", node, f"conditional expression branches on tensor value `{snippet(node.test)}`",
                 confidence)


def _built_string(msg: ast.AST) -> bool:
    if isinstance(msg, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in msg.values)
    if isinstance(msg, ast.BinOp) and isinstance(msg.op, (ast.Mod, ast.Add)):
        return string_literal(msg.left) or _built_string(msg.left)
    if isinstance(msg, ast.Call):
        func = msg.func
        return (isinstance(func, ast.Attribute) and func.attr == "format" and string_literal(func.value)) or (
            isinstance(func, ast.Name) and func.id in ("str", "repr"))
    return False


def _folded_string(node: ast.expr) -> bool:
    """A string literal, or a `+` of them, which CPython folds into one constant before Dynamo runs."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _folded_string(node.left) and _folded_string(node.right)
    return string_literal(node)


def check_assert(node: ast.Assert, w) -> None:
    held = _object_value(node.test, w)
    if held is not None:
        value, what, tensors = held  # Dynamo cannot pass a module to `torch._assert` (GB0055), nor a list (GB0112)
        w.report("FG111", node, f"assert on `{snippet(value)}`, {what}: Dynamo tries to lower it to a tensor "
                                "check, cannot, and runs the whole function eagerly",
                 gb_ids=("GB0112",) if tensors else ("GB0055",))
        return
    msg = node.msg
    if msg is None or _folded_string(msg):
        _check_lowerable_assert(node, w)
        return
    confidence = _test_confidence(node.test, w)
    if confidence is None:
        return
    if _built_string(msg):
        w.report("FG104", node, f"assert on tensor value `{snippet(node.test)}` with a computed message",
                 confidence)
    else:
        w.report("FG108", node, f"assert on tensor value `{snippet(node.test)}` with a message that is not a "
                                f"string literal (`{snippet(msg)}`)", confidence)


def _object_value(test: ast.expr, w) -> tuple[ast.expr, str, bool] | None:
    """The value an assert's last jump tests (the test, or the last operand of `and`/`or`) when it
    is a module or a container of tensors or modules: the value, what it is, whether it holds tensors."""
    while isinstance(test, ast.BoolOp):
        test = test.values[-1]
    fact = w.kind(test)
    if isinstance(fact, Module):
        return test, f"a module (`{fact.cls.rpartition('.')[2]}`)", False
    if isinstance(fact, Instance):  # with or without `__bool__`/`__len__` (probed)
        return test, f"an object (`{fact.cls.rpartition('.')[2]}`)", False
    if isinstance(fact, Items):
        held = [f for f in fact.facts if f == TENSOR or isinstance(f, Module)]
        tensors = TENSOR in held
        return (test, f"a tuple holding {'tensors' if tensors else 'modules'}", tensors) if held else None
    if isinstance(fact, Elements) and (fact.element == TENSOR or isinstance(fact.element, Module)):
        kind = "a dict" if fact.keyed else "a tuple" if isinstance(test, ast.Tuple) else "a list"
        tensors = fact.element == TENSOR
        return test, f"{kind} of {'tensors' if tensors else 'modules'}", tensors
    return None


def _check_lowerable_assert(node: ast.Assert, w) -> None:
    """Dynamo lowers `assert t, "msg"` by itself only when the test is a tensor: `not t`, `and`/`or`
    with a tensor before the last operand, or a chained comparison take a truth value first."""
    test = node.test
    if isinstance(test, ast.Compare):
        confidence = _first_comparison(test, w)  # `lo <= t <= hi` tests `lo <= t` first
    elif isinstance(test, ast.BoolOp) or isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        confidence = w.test_dependence(test, truth=False)  # what Python tests before the assert sees its value
    else:
        return
    if confidence:
        w.report("FG104", node, f"assert on `{snippet(test)}`: Dynamo lowers an assert only when its test is a "
                                "tensor, and this one takes a tensor's truth value first", confidence)


def _is_test(node: ast.AST, w) -> bool:
    """True when `node` is (inside `and`/`or`/`not` of) an if/while/ternary/assert test or a
    comprehension filter, or inside an enclosing `and`/`or`/`not` (which reports instead)."""
    parent = w.parent()
    if isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        return True
    return isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is node \
        or isinstance(parent, ast.comprehension) and any(test is node for test in parent.ifs)  # FG110 reports


def check_boolop(node: ast.BoolOp, w) -> None:
    if _is_test(node, w):  # the test or `not` around it reports
        return
    confidence = w.test_dependence(node, truth=False)  # its last operand is handed on (`bool()` reports that one)
    if confidence:
        op = "and" if isinstance(node.op, ast.And) else "or"
        w.report("FG105", node, f"`{op}` takes the truth value of a tensor in `{snippet(node)}`", confidence,
                 gb_ids=("GB0170",))


def check_not(node: ast.UnaryOp, w) -> None:
    parent = w.parent()
    if not isinstance(node.op, ast.Not) or _is_test(node, w) or isinstance(parent, ast.Call) \
            and builtin_call(parent, w, "bool"):  # `bool(not t)` breaks once, and `bool()` reports it
        return
    confidence = w.facts.data_dependent(node.operand)
    if confidence:
        w.report("FG105", node, f"`not` takes the truth value of tensor `{snippet(node.operand)}`", confidence,
                 gb_ids=("GB0033",))


def check_chained(node: ast.Compare, w) -> None:
    """`lo < t < hi` outside a test: Python takes the truth value of `lo < t` to go on."""
    if _is_test(node, w) or isinstance(w.parent(), ast.comprehension) or _truth_tested(node, w):
        return
    confidence = _first_comparison(node, w)
    if confidence:
        first = ast.Compare(left=node.left, ops=node.ops[:1], comparators=node.comparators[:1])
        w.report("FG105", node, f"chained comparison `{snippet(node)}` takes the truth value of `{snippet(first)}`",
                 confidence, gb_ids=("GB0170",))


def _first_comparison(node: ast.Compare, w) -> str | None:
    """How sure it is that the first comparison of a chain (whose truth value Python takes) is on a
    tensor; None also for a comparison that is no such chain."""
    if len(node.ops) < 2 or isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
        return None
    kinds = [w.kind(node.left), w.kind(node.comparators[0])]
    return "certain" if any(f in (TENSOR, NUMPY) for f in kinds) else "likely" if LIKELY in kinds else None


def check_call(node: ast.Call, w) -> None:
    confidence = w.facts.data_dependent(node.args[0]) if builtin_call(node, w, "bool") and len(node.args) == 1 \
        else None
    if confidence:
        w.report("FG105", node, f"`bool()` takes the truth value of tensor `{snippet(node.args[0])}`", confidence,
                 gb_ids=("GB0124",))
    elif (truths := _element_truths(node, w)) is not None:
        tested, confidence = truths
        w.report("FG105", node, f"`{node.func.id}()` takes the truth value of each element of `{snippet(tested)}`",
                 confidence, gb_ids=("GB0170",))
    elif builtin_call(node, w, "range") and any(w.is_tensor(a) for a in node.args):
        w.report("FG106", node, f"`range()` over tensor value in `{snippet(node)}`")
    elif builtin_call(node, w, "range") and any(w.kind(a) == NUMPY for a in node.args):
        w.report("FG106", node, f"`range()` over a NumPy value (traced as a tensor) in `{snippet(node)}`")


def _element_truths(node: ast.Call, w) -> tuple[ast.expr, str] | None:
    """The tensor whose elements builtin `any()`/`all()` test one by one (`any(t > 0)`), or the
    tensor element of a list or comprehension they test (`all([(r > 0).all() for r in rows])`,
    `all(a < b for a, b in zip(ts[:-1], ts[1:]))`), with how sure that is."""
    if not (builtin_call(node, w, "any", "all") and len(node.args) == 1 and not node.keywords):
        return None
    arg = node.args[0]
    if confidence := w.facts.data_dependent(arg):
        return arg, confidence
    if isinstance(arg, (ast.List, ast.Tuple)):
        return next(((e, c) for e in arg.elts if (c := w.facts.data_dependent(e))), None)
    if isinstance(arg, (ast.ListComp, ast.GeneratorExp)):
        with w.facts.comprehension_scope(arg):
            confidence = w.facts.data_dependent(arg.elt)
        if not confidence and isinstance(arg.elt, ast.Call) and isinstance(arg.elt.func, ast.Attribute) \
                and arg.elt.func.attr in ("any", "all") and not arg.elt.args:  # a tensor whatever `r` is
            confidence = "likely"
        return (arg.elt, confidence) if confidence else None
    return None


def check_comprehension(node: ast.comprehension, w) -> None:
    for test in node.ifs:
        confidence = _test_confidence(test, w)
        if confidence:
            w.report("FG110", test, f"comprehension filter tests tensor value `{snippet(test)}`", confidence)


def check_attribute(node: ast.Attribute, w) -> None:
    if node.attr not in TENSOR_METHODS or node.attr in VALUE_ATTRS or node.attr in TENSOR_ATTRS \
            or node.attr.startswith("_") or not _truth_tested(node, w):
        return
    fact = w.kind(node.value)
    if fact in TENSORISH:
        w.report("FG109", node, f"`{snippet(node)}` is a method, always true: its call "
                                f"`{snippet(node)}()` was probably meant", "certain" if w.is_tensor(node.value)
                 else "likely")


def _truth_tested(node: ast.AST, w) -> bool:
    """`node` is an if/while/ternary/assert test, an operand of `and`/`or`/`not`, or `bool()`'s argument."""
    parent = w.parent()
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return parent.test is node
    return isinstance(parent, ast.BoolOp) or isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not) \
        or isinstance(parent, ast.Call) and builtin_call(parent, w, "bool") and node in parent.args


CHECKS = {
    ast.If: [check_if],
    ast.While: [check_while],
    ast.IfExp: [check_ifexp],
    ast.Assert: [check_assert],
    ast.BoolOp: [check_boolop],
    ast.UnaryOp: [check_not],
    ast.Compare: [check_chained],
    ast.Call: [check_call],
    ast.Attribute: [check_attribute],
    ast.comprehension: [check_comprehension],
}
