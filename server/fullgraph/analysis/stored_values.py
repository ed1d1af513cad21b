"""Python values a compiled method stores on its module (``self.avg = t.mean().item()``), and what
else in the module's class could see the attribute before the call returns: what deferring the
store to the replay after the call needs (:mod:`fullgraph.fixes.store_deferral` rewrites it)."""

from __future__ import annotations

import ast
import builtins
import sys
from collections import Counter

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import class_bases, walk
from fullgraph.analysis.parents import function_parents
from fullgraph.analysis.per_node import per_node

ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")
STANDARD_ROOTS = frozenset(("torch", *sys.stdlib_module_names))


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
    computed name on ``self`` that may spell it; a base class whose source is not at hand is named
    as unread."""
    found = [f"`{s}` (a base class whose source was not found)" for s in _unfound_bases(index, cls)]
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
        if scope.name != "__init__" and _uses(scope, attr, store):
            found.append(f"`{name}`")
    return list(dict.fromkeys(found))


def _unfound_bases(index, cls) -> list[str]:
    """The imported bases of ``cls``'s in-file chain the project index does not resolve, but for
    torch's, the standard library's and builtins (none of which read a subclass's attributes)."""
    out = []
    for c in index.chain(cls):
        for base in class_bases(c.node):
            if isinstance(base, ast.Name) and base.id in index.classes:
                continue
            spelling, qualname = dotted(base), index.aliases.resolve(base) or ""
            known = qualname.split(".")[0] in STANDARD_ROOTS or hasattr(builtins, qualname)
            if not known and (spelling is None or index.lookup(spelling) is None):
                out.append(spelling or ast.unparse(base))
    return out


def _uses(scope: ast.AST, attr: str, store: ast.Assign) -> bool:
    attributes, named, computed = _mentions(scope)
    own = 1 if store in function_parents(scope) else 0  # the store's own target
    return attributes[attr] > own or attr in named or any(_may_spell(name, attr, scope) for name in computed)


@per_node
def _mentions(scope: ast.AST) -> tuple[Counter, frozenset[str], tuple[ast.expr, ...]]:
    """How often each ``<x>.<name>`` occurs in ``scope``, the names ``getattr`` and its kind take as
    text, and the computed names they take on ``self`` (one walk per function, whatever asks)."""
    attributes: Counter = Counter()
    named, computed = set(), []
    for node in walk(scope):
        if isinstance(node, ast.Attribute):
            attributes[node.attr] += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_CALLS \
                and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant):
                named.add(name.value)
            elif isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
                computed.append(name)
    return attributes, frozenset(named), tuple(computed)


def _loop_names(scope: ast.AST, name: str) -> set[str] | None:
    """The strings a loop over a literal list binds ``name`` to (`for a in ["n", "m"]:`), when
    that is the only way ``scope`` binds it; None otherwise."""
    values: set[str] = set()
    for node in walk(scope):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            loop = next((f for f in walk(scope) if isinstance(f, ast.For) and f.target is node), None)
            items = loop.iter.elts if loop is not None and isinstance(loop.iter, (ast.List, ast.Tuple)) else None
            if items is None or not all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items):
                return None
            values.update(i.value for i in items)
    return values or None


def _may_spell(name: ast.expr, attr: str, scope: ast.AST) -> bool:
    """Whether a computed name may be ``attr``: a loop variable over a literal list must hold it;
    its text's constant head and tail, where it has them (`f"{kind}_loss"`,
    `"{}_reduction".format(kind)`, `"get_" + kind`), must fit."""
    looped = _loop_names(scope, name.id) if isinstance(name, ast.Name) else None
    if looped is not None:
        return attr in looped
    head = tail = ""
    if isinstance(name, ast.JoinedStr) and name.values:
        first, last = name.values[0], name.values[-1]
        head = first.value if isinstance(first, ast.Constant) else ""
        tail = last.value if isinstance(last, ast.Constant) and len(name.values) > 1 else ""
    elif isinstance(name, ast.Call) and isinstance(name.func, ast.Attribute) and name.func.attr == "format" \
            and isinstance(name.func.value, ast.Constant) and isinstance(name.func.value.value, str):
        template = name.func.value.value
        if "{" in template:
            head, tail = template[:template.index("{")], template[template.rindex("}") + 1:]
    elif isinstance(name, ast.BinOp) and isinstance(name.op, ast.Add):
        head = name.left.value if isinstance(name.left, ast.Constant) and isinstance(name.left.value, str) else ""
        tail = name.right.value if isinstance(name.right, ast.Constant) and isinstance(name.right.value, str) else ""
    return len(attr) >= len(head) + len(tail) and attr.startswith(head) and attr.endswith(tail)
