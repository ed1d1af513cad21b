"""What a function's body binds its local names to (stdlib `ast` only, memoised per node)."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import statements, walk
from fullgraph.analysis.parents import function_parents
from fullgraph.analysis.per_node import per_node


@per_node
def local_bindings(fn: ast.AST) -> dict[str, list[ast.expr] | None]:
    """Local names of ``fn`` -> the values every assignment binds them to (None: some other binding,
    a loop variable, a nested ``def``)."""
    return bindings_among(list(walk(fn)), fn)


def parameter_names(fn: ast.AST) -> frozenset[str]:
    """Every parameter name of ``fn`` (positional, keyword-only, `*args`, `**kwargs`)."""
    args = fn.args
    return frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a)


@per_node
def stored_names(node: ast.AST) -> frozenset[str]:
    """The names anything under ``node`` assigns (`x = `, `for x in`, `x :=`, ...)."""
    return frozenset(sub.id for sub in walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store))


@per_node
def unpacked_bindings(fn: ast.AST) -> dict[str, tuple[tuple[ast.expr, int], ...] | None]:
    """Local names of ``fn`` -> (the value unpacked, the name's place in the target) for each
    assignment that binds it by unpacking (`B, C, H, W = x.shape`), for names only such
    assignments bind; None for a name something else binds too."""
    found: dict[str, tuple[tuple[ast.expr, int], ...] | None] = {}
    targets: set[int] = set()
    for sub in walk(fn):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], (ast.Tuple, ast.List)):
            for index, name in enumerate(sub.targets[0].elts):
                if isinstance(name, ast.Name):
                    targets.add(id(name))
                    known = found.get(name.id, ())
                    found[name.id] = None if known is None else (*known, (sub.value, index))
    for sub in walk(fn):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and id(sub) not in targets:
            found[sub.id] = None
    return found


@per_node
def assignments(fn: ast.AST) -> tuple[ast.Assign, ...]:
    """The `=` statements under ``fn``, in `walk` order."""
    return tuple(sub for sub in statements(fn) if isinstance(sub, ast.Assign))


def bindings_among(nodes: list[ast.AST], fn: ast.AST) -> dict[str, list[ast.expr] | None]:
    """:func:`local_bindings` counting only ``nodes`` (some of ``fn``'s: a rewrite leaves its own out)."""
    out: dict[str, list[ast.expr] | None] = {}
    plain: set[int] = set()  # the Name nodes that are whole targets of an `=`
    for sub in nodes:
        if isinstance(sub, ast.Assign):
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    plain.add(id(target))
                    known = out.get(target.id, [])
                    out[target.id] = None if known is None else known + [sub.value]
    for sub in nodes:
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and id(sub) not in plain:
            out[sub.id] = None
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not fn:
            out[sub.name] = None
    return out


def module_names(body: list[ast.stmt]) -> frozenset[str]:
    """The names a module's top-level statements bind (definitions, assignments, imports, loop and
    `with` targets), through `if`/`try`/`with`/`for` blocks at that level, not inside functions or classes."""
    out: set[str] = set()
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(stmt.name)
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).partition(".")[0] for a in stmt.names)
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                todo.append(child)
            elif isinstance(child, ast.ExceptHandler):
                todo.extend(child.body)
                out.update([child.name] if child.name else [])
            elif not isinstance(child, ast.expr_context):
                out.update(n.id for n in walk(child) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return frozenset(out)


def as_passed(node: ast.AST, name: str, fn: ast.AST) -> bool:
    """Whether parameter `name` of `fn`, read at `node`, still holds what the call passed: no store of it
    can run first (each is on a later line, a target of the statement that reads it, or in the other
    branch of an `if` the read is in) and no loop around `node` stores it (`if edge_attr is not
    None:` above `edge_attr = torch.cat(...)`)."""
    parents = function_parents(fn)
    above = _ancestors(node, parents)
    if above is None:
        return False  # not a node of the function
    statement = next((a for a in above if isinstance(a, ast.stmt)), None)
    own = {id(t) for t in walk(statement) if isinstance(t, ast.Name)} \
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) else set()
    if any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) and name in stored_names(a) for a in above):
        return False
    return all(store.lineno > node.lineno or id(store) in own or _other_branch(store, node, above, parents)
               for store in _stores(fn).get(name, ()))


@per_node
def _stores(fn: ast.AST) -> dict[str, list[ast.Name]]:
    """Name -> the nodes under ``fn`` that store it."""
    found: dict[str, list[ast.Name]] = {}
    for sub in walk(fn):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            found.setdefault(sub.id, []).append(sub)
    return found


def _ancestors(node: ast.AST, parents: dict) -> list[ast.AST] | None:
    """The nodes above `node` up to the function's, innermost first; None for a node outside it."""
    found, at = [], parents.get(node)
    while at is not None:
        found.append(at)
        at = parents.get(at)
    return found or None


def _other_branch(store: ast.AST, read: ast.AST, above: list[ast.AST], parents: dict) -> bool:
    """Whether `store` and `read` sit in different branches of the `if` nearest above both."""
    ancestors = {id(a) for a in above}
    child, at = store, parents.get(store)
    while at is not None and id(at) not in ancestors:
        child, at = at, parents.get(at)
    if not isinstance(at, ast.If):
        return False
    read_child = read if read in (at.test, *at.body, *at.orelse) else above[above.index(at) - 1]
    return {_side(at, child), _side(at, read_child)} == {"body", "orelse"}


def _side(branching: ast.If, child: ast.AST) -> str:
    return "body" if child in branching.body else "orelse" if child in branching.orelse else "test"
