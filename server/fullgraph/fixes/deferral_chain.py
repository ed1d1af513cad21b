"""Deferral through the call chain: what a print/logging/warnings call in a helper the compiled
entry calls needs for the entry to replay it (the rewrite is :mod:`fullgraph.fixes.deferral`'s).

Under compilation the helper hands the call (a ``lambda`` whose default arguments capture its
values where the call stood) to ``_fullgraph_defer``, which queues it until the entry's call
returns and the entry's decorator replays it. Run eagerly, the helper makes the call itself as before.
"""

from __future__ import annotations

import ast

from fullgraph.analysis.bindings import module_names
from fullgraph.analysis.nodes import children, walk
from fullgraph.analysis.per_node import per_node
from fullgraph.fixes.module_purity import module_classes, module_functions, owner_class, per_file
from fullgraph.fixes.project_torch import bases, mentions

QUEUE = "_fullgraph_deferred"
DEFER = "_fullgraph_defer"
REPLAY = "replay_deferred"
# What the generated code calls, by the torch module that must define it.
REPLAY_NEEDS = ((("compiler",), "def is_exporting"), (("_dynamo", "config"), "ignore_logging_functions"),
                (("nn", "modules", "module"), "always_call"))


def replay_supported(project=None) -> bool:
    """Whether the torch the project runs has what the deferral's generated code calls."""
    searched = bases(project)
    return all(mentions(searched, parts, text) for parts, text in REPLAY_NEEDS)


def entry_function(tree: ast.AST, qualname: str):
    """The compiled entry ``Class.method`` or ``function`` of the file."""
    owner, _, name = qualname.rpartition(".")
    if not owner:
        return module_functions(tree).get(name)
    cls = module_classes(tree).get(owner)
    return next((m for m in getattr(cls, "body", []) if isinstance(m, ast.FunctionDef) and m.name == name), None)


def _calls_of(tree: ast.AST, helper: ast.FunctionDef, method: bool) -> list[ast.Call]:
    """Every call of ``helper`` in the file (``self.helper(...)`` for a method, ``helper(...)`` else)."""
    return per_file(tree, "calls", lambda: _calls_by_name(tree)).get((helper.name, method), [])


@per_node
def _calls_by_name(tree: ast.AST) -> dict[tuple[str, bool], list[ast.Call]]:
    """The calls in the file's classes and functions by (name, whether it is `self.<name>(...)`)."""
    out: dict[tuple[str, bool], list[ast.Call]] = {}
    for scope in [*module_classes(tree).values(), *module_functions(tree).values()]:
        for node in walk(scope):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
                out.setdefault((func.attr, True), []).append(node)
            elif isinstance(func, ast.Name):
                out.setdefault((func.id, False), []).append(node)
    return out


def _holder(fn: ast.FunctionDef, call: ast.Call) -> bool:
    """Whether ``call`` runs in ``fn``'s own body (not in a nested function, lambda or class)."""
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if node is call:
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(children(node))
    return False


def chain_reason(tree: ast.AST, helper: ast.FunctionDef, entry_name: str) -> str | None:
    """Why the helper's call can't be replayed by the entry (None: it can)."""
    entry = entry_function(tree, entry_name)
    if entry is None:
        return f"the compiled entry `{entry_name}` is not in this file"
    owner = owner_class(tree, helper)
    if owner is not None and helper.name in ("forward", "__call__"):
        return (f"`{owner.name}.{helper.name}` runs as a submodule inside `{entry_name}`, not as a helper it calls "
                "once: what it defers would not be replayed in order with the entry's own calls")
    method = owner is not None
    calls = _calls_of(tree, helper, method)
    if len(calls) != 1 or not _holder(entry, calls[0]):
        if len(calls) == 1:
            return (f"`{helper.name}` is called at line {calls[0].lineno}, outside `{entry_name}`: the entry replays "
                    "only what a helper it calls itself, once, defers")
        return (f"`{helper.name}` is called from {len(calls)} places; it must be called once, from `{entry_name}` itself, "
                "so that the entry replays what it defers")
    return None


def replay_entry(data: dict) -> str:
    """The function whose calls replay a deferred call: the ``forward`` of the innermost module class
    that runs it (the finding's ``replay_classes``), else the compiled entry."""
    classes = data.get("replay_classes")
    return f"{classes[0]}.forward" if classes else data["entry"]


def replay_targets(tree: ast.AST, entry: ast.FunctionDef, data: dict):
    """What gets the replaying decorator, and the entry names the deferred calls are queued under (a
    name, or a tuple when several classes replay): the classes of ``replay_classes``, the class of a
    module's ``forward`` entry, or the entry function. None when a class is not in this file."""
    classes = module_classes(tree)
    names = data.get("replay_classes") or []
    if not names and data.get("module_forward") and data["entry"].rpartition(".")[0] in classes:
        names = [data["entry"].rpartition(".")[0]]
    if not names:
        return [entry], data["entry"]
    if any(name not in classes for name in names):
        return None
    return [classes[name] for name in names], names[0] if len(names) == 1 else tuple(names)


def replays(target: ast.ClassDef | ast.FunctionDef) -> bool:
    """Whether the class or function already has the decorator that replays deferred calls."""
    return any(isinstance(d, ast.Name) and d.id == REPLAY for d in target.decorator_list)


# Every module-level name the deferral's code defines (`replay_definitions`).
DEFINED = frozenset((QUEUE, "_fullgraph_replaying", "_fullgraph_replayed", DEFER, "_fullgraph_entries",
                     "_fullgraph_enter", "_fullgraph_replay", "_fullgraph_hook", REPLAY))


def names_reason(tree: ast.Module) -> str | None:
    """Why the deferral's definitions can't go into (or be reused from) this file: it binds some of
    their names at module level itself (a variable, a function, an import), not all of them as an
    earlier deferral's definitions do."""
    index = getattr(tree, "module_index", None)
    taken = DEFINED & (index.names if index is not None else module_names(tree.body))
    if not taken or taken == DEFINED:
        return None
    name = sorted(taken)[0]
    return (f"the file already binds `{name}`, a name the deferral's code defines at module level: rename it to allow "
            "the rewrite")


def has_queue(tree: ast.Module) -> bool:
    return any(isinstance(s, ast.Assign) and [ast.unparse(t) for t in s.targets] == [QUEUE] for s in tree.body)
