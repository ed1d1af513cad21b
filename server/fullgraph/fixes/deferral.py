"""Deferral: print/logging/warnings calls run after the compiled entry's call returns.

While compiled, the call is handed to ``_fullgraph_defer`` as a ``lambda`` whose default arguments
capture the tensor values it needs where it stood (in the entry or in a helper it calls); whatever
turns them into Python values (``.item()``, ``str()``, f-strings, ``%``) runs at the replay, so the
printed text is unchanged. For the ``forward`` of an nn.Module class, the class gets a decorator that
registers hooks around each call of its modules: ``torch.compile(module)`` runs them outside the
graph, the queue is replayed once the call returns, and no output call is left inside the graph.
Where nothing replays (``torch.export``; the module traced inside another module's graph, where
Dynamo ignores the hooks; ``forward`` compiled on its own), the call is made at once, as before.
Run eagerly, the call is made in place as before. For a function entry the decorator wraps the
function in a frame Dynamo skips (``torch.compiler.disable(recursive=False)``), which
``torch.export`` refuses: an unsafe fix.
"""

from __future__ import annotations

import ast

import libcst as cst

from fullgraph.analysis.facts import CONFIG_NAMES, scalar_operand
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk
from fullgraph.fixes.captures import call_parts, captured_parts, local_names, mutated_in_place, shared_root, storage_root
from fullgraph.fixes.comments import carry_comments
from fullgraph.fixes.config_alternatives import module_line_fix
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.deferral_chain import DEFER, QUEUE, REPLAY, entry_function, has_queue, replay_entry, replay_targets, replays
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.conditions import tensor_part
from fullgraph.fixes.guarded_output import moved_guard
from fullgraph.fixes.known import known_tensors
from fullgraph.fixes.names import import_line, torch_import_edit
from fullgraph.fixes.preconditions import decline_reason, replay_reason
from fullgraph.fixes.sites import enclosing_function, parents
from fullgraph.fixes.slicing import continuation, cst_statement, indent, open_slice, replace, splice, statement_line
from fullgraph.fixes.split_output import SplitOutput, split_guard

SPLIT_TITLE = "Defer with the `if`'s test, leaving the rest of the `if` to predicate"
SUFFIX = {"FG301": "for_print", "FG302": "for_log", "FG303": "for_warning", "FG304": "for_write"}


class CapturePlan:
    """Which sub-expressions of a call's arguments are captured at the call site (every local one:
    the queued call may run after later code has rebound or mutated it)."""

    def __init__(self, ctx: FixContext, fn: ast.AST, node: ast.expr, parts: list[ast.expr], suffix: str,
                 tensors: frozenset[str] = frozenset()):
        self.ctx, self.fn, self.node, self.tensors = ctx, fn, node, tensors
        self.captured = captured_parts(ctx.tree, fn, parts)
        self.temps = [ctx.names.fresh(f"{_base(node)}_{suffix}") for node in self.captured]

    @classmethod
    def of_call(cls, ctx: FixContext, fn: ast.AST, call: ast.Call, suffix: str,
                tensors: frozenset[str] = frozenset()) -> CapturePlan:
        """The plan for an output call: its arguments are split."""
        return cls(ctx, fn, call, call_parts(call), suffix, tensors)

    def capture_value(self, node: ast.expr) -> str:
        """The captured expression; a copy of a tensor another name may hold (a name, an attribute, an
        element or a view of one): code that runs before the replay may change it in place where no
        analysis sees it (a submodule built with `inplace=True`, a helper, a hook, the caller). A
        list, dict or set is copied too (shallow), as a helper may append to it before the replay."""
        text = self.ctx.text(node)
        name = shared_root(node)
        if name is None or any(part in CONFIG_NAMES for part in name.split(".")):
            return text  # a fresh value, or a setting
        if mutated_in_place(self.fn, name) or text in self.tensors or name in self.tensors:
            return f"{text}.clone()"  # a copy that keeps its `grad_fn=` in the printed text
        wrapped = text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"
        return (f"({wrapped}.clone() if isinstance({text}, {self.ctx.torch}.Tensor) "  # a tensor, if one
                f"else type({text})({text}) if type({text}) in (list, dict, set) else {text})")  # or a container

    def replayed(self) -> str:
        """The source of the call (or value) with captured sub-expressions replaced by their
        temporaries, its continuation lines relative to the indentation of the line it starts on
        (to be re-indented where it goes)."""
        source = self.ctx.source
        offset = self.ctx.lowering.positions.ast_offset
        start, end = offset(self.node.lineno, self.node.col_offset), offset(self.node.end_lineno, self.node.end_col_offset)
        text = source[start:end]
        spans = sorted(((offset(n.lineno, n.col_offset) - start, offset(n.end_lineno, n.end_col_offset) - start, t)
                        for n, t in zip(self.captured, self.temps)), reverse=True)
        for lo, hi, temp in spans:
            text = text[:lo] + temp + text[hi:]
        line = source[source.rfind("\n", 0, start) + 1 : start]
        return continuation(text, len(line) - len(line.lstrip()))


    def lambda_head(self, *extra: str) -> str:
        """``lambda <temporary>=<captured>, ...:`` (``extra``: more parameters, already spelled)."""
        params = ", ".join([*(f"{t}={self.capture_value(n)}" for t, n in zip(self.temps, self.captured)), *extra])
        return f"lambda {params}:" if params else "lambda:"


