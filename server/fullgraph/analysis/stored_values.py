"""Python values a compiled method stores on its module (``self.avg = t.mean().item()``), and what
else in the module's class could see the attribute before the call returns: what deferring the
store to the replay after the call needs (:mod:`fullgraph.fixes.stored_values` rewrites it)."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.parents import function_parents

ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")


def stored_attribute(fn: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.AST) -> tuple[ast.Assign, str] | None:
    """The statement ``self.<attr> = <value>`` of method ``fn`` whose value holds ``node``, and
    ``<attr>`` (``self``: the method's first parameter)."""
    params = [*fn.args.posonlyargs, *fn.args.args]
    chain = function_parents(fn)
    stmt = chain.get(node)
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = chain.get(stmt)
    if not params or not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return None
    target = stmt.targets[0]
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == params[0].arg:
        return stmt, target.attr
    return None


def attribute_uses(index, cls, attr: str, store: ast.Assign) -> list[str]:
    """The methods of ``cls`` and its base classes (this file's, and other files' through the
    project index), ``__init__`` aside, and this file's functions, that read or write ``<x>.<attr>``
    besides ``store``, name it in ``getattr``/``setattr``/``hasattr``/``delattr``, or pass those a
    computed name on ``self``; a base class whose source is not at hand is named as unread."""
    found: list[str] = []
    scopes = [(f"{c.name}.{m.node.name}", m.node) for c in index.chain(cls) for m in c.methods.values()]
    scopes += [(info.qualname, info.node) for info in index.functions.values()]
    bases = tuple(b for b in (index.lookup(s) for c in index.chain(cls) for s in c.base_spellings) if b is not None)
    project = index.project
    for symbol, summary in project.base_classes(bases) if project is not None and bases else ():
        if summary is None:
            continue  # torch's own classes do not read the attributes a subclass adds
        held = project.tree(symbol.path)
        node = next((s for s in held[0].body if isinstance(s, ast.ClassDef) and s.name == symbol.qualname),
                    None) if held is not None else None
        if node is None:
            found.append(f"`{symbol.qualname}` (a base class whose source was not read)")
            continue
        scopes += [(f"{node.name}.{m.name}", m) for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for name, scope in scopes:
        if scope.name != "__init__" and _uses(scope, attr, store.targets[0]):
            found.append(f"`{name}`")
    return list(dict.fromkeys(found))


def _uses(scope: ast.AST, attr: str, target: ast.expr) -> bool:
    for node in walk(scope):
        if isinstance(node, ast.Attribute) and node.attr == attr and node is not target:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_CALLS \
                and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and name.value == attr:
                return True
            if not isinstance(name, ast.Constant) and isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
                return True
    return False
