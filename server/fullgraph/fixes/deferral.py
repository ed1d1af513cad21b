"""Deferral: print/logging/warnings calls move to an epilogue before each return of the entry.

The tensor values an argument needs are captured where the call stood; whatever turns them
into Python values (``.item()``, ``str()``, f-strings, ``%``) runs in the epilogue, after the
graph, so the printed text is unchanged. Dynamo still breaks at the replayed call (nothing
inside the compiled frame can emit output without a break), so a deferral joins the graphs
around the call without removing the break: it is a quick fix to choose, never applied by fix-all.
"""

from __future__ import annotations

import ast

import libcst as cst

from fullgraph.analysis.epilogue import CONVERSION_CALLS, CONVERSION_METHODS
from fullgraph.analysis.narrowing import exits
from fullgraph.analysis.nodes import children, walk
from fullgraph.fixes.comments import carry_comments
from fullgraph.fixes.config_alternatives import module_line_fix
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.deferral_chain import QUEUE, REPLAY, entry_function, has_queue, has_replay
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.names import import_line, torch_import_edit
from fullgraph.fixes.preconditions import decline_reason, in_helper
from fullgraph.analysis.imports import dotted
from fullgraph.fixes.sites import ancestors, enclosing_function, parents
from fullgraph.fixes.slicing import continuation, cst_statement, indent, open_slice, replace, statement_line

STILL_BREAKS = "(one graph; Dynamo still breaks at the replay)"
SUFFIX = {"FG301": "for_print", "FG302": "for_log", "FG303": "for_warning"}


class CapturePlan:
    """Which sub-expressions of a call's arguments are captured at the call site."""

    def __init__(self, ctx: FixContext, fn: ast.AST, call: ast.Call, suffix: str, in_loop: bool):
        self.ctx, self.fn, self.call = ctx, fn, call
        self.local = _local_names(fn)
        # Outside loops a name nobody rebinds or mutates later can be read in the epilogue itself.
        self.stable = set() if in_loop else self.local - _changed_after(fn, call.lineno)
        self.captured: list[ast.expr] = []
        for arg in call.args:
            self._split(arg.value if isinstance(arg, ast.Starred) else arg)
        for keyword in call.keywords:
            self._split(keyword.value)
        self.temps = [ctx.names.fresh(f"{_base(node)}_{suffix}") for node in self.captured]

    def _split(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant) or self._global(node) or (isinstance(node, ast.Name) and node.id in self.stable):
            return
        if _is_conversion(node):
            for child in _operands(node):
                self._split(child)
            return
        self.captured.append(node)

    def _global(self, node: ast.expr) -> bool:
        name = dotted(node)
        return name is not None and name.split(".")[0] not in self.local

    def capture_value(self, node: ast.expr) -> str:
        """The captured expression, snapshotted when later code could mutate it in place."""
        text = self.ctx.text(node)
        name = dotted(node)
        if name is not None and _mutated_in_place(self.fn, name):
            return f"{text}.detach().clone()"
        return text

    def epilogue_call(self) -> str:
        """The call's source with captured sub-expressions replaced by their temporaries, its
        continuation lines relative to the indentation of the line it starts on (to be re-indented
        where it goes)."""
        source = self.ctx.source
        offset = self.ctx.lowering.positions.ast_offset
        start, end = offset(self.call.lineno, self.call.col_offset), offset(self.call.end_lineno, self.call.end_col_offset)
        text = source[start:end]
        spans = sorted(((offset(n.lineno, n.col_offset) - start, offset(n.end_lineno, n.end_col_offset) - start, t)
                        for n, t in zip(self.captured, self.temps)), reverse=True)
        for lo, hi, temp in spans:
            text = text[:lo] + temp + text[hi:]
        line = source[source.rfind("\n", 0, start) + 1 : start]
        return continuation(text, len(line) - len(line.lstrip()))


def _local_names(fn: ast.AST) -> set[str]:
    args = fn.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    names |= {n.id for n in walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names


def _changed_after(fn: ast.AST, line: int) -> set[str]:
    """Names assigned after ``line`` or mutated in place anywhere in ``fn``."""
    changed = set()
    for node in walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.lineno > line:
            changed.add(node.id)
        target = _in_place_target(node)
        if target is not None:
            changed.add(target)
    return changed


def _is_conversion(node: ast.expr) -> bool:
    """An expression that turns tensors into Python values or text."""
    if isinstance(node, (ast.JoinedStr, ast.FormattedValue, ast.Tuple, ast.List, ast.Dict)):
        return True
    if isinstance(node, ast.BinOp):
        return any(isinstance(s, (ast.JoinedStr,)) or (isinstance(s, ast.Constant) and isinstance(s.value, str))
                   for s in (node.left, node.right)) or _is_conversion(node.left)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id in CONVERSION_CALLS
        if isinstance(node.func, ast.Attribute):
            receiver_is_text = isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
            return node.func.attr in ("item", "tolist") or (receiver_is_text and node.func.attr in CONVERSION_METHODS)
    return False


def _operands(node: ast.expr) -> list[ast.expr]:
    """The sub-expressions a conversion converts."""
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.FormattedValue)]
    if isinstance(node, ast.FormattedValue):
        return [node.value] + ([node.format_spec] if node.format_spec is not None else [])
    if isinstance(node, (ast.Tuple, ast.List)):
        return list(node.elts)
    if isinstance(node, ast.Dict):
        return [v for v in (*node.keys, *node.values) if v is not None]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("item", "tolist"):
        return [node.func.value]
    return [*node.args, *(k.value for k in node.keywords)]


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


