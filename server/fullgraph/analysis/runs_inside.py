"""Where a compiled entry also runs inside other module code (`self.encoder = Encoder(config)`):
there Dynamo traces the entry inside the enclosing module's frame, not as a frame of its own.

Read by the deferral fix, whose replaying wrapper is only out of the graph when the entry's own
frame is the compiled one. Only what the source shows counts: a class made by a factory
(`AutoModel.from_config(...)`) or by the user's own modules is not seen.
"""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.regions import ClassInfo, FunctionInfo, ModuleIndex

MAX_CALLERS = 32  # calls of the name in other workspace files beyond this are not resolved


def runs_inside(index: ModuleIndex, entry: FunctionInfo, replaying: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The methods of module classes, in this file or other workspace files, that call the entry's
    class (for a method of a class) or the entry itself (for a function), spelled for a message.
    With ``replaying`` (the module classes whose hooks replay a deferred call, see
    :func:`fullgraph.analysis.replay_order.replay_classes`), those classes are asked instead, the
    ones among them do not count, and so does the compiled entry when it is not one's ``forward``
    (or a method their inherited ``forward`` calls)."""
    targets = replaying or (entry.cls.name if entry.cls is not None else entry.node.name,)
    methods = {at: (cls, info) for target in targets for at, cls, info in makers(index, target)}
    found = [f"`{info.qualname}`" for _, (cls, info) in sorted(methods.items(), key=lambda item: item[0])
             if cls is not entry.cls and cls.name not in replaying and index.is_module_class(cls.name)]
    if replaying and (entry.module not in (index, None) or entry.cls is None or entry.cls.name not in replaying
                      or entry.node.name != "forward" and not entry.dispatched):
        found.insert(0, f"`{entry.qualname}`")
    project = index.project
    for target in targets if project is not None else ():
        try:
            sites = project.call_sites(index.path, target, limit=MAX_CALLERS)
        except (OSError, RecursionError, ValueError):
            sites = []
        if sites is None:  # too many to resolve: any of them may be a module's
            found.append(f"code in more than {MAX_CALLERS} places that call `{target}`")
        for file, call in sites or ():
            owner = call.caller.partition(".")[0] if "." in call.caller else None
            if owner and project.is_module_class(file, owner):
                found.append(f"`{call.caller}` ({project.display_path(file)}:{call.line})")
    return tuple(dict.fromkeys(found))


_MAKERS: WeakKeyDictionary = WeakKeyDictionary()  # ModuleIndex -> name -> [(position, class, method)]


def makers(index: ModuleIndex, name: str) -> list[tuple[int, ClassInfo, FunctionInfo]]:
    """The methods of `index`'s classes that may instantiate `name` (`made_names`), each with its
    position in the file's order of methods and its class; the file's table is made once."""
    table = _MAKERS.get(index)
    if table is None:
        table = _MAKERS[index] = {}
        methods = [(cls, info) for cls in index.classes.values() for info in cls.methods.values()]
        for at, (cls, info) in enumerate(methods):
            for made in made_names(info.node):
                table.setdefault(made, []).append((at, cls, info))
    return table.get(name, [])


@per_node
def made_names(node: ast.AST) -> frozenset[str]:
    """The names a function may instantiate: those it calls as `name(...)`, and those it binds to a
    local name it may call later (`codebook_class = Codebook`, `A if c else B`, a tuple or dict of them)."""
    called = {n.func.id for n in walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    held = {n.id for a in walk(node) if isinstance(a, (ast.Assign, ast.AnnAssign)) and a.value is not None
            for n in _held(a.value)}
    return frozenset(called | held)


def _held(value: ast.expr):
    """The plain names a bound value holds: itself, either side of a conditional, the items of a literal."""
    if isinstance(value, ast.Name):
        yield value
    elif isinstance(value, ast.IfExp):
        yield from _held(value.body)
        yield from _held(value.orelse)
    elif isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        for item in value.elts:
            yield from _held(item)
    elif isinstance(value, ast.Dict):
        for item in value.values:
            yield from _held(item)