def _base(node: ast.expr) -> str:
    """A readable stem for a temporary holding ``node``."""
    if isinstance(node, ast.Call):
        return _base(node.func)
    if isinstance(node, ast.Attribute):
        inner = _base(node.value)
        return node.attr if inner in ("self", "value") else f"{inner}_{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):
        return _base(node.value)
    return "value"


def defer_call(ctx: FixContext, call: ast.Call, finding) -> list[Fix]:
    """Hand a print/logging/warnings call made while compiled to ``_fullgraph_defer`` (its values
    captured as a lambda's defaults), which queues it for the replay once the entry's call returns;
    eager runs make the call in place as before."""
    if decline_reason(ctx.tree, finding) is not None:
        return []
    fn = enclosing_function(ctx.tree, call)  # not None, and the entry is in this file: decline_reason checked
    data = finding.data if isinstance(finding.data, dict) else {}
    planned = replay_targets(ctx.tree, entry_function(ctx.tree, replay_entry(data)), data)
    if planned is None:
        return []
    stmt = parents(fn)[call]
    plan = CapturePlan.of_call(ctx, fn, call, SUFFIX.get(finding.code, "deferred"), frozenset(known_tensors(finding)))
    moved = moved_guard(ctx.tree, call, finding)
    split = split_guard(ctx.tree, call, finding) if moved is None else None
    python_test = None
    if moved is not None:  # the `if` moves too: its test computed here, as a boolean tensor, tested at the replay
        guard, python = moved
        cond = ctx.names.fresh("cond_for_output")
        tested = _captured_test(ctx, fn, tensor_part(guard.test, python))
        queued = f"{plan.lambda_head(f'{cond}={tested}')} {plan.replayed()} if {cond} else None"
        python_test = " and ".join(ctx.lowering.atom(p) for p in python) or None
        stmt = guard
    elif split is not None:  # the test, computed before the `if`, goes with the call; the `if` tests it
        tested = _captured_test(ctx, fn, split.guard.test)
        cond, captured = ctx.names.fresh("cond"), ctx.names.fresh("cond_for_output")
        queued = f"{plan.lambda_head(f'{captured}={cond}')} {plan.replayed()} if {captured} else None"
    else:
        queued = f"{plan.lambda_head()} {plan.replayed()}"
    edits = replay_edits(ctx, fn, stmt, queued, planned, python_test, split and (split, cond, tested))
    if edits is None:
        return []
    safe = replay_reason(finding) is None and isinstance(planned[0][0], ast.ClassDef)
    title = SPLIT_TITLE if split is not None else "Defer until the compiled entry returns" if moved is None else \
        "Defer, with the `if` around it, until the compiled entry returns"
    return [Fix(title, tuple(edits), preferred=safe, kind="defer", unsafe=not safe)]


def _captured_test(ctx: FixContext, fn: ast.AST, test: ast.expr) -> str:
    """A moved ``if``'s test as the boolean tensor the deferred call captures, copied where it may be
    the tested tensor itself (``if flag:`` on a boolean ``flag``, ``.bool()`` returns it) and later code
    changes that in place."""
    lowered = ctx.lowering.lower(test)
    name = storage_root(scalar_operand(test))
    return f"{lowered}.clone()" if name is not None and mutated_in_place(fn, name) else lowered