def _in_place_target(node: ast.AST) -> str | None:
    """The dotted name ``node`` mutates in place (``x.add_()``, ``x[i] = ...``, ``out=x``), if any."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_"):
            return dotted(node.func.value)
        return next((dotted(k.value) for k in node.keywords if k.arg == "out"), None)
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return next((dotted(t.value) for t in targets if isinstance(t, ast.Subscript)), None)
    return None


def _mutated_in_place(fn: ast.AST, name: str) -> bool:
    """Whether ``fn`` mutates ``name`` in place anywhere."""
    return any(_in_place_target(node) == name for node in walk(fn))


def _plain(node: ast.expr) -> bool:
    """A return value that does no work (names, constants, attributes of names, tuples of them):
    it stays in the ``return``, so calls left before it keep their epilogue position."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_plain(e) for e in node.elts)
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, (ast.Name, ast.Constant))


def _returns(fn: ast.AST) -> list[ast.Return]:
    """Returns of ``fn`` itself (not of nested functions or classes)."""
    out, stack = [], list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            out.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(children(node))
    return out


def defer_call(ctx: FixContext, call: ast.Call, finding) -> list[Fix]:
    """Move a print/logging/warnings call to the entry's epilogue (capturing its tensor values)."""
    if decline_reason(ctx.tree, finding) is not None:
        return []
    fn = enclosing_function(ctx.tree, call)  # not None, and no return inside a loop: decline_reason checked
    if in_helper(fn, finding):
        return defer_through_chain(ctx, fn, call, finding)
    chain = parents(fn)
    stmt = chain[call]
    around = ancestors(chain, stmt, fn)
    in_loop = any(isinstance(a, (ast.For, ast.While)) for a in around)
    conditional = any(isinstance(a, ast.If) for a in around)
    plan = CapturePlan(ctx, fn, call, SUFFIX.get(finding.code, "deferred"), in_loop)
    call_text = plan.epilogue_call()
    top: list[str] = []
    site = [f"{t} = {plan.capture_value(n)}" for t, n in zip(plan.temps, plan.captured)]
    if in_loop:
        records = ctx.names.fresh(f"{_base(call.func)}_calls")
        replay = ctx.names.fresh(f"replay_{_base(call.func)}")
        fields = ", ".join(plan.temps)
        row = f"({fields},)" if len(plan.temps) == 1 else f"({fields})"
        top = [f"{records} = []",
               f"def {replay}(calls):\n" + indent(f"for {row} in calls:\n" + indent(call_text + "\n"))]
        site = [f"{records}.append(({', '.join(plan.capture_value(n) for n in plan.captured)}{',' if len(plan.captured) == 1 else ''}))"]
        epilogue = f"{replay}({records})"
    elif conditional:
        flag = ctx.names.fresh(f"{_base(call.func)}_pending")
        top = [f"{flag} = False"]
        site.append(f"{flag} = True")
        epilogue = f"if {flag}:\n" + indent(call_text + "\n")
    else:
        epilogue = call_text
    piece = open_slice(ctx.source, ctx.tree, fn)
    replacements: dict = {}
    site_line = _line_of(piece, stmt)
    if site_line is None:
        return []
    new_site = [cst.parse_statement(s + "\n") for s in site]
    if not new_site and _only_statement(chain.get(stmt), stmt):
        new_site = [cst.parse_statement("pass\n")]
    replacements[site_line] = carry_comments([site_line], new_site) if new_site else _keep_comments_only(site_line)
    module = epilogue_module(ctx, piece, replacements, epilogue, top, stmt.lineno)
    if module is None:
        return []
    return ctx.make_fix(f"Defer to the end of the compiled function {STILL_BREAKS}", piece.edit(module), "defer",
                        needs_torch=False, preferred=False, unsafe=True)


def epilogue_module(ctx: FixContext, piece, replacements: dict, epilogue: str, top: list[str], after: int):
    """``piece``'s function with ``epilogue`` run before each ``return`` after line ``after`` (the
    returned value computed first) and at its end, ``top`` statements first and ``replacements``
    applied; None when a ``return`` shares its line."""
    fn = piece.fn
    for ret in _returns(fn):
        if ret.lineno < after:
            continue
        line = _line_of(piece, ret)
        if line is None:
            return None
        new = [cst.parse_statement(epilogue + "\n")]
        if ret.value is not None and not _plain(ret.value):
            result = ctx.names.fresh("result")
            new.insert(0, cst.parse_statement(f"{result} = {ctx.text(ret.value)}\n"))
            new.append(cst.parse_statement(f"return {result}\n"))
        else:
            new.append(line.with_changes(leading_lines=()))
        replacements[line] = carry_comments([line], new) if line not in replacements else replacements[line]
    module = replace(piece.module, replacements)
    return _add_top_and_tail(piece, module, top, epilogue, fn)


