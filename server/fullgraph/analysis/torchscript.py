"""Signs that a function is compiled by TorchScript (`torch.jit.script`), which rejects what some
rewrites add (lambdas, nested functions, torch's print operator): a scripting decorator (torch's,
or a project's own that calls `torch.jit.script`), a class written for TorchScript (`Final`
attributes, `@torch.jit.export`), TorchScript's API in the body, or a file that scripts something
by a call."""

from __future__ import annotations

import ast
import os
import re

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import decorator_target, walk
from fullgraph.analysis.per_node import per_node

SCRIPTING = ("torch.jit.script", "torch.jit.script_if_tracing")
SKIPPED = ("torch.jit.ignore", "torch.jit.unused")  # decorators that keep a body out of TorchScript
NOT_SCRIPTING = ("torch.jit.trace", "torch.jit.trace_module", "torch.jit.is_tracing", "torch.jit.save",
                 "torch.jit.load", "torch.jit.freeze", "torch.jit.optimize_for_inference")
_SCRIPT_CALL = re.compile(r"script\s*\(")  # a prefilter (a leading `\b` makes the search 25x slower)


def _jit_use(nodes, resolve) -> str | None:
    """The first of `nodes` that names TorchScript's API (tracing and saving aside), as
    "`torch.jit.export` (line 12)"."""
    for node in nodes:
        if isinstance(node, (ast.Attribute, ast.Name)):
            used = resolve(node)
            if used and used.startswith("torch.jit.") and used not in NOT_SCRIPTING:
                return f"`{used}` (line {node.lineno})"
    return None


def scripting_call(tree: ast.Module, source: str, resolve) -> str | None:
    """A call of `torch.jit.script(...)` outside a decorator (`torch.jit.script(model)`): it may
    script any class or function of the file."""
    if "jit" not in source or not _SCRIPT_CALL.search(source):
        return None
    for node in walk(tree):
        if isinstance(node, ast.Call) and resolve(node.func) in SCRIPTING and node.args:
            return f"`{resolve(node.func)}(...)` (line {node.lineno})"
    return None


@per_node
def _function_use(fn: ast.FunctionDef | ast.AsyncFunctionDef, resolve) -> str | None:
    """TorchScript's API anywhere in a function, its decorators included."""
    return _jit_use(walk(fn), resolve)


@per_node
def _class_use(cls: ast.ClassDef, resolve) -> str | None:
    """TorchScript's API in a class's annotations and method decorators (`Final[int]`, `@torch.jit.export`)."""
    heads = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign):
            heads += walk(stmt.annotation)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            heads += [n for dec in stmt.decorator_list for n in walk(dec)]
    return _jit_use(heads, resolve)


@per_node
def _calls_script(fn: ast.FunctionDef | ast.AsyncFunctionDef, resolve) -> bool:
    """Whether a function's body calls `torch.jit.script`."""
    return any(isinstance(n, ast.Call) and resolve(n.func) in SCRIPTING for n in walk(fn))


def scripting_decorator(index, function) -> str | None:
    """A decorator of `function` from another file whose body calls `torch.jit.script` (a project's
    own `script_if_tracing`), named with its file."""
    for dec in function.node.decorator_list:
        spelling = dotted(decorator_target(dec))
        deco = index.imported_function(spelling) if spelling else None
        home = deco.module if deco is not None else None
        if home is not None and _calls_script(deco.node, home.aliases.resolve):
            return f"its decorator `{spelling}` ({os.path.basename(home.path)}) calls `torch.jit.script`"
    return None


def scripted_reason(index, function) -> str | None:
    """Why `function` may be compiled by TorchScript (None: no sign of it)."""
    home = function.module or index
    resolve = home.aliases.resolve
    if any(resolve(decorator_target(dec)) in SKIPPED for dec in function.node.decorator_list):
        return None
    own = _function_use(function.node, resolve)
    if own is not None:
        return f"`{function.qualname}` uses TorchScript ({own})"
    cls = function.cls.node if function.cls is not None else None
    marked = _class_use(cls, resolve) if cls is not None else None
    if marked is not None:
        return f"`{cls.name}` is written for TorchScript ({marked})"
    if home.scripts is not None:
        return f"the file scripts code with {home.scripts}"
    return scripting_decorator(home, function)