def replay_edits(ctx: FixContext, fn: ast.AST, stmt: ast.stmt, queued: str, planned,
                 python_test: str | None = None,
                 split: tuple[SplitOutput, str, str] | None = None) -> list[TextEdit] | None:
    """The edits that hand ``queued`` (a lambda's source) to ``_fullgraph_defer`` in place of ``stmt``
    while compiled (``stmt`` as before when run eagerly; both under ``if <python_test>:`` when given),
    give the replaying targets their decorator and the module the queue's definitions; None where
    they can't be placed. ``split``: (the ``if`` around ``stmt`` to split, the name of its test, the
    test's code): the ``if`` is replaced instead, the eager call made under the named test."""
    targets, key = planned
    original = continuation(ctx.lowering.segment(stmt), stmt.col_offset)
    if split is not None:
        original = f"if {split[1]}:\n" + indent(original + split[0].comment(ctx))
    site = (f"if {ctx.torch}.compiler.is_compiling():\n" + indent(f"{DEFER}({key!r}, {queued})\n") + "else:\n"
            + indent(original + "\n"))
    if python_test is not None:
        site = f"if {python_test}:\n" + indent(site)
    piece = open_slice(ctx.source, ctx.tree, fn)
    if split is not None:
        texts = split[0].texts(ctx, split[1], split[2], site)
        edit = splice(piece, [split[0].guard], texts) if texts is not None else None
        if edit is None:
            return None
        edits = [edit]
    else:
        line = _line_of(piece, stmt)
        if line is None:
            return None
        edits = [piece.edit(replace(piece.module, {line: carry_comments([line], [cst.parse_statement(site)])}))]
    firsts = {id(t): min([t.lineno, *(d.lineno for d in t.decorator_list)]) for t in targets}
    at = _after_definition(ctx.tree, ctx.torch.split(".")[0])  # the definitions use torch at import time
    if not has_queue(ctx.tree) and at > min(firsts.values()):
        return None
    edits.extend(TextEdit(firsts[id(t)], 0, firsts[id(t)], 0, " " * t.col_offset + f"@{REPLAY}\n")
                 for t in targets if not replays(t))
    extra = torch_import_edit(ctx.tree)
    if not has_queue(ctx.tree):
        lines = ctx.source.splitlines()[at - 1:]
        blank = next((i for i, text in enumerate(lines) if text.strip()), len(lines))  # blank lines after `at`
        imported = "import torch\n" if extra is not None else ""  # before the definitions that use it
        edits.append(TextEdit(at, 0, at, 0, imported + "\n" + replay_definitions(ctx.torch) + "\n" * max(0, 2 - blank)))
        extra = None
    return [e for e in [extra, *edits] if e is not None]