def defer_through_chain(ctx: FixContext, helper: ast.FunctionDef, call: ast.Call, finding) -> list[Fix]:
    """Under compilation the helper queues the call (its values captured as a lambda's defaults);
    the entry replays the queue before each return. Eager runs call it in place as before."""
    entry = entry_function(ctx.tree, finding.data["entry"])
    stmt = parents(helper)[call]
    plan = CapturePlan(ctx, helper, call, SUFFIX.get(finding.code, "deferred"), in_loop=True)
    params = ", ".join(f"{t}={plan.capture_value(n)}" for t, n in zip(plan.temps, plan.captured))
    queued = f"lambda {params}: {plan.epilogue_call()}" if params else f"lambda: {plan.epilogue_call()}"
    original = continuation(ctx.lowering.segment(stmt), stmt.col_offset)
    site = (f"if {ctx.torch}.compiler.is_compiling():\n" + indent(f"{QUEUE}.append({queued})\n") + "else:\n"
            + indent(original + "\n"))
    piece = open_slice(ctx.source, ctx.tree, helper)
    line = _line_of(piece, stmt)
    if line is None:
        return []
    edits = [piece.edit(replace(piece.module, {line: carry_comments([line], [cst.parse_statement(site)])}))]
    if not has_replay(entry):
        replay = ctx.names.fresh(REPLAY)
        top = [f"def {replay}():\n    while {QUEUE}:\n        {QUEUE}.pop(0)()"]
        entry_piece = open_slice(ctx.source, ctx.tree, entry)
        module = epilogue_module(ctx, entry_piece, {}, f"{replay}()", top, 0)
        if module is None:
            return []
        edits.append(entry_piece.edit(module))
    if not has_queue(ctx.tree):
        line_no = import_line(ctx.tree)
        edits.append(TextEdit(line_no, 0, line_no, 0, f"\n{QUEUE} = []  # calls deferred by compiled helpers, replayed at the end of their entry\n"))
    extra = torch_import_edit(ctx.tree)
    edits = [e for e in [extra, *edits] if e is not None]
    return [Fix(f"Defer to the end of the compiled entry {STILL_BREAKS}",
                tuple(edits), preferred=False, kind="defer", unsafe=True)]


def _line_of(piece, stmt: ast.stmt):
    node = cst_statement(piece, stmt)
    if node is None:
        return None
    line = statement_line(piece.module, node)
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) != 1:
        return None
    return line


def _only_statement(parent: ast.AST | None, stmt: ast.stmt) -> bool:
    """Whether ``stmt`` is alone in its block (removing it would leave the block empty)."""
    return any(getattr(parent, f, None) == [stmt] for f in ("body", "orelse", "finalbody"))


def _keep_comments_only(line: cst.SimpleStatementLine) -> list:
    """Remove a statement line, or leave ``pass`` holding its comments when it has any."""
    has_comment = line.trailing_whitespace.comment is not None or any(l.comment for l in line.leading_lines)
    return [line.with_changes(body=[cst.Pass()])] if has_comment else []


def _add_top_and_tail(piece, module: cst.Module, top: list[str], epilogue: str, fn: ast.AST) -> cst.Module:
    """Add setup statements after the docstring and the epilogue at the end of a body that can fall through."""
    fn_node = module.body[0].body.body[0] if piece.wrapped else module.body[0]
    body = list(fn_node.body.body)
    if not exits(fn.body):  # the end of the body can be reached
        body.append(cst.parse_statement(epilogue + "\n"))
    doc = 1 if (isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant)
                and isinstance(fn.body[0].value.value, str)) else 0
    body[doc:doc] = [cst.parse_statement(s + "\n") for s in top]
    new_fn = fn_node.with_changes(body=fn_node.body.with_changes(body=body))
    return replace(module, {fn_node: new_fn})


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
    if fn is not None and callee.split(".")[0] in _local_names(fn):
        return []
    position = _after_definition(ctx.tree, callee.split(".")[0])
    line_text = f"{ctx.torch}._dynamo.config.ignore_logger_methods.add({callee})"
    return module_line_fix(ctx, line_text, position, "Let Dynamo skip this logger method (ignore_logger_methods)", "defer")


def _after_definition(tree: ast.Module, name: str) -> int:
    """The line after the top-level statement binding ``name`` (or after the imports)."""
    line = import_line(tree)
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound = {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound = {n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)}
        else:
            continue
        if name in bound:
            line = max(line, node.end_lineno + 1)
    return line
