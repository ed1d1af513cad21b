"""Cheap ``ast``-only checks: can this finding take its fix, and if not, why not.

The engine calls :func:`decline_reason` on every analysis to fill ``Finding.fix_blocked``,
so it only looks at the few nodes around the finding.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

from fullgraph.analysis.bindings import parameter_names, stored_names
from fullgraph.analysis.nodes import names_in, walk
from fullgraph.fixes.conditions import (
    buffer_names,
    is_shape_only,
    mixed_reason,
    nested_mix_reason,
    python_params,
    split_python,
    tensor_attributes,
    tensor_part,
)
from fullgraph.analysis.imports import dotted, imports_torch
from fullgraph.fixes.deferral_chain import DEFER, chain_reason, entry_function, names_reason, replay_entry
from fullgraph.fixes.gradients import history_reason
from fullgraph.fixes.captures import call_parts, captured_parts, changed_after, mutation_reason
from fullgraph.fixes.stored_values import store_of, store_reason, store_replay_reason, used_elsewhere
from fullgraph.fixes.keep_tensor import PROMOTION, conversion_warning, converted, flag_uses, keep_tensor_reason, test_of
from fullgraph.fixes.known import (
    callers_reason,
    flag_reason,
    guess_reason,
    is_known,
    known_tensors,
    lowering_reason,
    proven_by_test,
    torchscript_reason,
    values_reason,
)
from fullgraph.fixes.layerdrop import LayerdropPlan, layerdrop_reason, match
from fullgraph.fixes.layouts import LayoutCheck, number_attributes
from fullgraph.fixes.mask_shapes import masked_store_reason, reordered_reason
from fullgraph.fixes.module_purity import Purity, owner_class, plain_method
from fullgraph.fixes.print_operator import blocked_reason, carries
from fullgraph.rules.side_effects import LOG_METHODS, STREAM_METHODS, STREAMS
from fullgraph.fixes.purity import (
    callee_text,
    impure_call,
    non_tensor_value,
    risky_subscript,
    unbounded_op,
)
from fullgraph.fixes.sites import enclosing_function, finding_node, local_parents, parents, per_tree, without_statement
from fullgraph.fixes.temporaries import branch_temporaries

PREDICATE_CODES = {"FG101", "FG103", "FG105"}
TRAP_CODES = {"FG104", "FG107"}
DEFER_CODES = {"FG301", "FG302", "FG303", "FG304"}
KEEP_TENSOR_CODES = {"FG201", "FG204"}
MASKED_STORE_CODE = "FG453"
LIST_CODE = "FG422"
FIX_CODES = PREDICATE_CODES | TRAP_CODES | DEFER_CODES | KEEP_TENSOR_CODES | {MASKED_STORE_CODE, LIST_CODE}
SYMBOLIC_SIZES = ("over a list, Dynamo reduces Python numbers only: a size among them (`x.shape[0]`) turns symbolic once "
                  "a call with other shapes recompiles the code, and the list breaks then, as the generator did, so "
                  "fix-all leaves it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
NOT_NUMBERS = ("what `{}` compares is not known to be Python numbers while Dynamo traces (a tensor, a NumPy value, a "
               "symbolic size or a key's result among them breaks it over a list too): the rewrite might leave the break")
BUILTIN_EXCEPTIONS = {name for name in dir(builtins) if name[:1].isupper()}
NO_TORCH = ("the file does not import torch at module level: a rewrite would make torch an import of a module "
            "that may be meant to run without it (only the compiled code needs torch)")


def torch_imported(tree: ast.Module) -> bool:
    """Whether the module of ``tree`` (a whole file, or the engine's scope of one function) imports
    torch at module level; every rewrite and config line uses torch."""
    index = getattr(tree, "module_index", None)
    return index.torch_imported if index is not None else imports_torch(tree.body)


def decline_reason(tree: ast.Module, finding, called_from: tuple[str, ...] = ()) -> str | None:
    """Why ``finding``'s quick fix cannot apply, or None when it does; ``called_from``: the other
    workspace files that call the function holding it. Whether fix-all may apply it is
    :func:`fix_check`'s question."""
    reason = placement_reason(tree, finding) or _decline_reason(tree, finding, called_from)
    return NO_TORCH if reason is None and finding.code in FIX_CODES and not torch_imported(tree) else reason


def placement_reason(tree: ast.Module, finding) -> str | None:
    """Why no fix applies where a finding sits (None elsewhere): an autograd Function's
    ``backward`` runs when gradients are computed, after the compiled call, and a def nested in
    another function (a lambda passed on too) runs where it is called; no rewrite is proven in either.
    Nor is one for a base class's method found breaking as a subclass runs it (it runs for the base
    too), or a deferral inside a base's `forward` a subclass runs (the replay would go there)."""
    node = finding_node(tree, finding) if finding.code in FIX_CODES else None
    fn = enclosing_function(tree, node) if node is not None else None
    if fn is None:
        return None
    data = finding.data if isinstance(finding.data, dict) else {}
    if data.get("inherited_by"):
        return (f"`{data['inherited_from']}.{fn.name}` breaks here as the subclass `{data['inherited_by']}` runs it, "
                "with what its `__init__` sets: no rewrite is checked for every class that runs the code")
    if data.get("entry_inherited_from") and finding.code in DEFER_CODES:
        return (f"it runs inside `{data['entry_inherited_from']}.forward` as the subclass "
                f"`{data['entry'].partition('.')[0]}` runs it: a deferral would replay it at the end of the base's "
                "`forward`, for every class that runs it")
    if fn.name == "backward" and _autograd_function_method(tree, fn):
        return ("the code is in an autograd Function's `backward`, which runs when gradients are computed, after "
                "the compiled call: no rewrite is offered there")
    if data.get("nested_in") or enclosing_function(tree, fn) is not None:  # (a fix scope holds the def alone)
        return f"the code is in `{fn.name}`, a function defined inside another: no rewrite is offered there"
    if "torch" in parameter_names(fn) | stored_names(fn):
        return f"`{fn.name}` binds the name `torch` itself: the rewrite's `torch.` calls would not reach the module"
    return None


def _decline_reason(tree: ast.Module, finding, called_from: tuple[str, ...]) -> str | None:
    try:
        node = finding_node(tree, finding)
        if node is None:
            return None if finding.code not in PREDICATE_CODES | TRAP_CODES | DEFER_CODES else "the flagged code was not found"
        fn = enclosing_function(tree, node)
        if fn is not None and _unreachable_code(fn):
            return "the function has unreachable code after a `return`, `raise`, `break` or `continue`"
        known = known_tensors(finding)
        reason = guess_reason(finding) or callers_reason(finding, () if finding.code in DEFER_CODES else called_from) \
            or (_numpy_reason(tree, node) if finding.code in PREDICATE_CODES | TRAP_CODES | KEEP_TENSOR_CODES else None)
        if reason is not None:
            return reason
        if finding.code == "FG101":
            return if_reason(tree, node, known, finding)
        if finding.code == "FG103":
            return _ternary_reason(tree, node, fn, known)
        if finding.code == "FG105":
            if isinstance(node, ast.Compare):
                return "a chained comparison has no automatic rewrite"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all"):
                return (f"builtin `{node.func.id}()` over tensor elements has no automatic rewrite (on a 1-d tensor, "
                        f"the tensor's own `.{node.func.id}()` means the same and stays in the graph)")
            return scalar_reason(tree, node, finding, known) if isinstance(node, ast.Call) \
                else lowering_reason(node, known) or _negation_tested_reason(tree, node, known, finding) \
                or _value_use_reason(tree, node)
        if finding.code == "FG104":
            return _assert_reason(tree, node) or _trap_reason(node.test, known)
        if finding.code == "FG107":
            return _guard_reason(tree, node, known, finding)
        if finding.code in DEFER_CODES:
            return defer_reason(tree, node, finding)
        if finding.code in KEEP_TENSOR_CODES:
            return scalar_reason(tree, node, finding, known)
        if finding.code == MASKED_STORE_CODE:
            return masked_store_reason(tree, node, finding)
        if finding.code == LIST_CODE and not (finding.data or {}).get("numbers"):
            return NOT_NUMBERS.format(node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                                      else "min")
    except RecursionError:
        return "the code is too deeply nested to rewrite"
    return None


def fix_check(tree: ast.Module, finding, called_from: tuple[str, ...] = ()) -> tuple[str | None, bool]:
    """Why fix-all leaves ``finding`` alone (None: its fix is safe and applies), and whether
    `fullgraph fix --unsafe-fixes` applies a fix then: a deferral :func:`replay_reason` leaves to the
    user, for a print torch's print operator (unsafe under autograd), a check lowered to
    ``torch._assert_async`` (it raises another exception)."""
    placed = placement_reason(tree, finding)
    if placed is not None:
        return placed, False
    reason, unsafe = _fix_check(tree, finding, called_from)
    if (reason is None or unsafe) and not torch_imported(tree):
        return NO_TORCH, False
    return reason, unsafe


def _fix_check(tree: ast.Module, finding, called_from: tuple[str, ...]) -> tuple[str | None, bool]:
    reason = decline_reason(tree, finding, called_from)
    node = finding_node(tree, finding)
    if finding.code in DEFER_CODES:
        deferral = reason if reason is not None else replay_reason(finding)
        if deferral is None:
            return None, False
        if not isinstance(node, ast.Call):
            return deferral, False
        if finding.code == "FG301":
            blocked = blocked_reason(tree, node, finding, deferral)
            return blocked, blocked is not None and (reason is None or carries(tree, node, finding))
        return deferral, reason is None
    if reason is not None:
        return reason, False
    if finding.code in KEEP_TENSOR_CODES and isinstance(node, ast.Call) and store_of(tree, node) is not None:
        deferral = store_replay_reason(finding, node)
        return deferral, deferral is not None
    if finding.code in KEEP_TENSOR_CODES and isinstance(node, ast.Call):
        warned = conversion_warning(node)
        if warned is not None:
            return warned, True
        if test_of(tree, node) is None and flag_uses(tree, node) is None:
            return PROMOTION, True  # the value itself is kept (not only tested by `if`s or an `assert`)
    if finding.code == MASKED_STORE_CODE:
        reordered = reordered_reason(tree, node, finding)
        return reordered, reordered is not None
    if finding.code == LIST_CODE:
        return SYMBOLIC_SIZES, True
    reached = branch_state_reason(tree, node) if finding.code in ("FG101", "FG103") else None
    if reached is not None:
        return reached, True
    check = node if finding.code in TRAP_CODES else test_of(tree, node) if isinstance(node, ast.Call) else None
    if isinstance(check, ast.Assert) or finding.code == "FG107" and isinstance(check, ast.If) and _raises(check):
        return trap_change(check), True
    return None, False


def branch_state_reason(tree: ast.AST, node: ast.AST) -> str | None:
    """Why predicating a branch that reads or sets an attribute of the module (`self.scale`,
    `self.buf = ...`) is an unsafe fix: both sides run, so a parameter only the side not taken
    reaches gets a zero gradient instead of none, which an optimizer with weight decay or momentum
    then applies, and a buffer is updated in place (`copy_`), which autograd rejects when the graph
    still needs it (calls of submodules and helpers are judged by their purity)."""
    if isinstance(node, ast.IfExp):
        parts = [node.body, node.orelse]
    elif isinstance(node, ast.If) and isinstance(plan := plan_if(tree, node), IfPlan):
        parts = _merged(plan)
    else:
        return None
    cls = owner_class(tree, enclosing_function(tree, node))
    numbers = number_attributes(cls) if cls is not None else set()  # never a parameter or a buffer
    for part in parts:
        called = {id(c.func) for c in walk(part) if isinstance(c, ast.Call)}  # calls: module purity judged them
        for held in walk(part):
            if isinstance(held, ast.Attribute) and isinstance(held.value, ast.Name) and held.value.id == "self" \
                    and id(held) not in called and ast.unparse(held) not in numbers:
                return (f"the branches use `{ast.unparse(held)}`: both sides run, so parameters that only the side not "
                        "taken reaches get zero gradients instead of none (which an optimizer with weight decay or "
                        "momentum applies), and a buffer updated in place may be one autograd still needs; fix-all "
                        "leaves it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
    for part in parts if cls is not None else ():
        for call in (c for c in walk(part) if isinstance(c, ast.Call)):
            func = call.func
            if isinstance(func, ast.Attribute) and dotted(func.value) == "self" and not func.attr.startswith("__") \
                    and plain_method(cls, func.attr) is not None:
                return (f"`{ast.unparse(func)}` was proven pure as `{cls.name}` defines it, and both sides run it: a "
                        "subclass that overrides it would run its own code on the side not taken too, so fix-all "
                        "leaves it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
    return None


def trap_change(node: ast.Assert | ast.If) -> str:
    """Why lowering a check to ``torch._assert_async`` is an unsafe fix: what it raises instead."""
    raised = "AssertionError" if isinstance(node, ast.Assert) else node.body[0].exc.func.id
    change = "on a GPU `torch._assert_async` fails later, as a device-side assert, where the code raised " \
        "RuntimeError at once" if raised == "RuntimeError" else f"`torch._assert_async` raises RuntimeError where " \
        f"the code raised {raised} (and on a GPU it fails later, as a device-side assert)"
    return f"{change}, so fix-all leaves it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)"


def _raises(node: ast.If) -> bool:
    """Whether ``node`` is the ``if c: raise E("...")`` guard that trap lowering rewrites."""
    return len(node.body) == 1 and isinstance(node.body[0], ast.Raise) and isinstance(node.body[0].exc, ast.Call) \
        and isinstance(node.body[0].exc.func, ast.Name)


def scalar_reason(tree: ast.AST, call: ast.Call, finding, known: set[str]) -> str | None:
    """Why a tensor → Python conversion (``.item()``, ``float()``, ``bool()``) can't keep the tensor:
    in an ``if`` condition the ``if`` is predicated, in an ``assert`` it is lowered to a check on the
    tensor, as a flag every ``if`` testing it is predicated, else only tensor arithmetic may use it.
    Only a value the engine knows is a tensor (``known``) is kept."""
    holder = test_of(tree, call)
    if isinstance(holder, ast.If):
        return if_reason(tree, holder, known, finding)
    value = call.args[0] if isinstance(call.func, ast.Name) and call.func.id == "bool" and call.args else converted(call)
    certain = value is not None and is_known(value, known)
    if isinstance(holder, ast.Assert):
        return (_assert_reason(tree, holder) or _trap_reason(holder.test, known)) if certain \
            else "the converted value is not known to be a tensor"
    flag = flag_uses(tree, call)
    if flag is not None:
        if not certain:
            return "the converted value is not known to be a tensor"
        name, branches = flag
        for branch in branches:
            reason = flag_reason(branch.test, name, call, known) or if_reason(tree, branch, known | {name}, finding)
            if reason is not None:
                return f"`{name}` is tested by an `if` that can't be predicated: {reason}"
        return None
    if finding.code == "FG105":
        return "`bool()` is used outside an `if` condition"
    stored = store_of(tree, call)
    return store_reason(tree, call, finding, stored) if stored is not None else keep_tensor_reason(tree, call, known)


_TESTS = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "conditional expression", ast.Assert: "`assert`"}


def _truth_taker(chain: dict, node: ast.expr) -> tuple[ast.AST, str] | None:
    """What takes the truth value of ``node`` (through the ``and``/``or``/``not`` around it): a
    statement or expression test, a comprehension filter or ``bool()``, with its name; None otherwise."""
    child, parent = node, chain.get(node)
    while isinstance(parent, ast.BoolOp) or isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        child, parent = parent, chain.get(parent)
    if type(parent) in _TESTS and parent.test is child:
        return parent, _TESTS[type(parent)]
    if isinstance(parent, ast.comprehension) and child in parent.ifs:
        return parent, "comprehension filter"
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "bool":
        return parent, "`bool()`"
    return None


def _negation_tested_reason(tree: ast.AST, node: ast.expr, known: set[str], finding) -> str | None:
    """Why ``not t`` gains nothing as ``torch.logical_not(t)``: its truth value is taken anyway, at once
    or through the one name it is bound to, by a test fix-all does not predicate, so the break stays
    or moves there. (``a and b`` on tensors is kept: it joins several truth tests into one.)"""
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    fn = enclosing_function(tree, node)
    chain = parents(fn) if fn is not None else {}
    taker = _truth_taker(chain, node)
    if taker is not None:
        return f"its result is tested at once by the {taker[1]}, where the break would stay"
    parent = chain.get(node)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return None
    name = parent.targets[0].id
    for use in (n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
        taker = _truth_taker(chain, use)
        if taker is None:
            continue
        holder, what = taker
        reason = if_reason(tree, holder, known | {name}, finding) if isinstance(holder, ast.If) else "it has no safe rewrite"
        if reason is not None:
            return f"`{name}` is then tested by the {what} at line {use.lineno}, where the break would move ({reason})"
    return None


def _value_use_reason(tree: ast.AST, node: ast.expr) -> str | None:
    """Why ``torch.logical_*`` in place of ``and``/``or``/``not`` would change a value the code uses:
    ``not t`` is a Python bool and ``a or b`` one of its operands, where the rewrite gives a boolean
    tensor (and ``a and b`` on boolean tensors has ``b``'s shape or ``a``'s, where the rewrite broadcasts
    them). Only a truth test of the result, at once or through the one name it is bound to, sees no
    difference."""
    fn = enclosing_function(tree, node)
    chain = parents(fn) if fn is not None else {}
    top = node
    while isinstance(chain.get(top), ast.BoolOp) or isinstance(chain.get(top), ast.UnaryOp) \
            and isinstance(chain[top].op, ast.Not):
        top = chain[top]
    if _truth_taker(chain, node) is not None:
        return None
    what = "`not` gives a Python bool" if isinstance(top, ast.UnaryOp) else \
        f"`{'and' if isinstance(top.op, ast.And) else 'or'}` gives one of its operands"
    parent = chain.get(top)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return f"its result is used as a value, and {what} where `torch.logical_*` gives a boolean tensor"
    name = parent.targets[0].id
    own = {id(n) for n in walk(parent)}
    for use in (n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
        if id(use) not in own and _truth_taker(chain, use) is None:
            return (f"`{name}` is used as a value at line {use.lineno}, and {what} where `torch.logical_*` gives a "
                    "boolean tensor")
    return None


def _values_reason(values, where: str, purity: Purity | None = None) -> str | None:
    """Reasons a set of branch values can't be evaluated on both sides of a ``torch.where``
    (``purity`` proves submodule and helper calls pure)."""
    for value in values:
        impure = impure_call(value)
        if impure is not None and purity is None:
            return f"{where} calls `{callee_text(impure)}`, which would run on both sides"
        for call in (c for c in walk(value) if isinstance(c, ast.Call)) if impure is not None else ():
            reason = purity.call_reason(call)
            if reason is not None:
                return f"{where} {reason}; it would run on both sides"
        kind = non_tensor_value(value)
        if kind is not None:
            return f"{where} produces {kind}, which is not a tensor"
        sub = risky_subscript(value)
        if sub is not None:
            return f"{where} indexes `{ast.unparse(sub)}` with a data-dependent index, which could raise on the side not taken"
    return None


def if_chain(node: ast.If) -> tuple[list[ast.expr], list[list[ast.stmt]]]:
    """Conditions and bodies of an ``if``/``elif``/``else`` chain; bodies has one extra for ``else`` (maybe empty)."""
    tests, bodies = [], []
    while True:
        tests.append(node.test)
        bodies.append(node.body)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            continue
        bodies.append(node.orelse)
        return tests, bodies


def target_name(target: ast.expr, buffers: set[str]) -> str | None:
    """``x`` or ``self.buf`` (a registered buffer) as an assignable predication target."""
    if isinstance(target, ast.Name):
        return target.id
    if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == "self" and target.attr in buffers):
        return f"self.{target.attr}"
    return None


def _statement_reason(stmt: ast.stmt, buffers: set[str], purity: Purity | None = None) -> str | None:
    """Why one branch statement can't be predicated."""
    if isinstance(stmt, ast.Pass):
        return None
    if isinstance(stmt, ast.Return):
        return "branch returns nothing" if stmt.value is None else _values_reason([stmt.value], "branch", purity)
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if stmt.value is None:
            return "branch only annotates a name"
        pairs = [pair for target in targets for pair in assignment_pairs(target, stmt.value)]
        for target, _ in pairs:
            for part in _unpacked(target):
                if isinstance(part, ast.Subscript):
                    return f"branch mutates `{ast.unparse(part)}` in place"
                if target_name(part, buffers) is None:
                    return f"branch assigns `{ast.unparse(part)}`, which is not a local name or registered buffer"
        if len(targets) > 1 and any(isinstance(t, (ast.Tuple, ast.List)) for t in targets):
            return "branch chains assignments to several targets"
        return _values_reason([value for _, value in pairs], "branch", purity)
    if isinstance(stmt, ast.AugAssign):
        return f"branch updates `{ast.unparse(stmt.target)}` in place (`{ast.unparse(stmt).strip()}`)"
    if isinstance(stmt, ast.Expr):
        if isinstance(stmt.value, ast.Call):
            return f"branch calls `{callee_text(stmt.value)}`, a side effect that would run on both sides"
        return None if isinstance(stmt.value, ast.Constant) else "branch has an expression statement"
    return f"branch contains a `{type(stmt).__name__.lower()}` statement"


def bound_before(fn: ast.AST | None, node: ast.stmt, name: str) -> bool:
    """Whether ``name`` is a parameter or assigned on a line before ``node`` in ``fn``."""
    if name.startswith("self."):
        return True
    if fn is None:
        return False
    args = fn.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    if name in params:
        return True
    for sub in walk(fn):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store) and sub.lineno < node.lineno:
            return True
    return False


def following_statement(tree: ast.AST, node: ast.stmt) -> ast.stmt | None:
    """The statement right after ``node`` in its block, if any."""
    parent = local_parents(tree, node).get(node)
    for name in ("body", "orelse", "finalbody"):
        block = getattr(parent, name, None)
        if isinstance(block, list) and node in block:
            index = block.index(node)
            return block[index + 1] if index + 1 < len(block) else None
    return None


def assignment_pairs(target: ast.expr, value: ast.expr):
    """(target, value) pairs of an assignment, element by element where a tuple target meets a
    tuple literal of the same length (``a, b = x, y``); otherwise the assignment as a whole."""
    plain = isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
    if plain and len(target.elts) == len(value.elts) and not any(
            isinstance(e, ast.Starred) for e in (*target.elts, *value.elts)):
        for t, v in zip(target.elts, value.elts):
            yield from assignment_pairs(t, v)
    else:
        yield target, value


def _unpacked(target: ast.expr) -> list[ast.expr]:
    """The single targets inside a (nested) tuple or list target."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [part for elt in target.elts for part in _unpacked(elt)]
    return [target.value] if isinstance(target, ast.Starred) else [target]


def _stmt_targets(stmt: ast.stmt) -> list[ast.expr]:
    return stmt.targets if isinstance(stmt, ast.Assign) else [t for t in [getattr(stmt, "target", None)] if t is not None]


def assigned_names(body: list[ast.stmt], buffers: set[str]) -> list[str]:
    """Names assigned in a branch, in order, without repeats."""
    names: list[str] = []
    for stmt in body:
        for target in _stmt_targets(stmt):
            for part in _unpacked(target):
                name = target_name(part, buffers)
                if name is not None and name not in names:
                    names.append(name)
    return names


def branch_value(stmt: ast.stmt, name: str, buffers: set[str]) -> ast.expr | None:
    """The expression ``stmt`` assigns to ``name`` on its own (None when it unpacks a value)."""
    for target in _stmt_targets(stmt):
        for part, value in assignment_pairs(target, stmt.value):
            if target_name(part, buffers) == name:
                return value
    return None


@dataclass
class IfPlan:
    """How an ``if`` chain on a tensor is predicated."""

    shape: str  # "return", "early-return", "assign" (torch.where per name) or "cond" (torch.cond)
    tests: list[ast.expr]
    bodies: list[list[ast.stmt]]  # one per test, then the else body (maybe empty)
    names: list[str]  # assigned names, in order
    following: ast.Return | None = None  # the return an early return merges with
    python: list[ast.expr] = field(default_factory=list)  # Python operands kept as a real `if`
    hoisted: list[ast.stmt] = field(default_factory=list)  # branch-local temporaries computed before it
    merges: list = field(default_factory=list)  # (values, what names hold there, wording), from the layout check


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _needs_cond(bodies: list[list[ast.stmt]], names: list[str], buffers: set[str]) -> bool:
    """Whether branch values depend on names the rewrite rebinds, or a statement unpacks one value
    into several names (then per-name ``torch.where`` is wrong)."""
    for body in bodies:
        seen: list[str] = []
        for stmt in body:
            if isinstance(stmt, ast.Pass):
                continue
            targets = assigned_names([stmt], buffers)
            if any(branch_value(stmt, t, buffers) is None for t in targets):
                return True
            if any(t in seen for t in targets) or (_reads(stmt.value) & (set(names) - set(targets))):
                return True
            seen.extend(targets)
    return False


def _swaps(bodies: list[list[ast.stmt]], names: list[str], buffers: set[str]) -> str | None:
    """A statement assigning several names from values that read them (``a, b = b, a``)."""
    for stmt in (s for body in bodies for s in body if isinstance(s, (ast.Assign, ast.AnnAssign))):
        if len(assigned_names([stmt], buffers)) > 1 and _reads(stmt.value) & set(names):
            return f"branch assigns several names from each other (`{ast.unparse(stmt).strip()}`)"
    return None


def plan_if(tree: ast.AST, node: ast.If) -> IfPlan | LayerdropPlan | str:
    """The predication plan for an ``if`` on a tensor, or why there is none."""
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(node.test)):
        return "the condition assigns a name (`:=`)"
    layerdrop = match(tree, node)
    if layerdrop is not None:
        return layerdrop_reason(tree, layerdrop) or layerdrop  # a str is a reason too
    fn = enclosing_function(tree, node)
    flags, tensor_attrs, buffers = python_params(fn), tensor_attributes(tree), buffer_names(tree)
    tests, bodies = if_chain(node)
    hoisted, hoist_reason = branch_temporaries(tree, fn, node) if len(tests) == 1 else ([], None)
    purity = Purity(tree, fn)
    bodies[0] = bodies[0][len(hoisted):]
    python, _ = split_python(tests[0], flags, tensor_attrs)
    if python and len(tests) > 1:
        return "an `elif` follows a condition that mixes Python and tensor values"
    for test in tests:
        reason = mixed_reason(test, flags, tensor_attrs)
        if reason is not None:
            return reason
        for sub in walk(test):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in ("tolist", "numpy"):
                return f"the condition converts with `.{sub.func.attr}()`"
    for test in tests[1:]:
        call = impure_call(test)
        if call is not None and not _is_scalar_conversion(call):
            return f"the `elif` condition calls `{callee_text(call)}`, which would run even when an earlier branch is taken"
    for body in bodies:
        for stmt in body:
            reason = _statement_reason(stmt, buffers, purity)
            if reason is not None:
                return reason
        if any(isinstance(s, ast.Return) for s in body[:-1]):
            return "branch has statements after its `return`"
    returns = [bool(body) and isinstance(body[-1], ast.Return) for body in bodies]
    if any(returns):
        if python:
            return "a branch returns under a condition that mixes Python and tensor values"
        if all(returns[:-1]) and not bodies[-1]:
            after = following_statement(tree, node)
            if isinstance(after, ast.Return) and after.value is not None:
                reason = _values_reason([after.value], "the following return", purity)
                plan = IfPlan("early-return", tests, bodies, [], after)
                return reason or _layout_plan_reason(plan, fn, buffers, node, tree) or plan
            return "one branch returns and the other falls through into more code"
        if not all(returns):
            return "one branch returns and the other falls through into more code"
        if any(len(body) > 1 for body in bodies):
            return "a returning branch has statements before its `return`"
        plan = IfPlan("return", tests, bodies, [])
        return _layout_plan_reason(plan, fn, buffers, node, tree) or plan
    every = [assigned_names(body, buffers) for body in bodies]
    names = list(dict.fromkeys(n for names in every for n in names))
    if not names:
        return "the branches assign nothing"
    for name in names:
        if not all(name in assigned for assigned in every) and not bound_before(fn, node, name):
            return hoist_reason or f"`{name}` is only assigned on some paths and is not bound before the `if`"
    swap = _swaps(bodies, names, buffers)
    if swap is not None:
        return swap
    if not _needs_cond(bodies, names, buffers):
        plan = IfPlan("assign", tests, bodies, names, python=python, hoisted=hoisted)
        return _layout_plan_reason(plan, fn, buffers, node, tree) or plan
    if len(tests) > 1:
        return "an `elif` chain whose branches depend on their own assignments"
    if any(n.startswith("self.") for n in names):
        return "branches with several dependent statements assign a buffer"
    plan = IfPlan("cond", tests, bodies, names, python=python, hoisted=hoisted)
    return _layout_plan_reason(plan, fn, buffers, node, tree) or plan


def _layout_plan_reason(plan: IfPlan, fn: ast.AST | None, buffers: set[str], node: ast.If,
                        tree: ast.AST) -> str | None:
    """Why the values a plan merges (returned, or each assigned name's per branch) may differ in
    shape or dtype, or a condition may broadcast them (:mod:`fullgraph.fixes.layouts`)."""
    check = LayoutCheck(fn, node, tree)
    merged = _plan_values(plan, buffers)
    if isinstance(merged, str):
        return merged
    plan.merges = merged
    merges = [check.merge(values, inside, what) for values, inside, what in merged]
    reason = next((m for m in merges if isinstance(m, str)), None)
    if reason is not None:
        return reason
    roots = {m.root for m in merges}
    shaped_like = roots.pop() if len(roots) == 1 else None
    for index, test in enumerate(plan.tests):
        for operand in test.values if index == 0 and plan.python else [test]:
            if not any(operand is p for p in plan.python):
                reason = check.zero_dim_reason(operand, "the condition", shaped_like)
                if reason is not None:
                    return reason
    return None


def _plan_values(plan: IfPlan, buffers: set[str]) -> list[tuple[list[ast.expr], list[dict], str]] | str:
    """Each merge a plan makes: the value per branch, what names hold where each is computed, and
    how a reason names it; or why a value is not known."""
    merged = []
    if plan.shape in ("return", "early-return"):
        values = [body[-1].value for body in plan.bodies[:-1]]
        values.append(plan.following.value if plan.shape == "early-return" else plan.bodies[-1][-1].value)
        merged.append((values, [_held(plan.hoisted + body[:-1], buffers) for body in plan.bodies], "the returned value"))
    for name in plan.names:
        values, inside = [], []
        for body in plan.bodies:
            at = max((i for i, stmt in enumerate(body) if name in assigned_names([stmt], buffers)), default=None)
            values.append(ast.Name(name) if at is None else branch_value(body[at], name, buffers))
            inside.append(_held(plan.hoisted + body[:at or 0], buffers))
        if any(v is None for v in values):
            return f"`{name}` is unpacked from a value whose shape is not known"
        merged.append((values, inside, f"the value of `{name}`"))
    return merged


def _history_plan_reason(plan: IfPlan | LayerdropPlan) -> str | None:
    """:func:`history_reason` for each merge of a predication plan."""
    merges = plan.merges if isinstance(plan, IfPlan) else []
    return next((r for values, inside, what in merges if (r := history_reason(values, inside, what)) is not None),
                None)


def ternary_split(tree: ast.AST, node: ast.IfExp) -> tuple[list[ast.expr], list[ast.expr], ast.expr]:
    """A conditional expression's test split at its top-level ``and``: the Python operands (kept as
    a Python test), the tensor ones, and the tensor condition left to lower (the whole test when
    its shape shows no tensor operand: the engine found one)."""
    python, tensor = split_python(node.test, python_params(enclosing_function(tree, node)), tensor_attributes(tree))
    return (python, tensor, tensor_part(node.test, python)) if tensor else ([], [], node.test)


def _ternary_reason(tree: ast.AST, node: ast.IfExp, fn: ast.AST | None, known: set[str]) -> str | None:
    """Why a conditional expression on a tensor can't become ``torch.where`` (its branches proven
    pure as an ``if``'s are; Python operands of a top-level ``and`` stay a Python test)."""
    values = [node.body, node.orelse]
    _, tensor, test = ternary_split(tree, node)
    return _values_reason(values, "branch", Purity(tree, fn)) \
        or nested_mix_reason(tensor, python_params(fn), tensor_attributes(tree)) or lowering_reason(test, known) \
        or values_gradient_reason(values, "a branch") or values_reason(values, known, "branch value") \
        or history_reason(values, [{}, {}], "the branch value") \
        or _ternary_layout_reason(node, test, fn, tree) or _ternary_aliasing_reason(node, fn)


def _ternary_aliasing_reason(node: ast.IfExp, fn: ast.AST | None) -> str | None:
    """:func:`_aliasing_reason` for the names a conditional expression's value is bound to
    (``h = a if c else b``), after the statement that binds them."""
    parent = parents(fn).get(node) if fn is not None else None
    if not isinstance(parent, ast.Assign):
        return None
    return _aliasing_reason(fn, [t.id for t in parent.targets if isinstance(t, ast.Name)], parent)


def _ternary_layout_reason(node: ast.IfExp, test: ast.expr, fn: ast.AST | None, tree: ast.AST) -> str | None:
    """Why ``torch.where`` of a conditional expression's branches (on ``test``) may change a shape or a dtype."""
    check = LayoutCheck(fn, node, tree)
    merged = check.merge([node.body, node.orelse], [{}, {}], "the branch value")
    return merged if isinstance(merged, str) else check.zero_dim_reason(test, "the condition", merged.root)


def _held(statements: list[ast.stmt], buffers: set[str]) -> dict[str, ast.expr]:
    """What plain `name = value` statements of a branch leave each name holding."""
    held: dict[str, ast.expr] = {}
    for stmt in statements:
        for name in assigned_names([stmt], buffers):
            value = branch_value(stmt, name, buffers)
            if value is not None:
                held[name] = value
            else:
                held.pop(name, None)
    return held


def _is_scalar_conversion(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "item" or (
        isinstance(call.func, ast.Name) and call.func.id in ("float", "int", "bool"))


def if_reason(tree: ast.AST, node: ast.If, known: set[str], finding, hint: bool = True) -> str | None:
    """Why an ``if`` on a tensor can't become ``torch.where``/``torch.cond``, given the source of
    what the engine knows is a tensor there (and, on ``finding``, whether TorchScript compiles it);
    ``hint``: say so where the fix of an output call in it comes first."""
    holder = local_parents(tree, node).get(node)
    if isinstance(holder, ast.If) and holder.orelse == [node] and holder.col_offset == node.col_offset:
        return f"an `elif` is rewritten only with the `if` chain it continues (line {holder.lineno})"
    plan = plan_if(tree, node)
    if isinstance(plan, str):
        if not hint:
            return plan
        if not node.orelse and len(node.body) == 1 and _side_effect_statement(node.body[0]) \
                and not isinstance(node.body[0], ast.If):
            return f"{plan} (the fix of that call's own finding defers it with this `if`, where it can)"
        output = next((s for s in (node.body[0], node.body[-1]) if _side_effect_statement(s)
                       and not isinstance(s, ast.If)), None) if len(node.body) > 1 else None
        if output is not None and split_reason(tree, node, output, known, finding) is None:
            return (f"{plan} (the fix of that call's own finding defers it with this `if`'s test, where it can; "
                    "this `if` then predicates)")
        return plan
    reason = _plan_known_reason(plan, tree, node, known | proven_by_test(node.test)) or _gradient_reason(plan) \
        or _history_plan_reason(plan) \
        or _aliasing_reason(enclosing_function(tree, node), getattr(plan, "names", ()), node)
    if reason is None and isinstance(plan, IfPlan) and plan.shape == "cond":
        reason = torchscript_reason(finding, "`torch.cond` with branch functions")
    return reason


def split_reason(tree: ast.Module, node: ast.If, stmt: ast.stmt, known: set[str], finding) -> str | None:
    """Why a deferral of the output call ``stmt``, the first or last statement of the tensor ``if``
    ``node``'s body, cannot take the test along and leave the rest to predication
    (:mod:`fullgraph.fixes.split_output`); None when it can."""
    fn = enclosing_function(tree, node)
    holder = local_parents(tree, node).get(node)
    if fn is None or isinstance(holder, ast.If) and holder.orelse == [node]:
        return "an `elif` has no place for its test before it"
    body = node.body
    first = body[0] is stmt
    neighbour = body[1] if first else body[-2]
    if stmt.lineno <= node.test.end_lineno or (neighbour.lineno <= stmt.end_lineno if first
                                               else neighbour.end_lineno >= stmt.lineno):
        return "the call shares a line with other code"
    flags, attrs = python_params(fn), tensor_attributes(tree)
    test = node.test
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(test)):
        return "the condition assigns a name (`:=`)"
    reason = mixed_reason(test, flags, attrs) or lowering_reason(test, known)
    if reason is not None:
        return reason
    if split_python(test, flags, attrs)[0]:
        return "the condition has Python operands, which stay a real `if`"
    if not first and names_in(stmt) & frozenset().union(*(stored_names(s) for s in body[:-1])):
        return "the call reads what the branch computes, which predication would merge with the other side's"
    without = without_statement(tree, node, stmt)
    return if_reason(*without, known, finding, hint=False) if without is not None else "the `if` was not found"


def _aliasing_reason(fn: ast.AST | None, names, stmt: ast.stmt) -> str | None:
    """Why merging values into ``names`` with a new tensor at ``stmt`` may change what later code changes
    in place: the original may leave a name holding the very tensor another name holds (``h = x.float()``
    is ``x`` when it is already float32), and an in-place change of it after ``stmt`` (or of a name
    sharing its storage) then changes both; ``torch.where`` makes a copy."""
    for name in names:
        if fn is not None and changed_after(fn, name, stmt):
            return (f"`{name}` (or a name sharing its storage) is changed in place after this: the original may "
                    "leave it the very tensor another name holds, which the change then changes too, where "
                    "`torch.where` makes a new tensor")
    return None


def _gradient_reason(plan: IfPlan | LayerdropPlan) -> str | None:
    """Why computing both sides would change gradients: a ``torch.where`` plan's branch (or a
    temporary hoisted before any plan) computes an operation that may be infinite where it was not
    run, and 0 * inf is NaN."""
    if not isinstance(plan, IfPlan):
        return None
    return values_gradient_reason([*plan.hoisted, *([] if plan.shape == "cond" else _merged(plan))], "branch")


def _merged(plan: IfPlan) -> list[ast.stmt]:
    """The statements whose values a plan merges: every branch's, and the return an early return merges with."""
    return [s for body in plan.bodies for s in body] + ([plan.following] if plan.following is not None else [])


def values_gradient_reason(nodes, where: str) -> str | None:
    """Why ``torch.where`` over values ``nodes`` compute would make a gradient NaN, or None."""
    for node in nodes:
        op = unbounded_op(node)
        if op is not None:
            return (f"{where} computes `{ast.unparse(op)}`, which may be infinite where the branch is not taken: "
                    "`torch.where` computes both sides, and its gradient there would be NaN (0 * inf)")
    return None


def _plan_known_reason(plan: IfPlan | LayerdropPlan, tree: ast.AST, node: ast.If, known: set[str]) -> str | None:
    """Why a plan would turn a value the engine does not know is a tensor into tensor code: a
    lowered condition, a ``torch.where`` value (a Python flag would become a tensor, breaking its
    next Python use), a ``torch.cond`` operand, a layerdrop skip test or the layer's output."""
    if isinstance(plan, LayerdropPlan):
        reason = lowering_reason(plan.skip.test, known)
        if reason is not None:
            return f"the condition: {reason}"
        target = plan.update.targets[0]
        return None if is_known(target, known) else \
            f"`{ast.unparse(target)}` is not known to be a tensor before the `if`, and would become one"
    for index, test in enumerate(plan.tests):
        operands = test.values if index == 0 and plan.python else [test]
        for operand in operands:
            if not any(operand is p for p in plan.python):
                reason = lowering_reason(operand, known)
                if reason is not None:
                    return f"the condition: {reason}"
    if plan.shape in ("return", "early-return"):
        values = [body[-1].value for body in plan.bodies[:-1]]
        values.append(plan.following.value if plan.shape == "early-return" else plan.bodies[-1][-1].value)
        return values_reason(values, known, "returned value")
    buffers = buffer_names(tree)
    fn = enclosing_function(tree, node)
    for name in plan.names:
        for body in plan.bodies:
            assigned = [branch_value(s, name, buffers) for s in body if name in assigned_names([s], buffers)]
            if not assigned and not (name.startswith("self.") or is_known(ast.Name(name), known)):
                return f"`{name}` is not known to be a tensor before the `if`, and would become one"
            if assigned and assigned[-1] is None:
                return f"`{name}` is unpacked from a value not known to be a tensor"
            if assigned:
                reason = values_reason([assigned[-1]], known, f"the value of `{name}`")
                if reason is not None:
                    return reason
        if plan.shape == "cond" and bound_before(fn, node, name) and not is_known(ast.Name(name), known):
            return f"`{name}` would be a `torch.cond` operand and is not known to be a tensor"
    return None


def _trap_reason(test: ast.expr, known: set[str]) -> str | None:
    """A shape-only check becomes ``torch._check`` (Python bools are fine); anything else is lowered."""
    reason = None if is_shape_only(test) else lowering_reason(test, known)
    return None if reason is None else f"the condition: {reason}"


def _string_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _in_try(tree: ast.AST, node: ast.AST) -> bool:
    """Whether ``node`` sits inside a ``try`` body that could catch what it raises."""
    chain = local_parents(tree, node)
    child, parent = node, chain.get(node)
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(parent, ast.Try) and child in parent.body and parent.handlers:
            return True
        child, parent = parent, chain.get(parent)
    return False


def _assert_reason(tree: ast.AST, node: ast.Assert) -> str | None:
    if node.msg is not None and not _string_literal(node.msg):
        return "the assert message is not a string literal"
    if _in_try(tree, node):
        return "the assert is inside a `try` that could catch it"
    return None


def _guard_reason(tree: ast.AST, node: ast.If, known: set[str], finding) -> str | None:
    if node.orelse or len(node.body) != 1 or not isinstance(node.body[0], ast.Raise):
        return if_reason(tree, node, known, finding)
    exc = node.body[0]
    if exc.cause is not None:
        return "the `raise` has a `from` clause"
    call = exc.exc
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.keywords
            and len(call.args) <= 1 and all(_string_literal(a) for a in call.args)):
        return "the raised exception is not `E(\"literal message\")`"
    if call.func.id not in BUILTIN_EXCEPTIONS:
        return f"`{call.func.id}` is not a builtin exception"
    if _in_try(tree, node):
        return "the `raise` is inside a `try` that could catch it"
    return _trap_reason(node.test, known)


def in_helper(fn: ast.FunctionDef, finding) -> bool:
    """Whether the finding sits in a function the replaying entry calls (the innermost module
    `forward` that runs it, else the compiled entry), not in that entry itself (by qualified name:
    `M.forward` called from `Outer.forward` is a helper)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    if not data.get("entry"):
        return False
    entry, function = replay_entry(data), data.get("function")
    return function != entry if function else entry.rpartition(".")[2] != fn.name


@per_tree
def _generator(fn: ast.AST) -> bool:
    """Whether ``fn`` yields or awaits (one walk per function)."""
    return any(isinstance(sub, (ast.Yield, ast.YieldFrom, ast.Await)) for sub in walk(fn))


def _entry_shape(tree: ast.AST, entry_name: str | None) -> str | None:
    """Why the entry cannot take the decorator that replays deferred calls (None: it can)."""
    entry = entry_function(tree, entry_name or "")
    if entry is None:
        return f"the compiled entry `{entry_name}` is not in this file"
    if isinstance(entry, ast.AsyncFunctionDef) or _generator(entry):
        return "the entry is a generator or coroutine, whose body runs after the call that would replay"
    special = next((dotted(d) for d in entry.decorator_list
                    if (dotted(d) or "").rpartition(".")[2] in ("staticmethod", "classmethod", "property")), None)
    if special is not None:
        return f"the entry is a `{special}`"
    return None


@per_tree
def _unreachable_code(fn: ast.AST) -> bool:
    """Whether a block of ``fn`` has statements after a ``return``, ``raise``, ``break`` or ``continue``
    (rewrites place epilogues and flags by the order of statements, which dead code confuses)."""
    for node in walk(fn):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and any(isinstance(s, (ast.Return, ast.Raise, ast.Break, ast.Continue))
                                               for s in block[:-1]):
                return True
    return False


@per_tree
def _output_follows(fn: ast.AST) -> dict[int, bool]:
    """Each statement of ``fn`` (by id): whether a print/logging/warnings call other than itself can
    run after it, later in its block, after the blocks around it, or in a later iteration of a loop
    around it (one pass per block; calls a deferral already queues replay in order, so they do not count)."""
    follows: dict[int, bool] = {}
    printing = _printing_defs(fn)

    def outputs(stmt: ast.stmt) -> list[ast.stmt]:
        if _queued(stmt) or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return []  # a def runs when it is called
        if isinstance(stmt, ast.Expr) and _side_effect_statement(stmt) \
                or not hasattr(stmt, "body") and _calls_any(stmt, printing):
            return [stmt]
        if isinstance(stmt, ast.Expr):
            return []
        return [out for name in ("body", "orelse", "finalbody", "handlers", "cases") for inner in getattr(stmt, name, None) or ()
                if isinstance(inner, (ast.stmt, ast.excepthandler, ast.match_case)) for out in outputs(inner)]

    def block(stmts: list, after: bool, looped: tuple) -> None:
        for stmt in reversed(stmts):
            follows[id(stmt)] = after or any(out is not stmt for out in looped)
            again = tuple(outputs(stmt)) if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) else ()
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    block(inner, after, looped + again if name == "body" else looped)
            after = after or bool(outputs(stmt))

    block(fn.body, False, ())
    return follows


def _autograd_function_method(tree: ast.Module, fn: ast.AST) -> bool:
    """Whether ``fn`` is a method of a `torch.autograd.Function` subclass (by its class's bases)."""
    holder = parents(tree).get(fn)
    if not isinstance(holder, ast.ClassDef):
        return False
    index = getattr(tree, "module_index", None)
    if index is not None:
        return index.is_autograd_function(holder.name)
    return any((dotted(b) or "").rpartition(".")[2] == "Function" for b in holder.bases)


def _printing_defs(fn: ast.AST) -> set[str]:
    """The names of the functions defined inside ``fn`` that print, log, warn or write to a stream:
    calling one later outputs too (a nested ``show()`` after the deferred ``print``)."""
    return {node.name for node in walk(fn) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node is not fn and any(isinstance(s, ast.stmt) and _side_effect_statement(s) for s in walk(node))}


def _calls_any(stmt: ast.stmt, names: set[str]) -> bool:
    return bool(names) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names
                               for n in walk(stmt))


def _queued(stmt: ast.stmt) -> bool:
    """A call a deferral already queues while compiled (``if is_compiling(): _fullgraph_defer(...)``):
    it replays in order with the one being deferred, so it does not stand in the way."""
    body = stmt.body if isinstance(stmt, ast.If) and len(stmt.body) == 1 else None
    call = body[0].value if body and isinstance(body[0], ast.Expr) else None
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == DEFER


def _side_effect_statement(stmt: ast.stmt) -> bool:
    """A call statement spelled like print, logging, warnings or a stream write (the calls deferral
    moves), or an ``if`` holding only such statements."""
    if isinstance(stmt, ast.If):
        return all(_side_effect_statement(s) for s in (*stmt.body, *stmt.orelse))
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    return (isinstance(func, ast.Name) and func.id == "print") or (isinstance(func, ast.Attribute)
                                                                     and func.attr in LOG_METHODS) \
        or stream_write(stmt.value)


def stream_write(call: ast.Call) -> bool:
    """``sys.stdout.write(...)`` and the like, also as ``stdout.write(...)`` (``from sys import stdout``)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in STREAM_METHODS):
        return False
    stream = func.value
    return isinstance(stream, ast.Attribute) and stream.attr in STREAMS and isinstance(stream.value, ast.Name) \
        and stream.value.id == "sys" or isinstance(stream, ast.Name) and stream.id in STREAMS


def _numpy_reason(tree: ast.Module, node: ast.AST) -> str | None:
    """Why a finding on NumPy code gets no tensor rewrite (Dynamo traces NumPy arrays as tensors,
    but the rewrites would turn NumPy values into torch ones)."""
    index = getattr(tree, "module_index", None)  # the engine's scope of one function: the file's imports
    if index is None:
        return None
    tested = node.test if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)) else node
    for call in walk(tested):
        name = index.aliases.resolve(call.func) if isinstance(call, ast.Call) else None
        if name is not None and name.startswith("numpy."):
            return f"`{ast.unparse(call)[:60]}` is NumPy code, and no tensor rewrite applies to NumPy values"
    return None


def replay_reason(finding) -> str | None:
    """Why ``fullgraph fix`` leaves a deferral to the user (None: fix-all applies it). A function
    entry is replayed by a wrapper `torch.export` refuses; output elsewhere in the region could run
    before the replay where it ran after the call; a module class that also runs inside other module
    code keeps its break there (Dynamo ignores the replaying hooks inside that graph, and the call is
    made in place as before)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    entry = data.get("entry") or "the compiled function"
    inside = data.get("runs_inside")
    if finding.code == "FG303":
        return ("a deferred warning would be reported at the line that replays it, not at this call (Python prints "
                "a warning's file and line, and its once-per-location filter keys on them), so fix-all leaves it "
                "to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
    if not data.get("module_forward"):
        return (f"deferring it until `{entry}` returns removes the break, but `{entry}` is not the `forward` of a "
                "module class, and `torch.export` refuses the wrapper that would replay the call "
                "(`torch.compiler.disable(recursive=False)`), so fix-all leaves it to you (a quick fix, or "
                "`fullgraph fix --unsafe-fixes`)")
    elsewhere = data.get("outputs_elsewhere")
    if elsewhere:
        named = ", ".join(f"`{q}`" for q in elsewhere[:3]) + (" and others" if len(elsewhere) > 3 else "")
        return (f"{named} also print, log, warn or write a stream, and may do so after this call within a call of "
                "the module that replays it: compiled, that output would come before the replay, so fix-all leaves "
                "it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
    if inside:
        return used_elsewhere((data.get("replay_classes") or [entry.rpartition(".")[0]])[0], inside, "call")
    return None


def _shares_line(chain: dict, stmt: ast.stmt) -> bool:
    """Whether another statement of the same block starts or ends on one of ``stmt``'s lines (`a; b`)."""
    block = next((getattr(chain.get(stmt), f) for f in ("body", "orelse", "finalbody", "handlers")
                  if stmt in getattr(chain.get(stmt), f, ())), [])
    return any(other is not stmt and (other.lineno <= stmt.end_lineno and stmt.lineno <= other.end_lineno)
               for other in block)


def defer_reason(tree: ast.AST, call: ast.Call, finding) -> str | None:
    """Why a print/logging/warnings/stream-write call can't be deferred to the entry's epilogue."""
    if finding.code == "FG304" and not stream_write(call):
        return ("only a write to `sys.stdout` or `sys.stderr` is deferred; other I/O has no rewrite (its "
                "result is used, or it must happen where it stands): move it out of the compiled region")
    fn = enclosing_function(tree, call)
    chain = parents(fn or tree)
    stmt = chain.get(call)
    if not isinstance(stmt, ast.Expr):
        return "the call's result is used"
    if fn is None:
        return "the call is not inside a function"
    if _shares_line(chain, stmt):
        return "the call shares its line with another statement (`;`): the rewrite replaces whole lines"
    data = finding.data if isinstance(finding.data, dict) else {}
    if data.get("assumed"):
        entry = data.get("entry")
        return (f"`{entry}` is compiled only by assumption (assume_compiled = \"all\"): where it really runs inside "
                "a caller's graph, an epilogue at its end still breaks that graph")
    if data.get("exported"):
        return (f"`{data.get('entry')}` is an entry as its package exports it: it runs inside the graph of its "
                "user's compiled code, where an epilogue at its end still breaks that graph")
    if data.get("dispatched"):
        return (f"`{data.get('entry')}` runs inside the frame of the inherited `forward` that calls it, where an "
                "epilogue at its end still breaks that graph")
    if data.get("compiled_from"):
        callers = ", ".join(f"`{c}`" for c in data["compiled_from"][:3])
        return (f"`{data.get('entry')}` runs inside the frame of the compiled code in other files that calls it "
                f"({callers}), where an epilogue at its end still breaks that graph")
    if not data.get("replay_supported"):
        return ("the project's torch lacks what the deferral's code calls (`torch.compiler.is_exporting`, "
                "`torch._dynamo.config.ignore_logging_functions`, forward hooks with `always_call`): a newer torch has them")
    entry = replay_entry(data)
    helper = in_helper(fn, finding)
    reason = names_reason(tree) or torchscript_reason(finding, "a lambda kept in a module-level list") \
        or (chain_reason(tree, fn, entry) if helper else None) or _entry_shape(tree, entry)
    if reason is not None:
        return reason
    if any(isinstance(sub, ast.NamedExpr) for sub in walk(call)):
        return "an argument assigns a name (`:=`)"
    if any(isinstance(sub, (ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)) for sub in walk(call)):
        return "an argument holds a comprehension or lambda"
    changed = mutation_reason(fn, captured_parts(tree, fn, call_parts(call)), known_tensors(finding))
    if changed is not None:
        return changed
    if _output_follows(fn).get(id(stmt)):
        return "another print, logging, warnings or stream-write call follows, which the deferred call would move past"
    node = stmt
    while node is not fn:
        node = chain.get(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            return "the call is inside a nested function"
        if isinstance(node, (ast.Try, ast.With, ast.AsyncWith, ast.AsyncFor, ast.Match)):
            return f"the call is inside a `{type(node).__name__.lower()}` block"
        if node is None:
            return "the call is not inside a function"
    return None