def replay_definitions(torch: str) -> str:
    """The module-level queue, ``_fullgraph_defer``, and the decorator that replays the queue after
    each call of an entry: hooks around a module's calls, or a wrapper around a function."""
    return f'''{QUEUE} = []  # print/logging/warnings calls deferred while compiled, replayed by `{REPLAY}`
_fullgraph_replaying = {{}}  # the name of each entry that replays them: how many of its calls are running
_fullgraph_replayed = set()  # the module classes `{REPLAY}` decorates


def {DEFER}(entries, call):
    """Queue `call` (made while compiled) until the running call of an entry it names (a name or a
    tuple) returns; make it at once where nothing would replay it (torch.export, or the entries traced
    inside another module's graph)."""
    names = (entries,) if isinstance(entries, str) else entries
    if any(_fullgraph_replaying.get(name) for name in names) and not {torch}.compiler.is_exporting():
        {QUEUE}.append(call)
    else:
        call()


def _fullgraph_entries(target):
    """The entry names a module (its decorated classes) or a function name stands for."""
    if isinstance(target, str):
        return [target]
    return [cls.__qualname__ for cls in type(target).__mro__ if cls in _fullgraph_replayed]


@{torch}.compiler.disable
def _fullgraph_enter(target, *hook_args):
    """Before a call of a replaying entry: count it as running (not under torch.export, which
    defers nothing and may skip the hook after the call)."""
    for name in () if {torch}.compiler.is_exporting() else _fullgraph_entries(target):
        _fullgraph_replaying[name] = _fullgraph_replaying.get(name, 0) + 1


@{torch}.compiler.disable
def _fullgraph_replay(target, *hook_args):
    """After a call of a replaying entry (returned or raised): make the calls it deferred, in order."""
    for name in () if {torch}.compiler.is_exporting() else _fullgraph_entries(target):
        _fullgraph_replaying[name] -= 1
    while {QUEUE}:
        {QUEUE}.pop(0)()


# Where Dynamo traces a module's hooks (inside another module's graph, torch.export) they do nothing.
{torch}._dynamo.config.ignore_logging_functions.update((_fullgraph_enter, _fullgraph_replay))


def _fullgraph_hook(module):
    """Give a module of a class `{REPLAY}` decorates the hooks around its calls (once)."""
    if (isinstance(module, {torch}.nn.Module) and _fullgraph_entries(module)
            and _fullgraph_replay not in module._forward_hooks.values()):
        module.register_forward_pre_hook(_fullgraph_enter)
        module.register_forward_hook(_fullgraph_replay, prepend=True, always_call=True)  # before hooks of its own


def {REPLAY}(entry):
    """Replay what `entry` deferred while compiled once each call of it returns. An nn.Module class
    gets hooks around each call of its modules, which `torch.compile(module)` runs outside the graph;
    a function gets a wrapper Dynamo does not compile (`recursive=False`), which torch.export refuses."""
    import functools

    if isinstance(entry, type):
        _fullgraph_replayed.add(entry)
        init = entry.__init__

        @functools.wraps(init)
        def __init__(self, *args, **kwargs):
            init(self, *args, **kwargs)
            _fullgraph_hook(self)

        entry.__init__ = __init__
        return entry

    @functools.wraps(entry)
    @{torch}.compiler.disable(recursive=False)
    def replaying(*args, **kwargs):
        _fullgraph_enter(entry.__qualname__)
        try:
            return entry(*args, **kwargs)
        finally:
            _fullgraph_replay(entry.__qualname__)

    return replaying
'''


def _line_of(piece, stmt: ast.stmt):
    node = cst_statement(piece, stmt)
    if node is None:
        return None
    line = statement_line(piece.module, node)
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) != 1:
        return None
    return line


def config_alternative(ctx: FixContext, call: ast.Call, finding) -> list[Fix]:
    """Let Dynamo ignore a logger method: one module-level line (the message is lost under
    torch.compile, as the rule page says). Dynamo's ``reorderable_logging_functions`` is not
    offered for print and warnings: it applies to every compiled function, and a reordered call in
    a function Dynamo inlines (a helper, a submodule's ``forward``) is silently dropped (torch 2.13,
    ``tests/fixes/test_fixes_dynamo.py``)."""
    callee = dotted(call.func)
    if callee is None or finding.code != "FG302":
        return []
    fn = enclosing_function(ctx.tree, call)
    if fn is not None and callee.split(".")[0] in local_names(fn):
        return []
    position = _after_definition(ctx.tree, callee.split(".")[0])
    line_text = f"{ctx.torch}._dynamo.config.ignore_logger_methods.add({callee})"
    return module_line_fix(ctx, line_text, position, "Let Dynamo skip this logger method (ignore_logger_methods)", "defer")


def _after_definition(tree: ast.Module, name: str) -> int:
    """The line after the last top-level statement binding ``name`` (an import or assignment, also
    inside a top-level ``if``/``try``/``with``: `if is_torch_available(): import torch`), or after the
    imports."""
    line = import_line(tree)
    for node in tree.body:
        if name in _bound(node):
            line = max(line, node.end_lineno + 1)
    return line


def _bound(node: ast.stmt) -> set[str]:
    """The names a module-level statement binds by import or assignment (into its blocks, not defs)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)}
    blocks = [getattr(node, field, []) for field in ("body", "orelse", "finalbody")] \
        + [h.body for h in getattr(node, "handlers", [])] if isinstance(node, (ast.If, ast.Try, ast.With)) else []
    return {name for block in blocks for stmt in block for name in _bound(stmt)}
