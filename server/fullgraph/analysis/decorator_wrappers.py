"""The nested defs a decorator puts in place of the function it decorates: what runs when the
decorated function is called. Besides `def deco(f): def wrapper(...): ... f(...); return wrapper`
and its `@deco(args)` form, it follows the idioms decorator libraries use: a factory taking
optional arguments (`if method is None: return functools.partial(deco, name=name)`), and one
decorator forwarding to another (`return _cached(method=method, name=name)`). A branch, or a
conditional expression, on a parameter whose value the decorator's call fixes (`if ignore_args:`
with `ignore_args` left at `False`) is followed one way only."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from fullgraph.analysis.callers import with_defaults
from fullgraph.analysis.nodes import walk

MAX_DEPTH = 4  # decorator functions followed through forwarding calls and partials
PARTIAL = "functools.partial"
UNKNOWN = object()
FUNCTION = object()  # the decorated function: never None, always true


@dataclass(frozen=True)
class Def:
    """A def of a decorator's file: its node, qualified name, that file's index, and the def around it."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    module: object
    enclosing: ast.FunctionDef | ast.AsyncFunctionDef | None = None


def decorator_wrappers(deco, call: ast.Call | None) -> list[Def]:
    """The wrapper defs that decorating a function with `deco` (a FunctionInfo or Def; `call`: the
    `@deco(...)` call, None for a bare `@deco`) leaves in its place."""
    if call is None:
        found = _applied(deco, _bound(deco.node, [], [], first=FUNCTION), 0)
    else:
        found = _factory(deco, _bound(deco.node, call.args, call.keywords), 0)
    return list({id(d.node): d for d in found}.values())


def _applied(deco, known: dict[str, object], depth: int) -> list:
    """Wrappers of `deco` called with the decorated function as its first parameter."""
    params = deco.node.args.posonlyargs + deco.node.args.args
    if not params or depth > MAX_DEPTH:
        return []
    wrapped = params[0].arg
    found = []
    for value in _returned(deco.node, known):
        inner = _inner_def(deco.node, value)
        if inner is not None:
            if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == wrapped for n in walk(inner)):
                found.append(_info(deco, inner))
            continue  # a def that never calls the function is not a wrapper (a registry, a docstring edit)
        target = _callee(deco, value)
        if target is not None and _passes_first(value, wrapped, target):  # the function, then the rest
            found += _applied(target, _bound(target.node, value.args[1:], value.keywords, known, first=FUNCTION),
                              depth + 1)
    return found


def _factory(deco, known: dict[str, object], depth: int) -> list:
    """Wrappers left by the decorator that `deco`, called with the decorator's arguments, returns."""
    if depth > MAX_DEPTH:
        return []
    found = []
    for value in _returned(deco.node, known):
        inner = _inner_def(deco.node, value)
        if inner is not None:
            found += _applied(_info(deco, inner), _closure(known, inner), depth + 1)
            continue
        if not isinstance(value, ast.Call):
            continue
        home = deco.module
        if home is not None and home.aliases.resolve(value.func) == PARTIAL and len(value.args) == 1:
            target = _function(home, value.args[0])
            if target is not None:  # `partial(f, **kw)(decorated)`: f(decorated, **kw)
                found += _applied(target, _bound(target.node, [], value.keywords, known, first=FUNCTION), depth + 1)
            continue
        target = _callee(deco, value)
        if target is not None:
            found += _factory(target, _bound(target.node, value.args, value.keywords, known), depth + 1)
    return found


def _closure(known: dict[str, object], inner: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
    """The factory's known parameters as a def inside it sees them: those it does not bind itself."""
    bound = {arg.arg for arg, _ in with_defaults(inner)}
    bound.update(n.id for n in walk(inner) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    return {name: value for name, value in known.items() if name not in bound}


def _bound(node: ast.FunctionDef | ast.AsyncFunctionDef, args: list[ast.expr], keywords: list[ast.keyword],
           caller: dict[str, object] | None = None, first: object = UNKNOWN) -> dict[str, object]:
    """Parameter -> constant value of a call of `node` (its first parameter taking `first` when the
    decorated function fills it), from constants and the caller's known parameters; the rest of
    the parameters keep their constant defaults."""
    params = with_defaults(node)
    known: dict[str, object] = {}
    for param, default in params:
        known[param.arg] = default.value if isinstance(default, ast.Constant) else UNKNOWN
    positional = [p.arg for p, _ in params[:len(node.args.posonlyargs + node.args.args)]]
    if first is not FUNCTION:
        given = list(zip(positional, args))
    else:
        if positional:
            known[positional[0]] = FUNCTION
        given = list(zip(positional[1:], args))
    given += [(k.arg, k.value) for k in keywords if k.arg is not None and k.arg in known]
    for name, value in given:
        known[name] = _constant(value, caller or {})
    if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
        return {name: FUNCTION if value is FUNCTION else UNKNOWN for name, value in known.items()}
    return known


def _constant(value: ast.expr, caller: dict[str, object]) -> object:
    if isinstance(value, ast.Constant):
        return value.value
    if isinstance(value, ast.Name):
        return caller.get(value.id, UNKNOWN)
    return UNKNOWN


def _returned(node: ast.FunctionDef | ast.AsyncFunctionDef, known: dict[str, object]) -> list[ast.expr]:
    """The values of the `return` statements of `node` a call with `known` parameters can reach."""
    out: list[ast.expr] = []

    def block(body: list[ast.stmt]) -> bool:
        """Collect the returns of `body`; whether it always returns."""
        for stmt in body:
            if isinstance(stmt, ast.Return):
                if stmt.value is not None:
                    out.extend(_alternatives(stmt.value, known))
                return True
            if isinstance(stmt, ast.If):
                taken = _truth(stmt.test, known)
                then = block(stmt.body) if taken is not False else True
                other = block(stmt.orelse) if taken is not True else True
                if then and other:
                    return True
            elif isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)):
                for part in (getattr(stmt, f, []) for f in ("body", "orelse", "finalbody")):
                    block(part)
                for handler in getattr(stmt, "handlers", []):
                    block(handler.body)
        return False
    block(node.body)
    return out


def _alternatives(value: ast.expr, known: dict[str, object]) -> list[ast.expr]:
    """The values `value` may be: each side of a conditional expression its test leaves open."""
    if not isinstance(value, ast.IfExp):
        return [value]
    taken = _truth(value.test, known)
    return [*(_alternatives(value.body, known) if taken is not False else []),
            *(_alternatives(value.orelse, known) if taken is not True else [])]


def _truth(test: ast.expr, known: dict[str, object]) -> bool | None:
    """What `test` evaluates to for the known parameters (None: unknown)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, known)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        value = known.get(test.id, UNKNOWN)
        return None if value is UNKNOWN else True if value is FUNCTION else bool(value)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        value = known.get(test.left.id, UNKNOWN)
        if value is UNKNOWN:
            return None
        return (value is None) == isinstance(test.ops[0], ast.Is)
    return None


def _inner_def(node: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr):
    """The def of `node`'s own body that `value` names."""
    if not isinstance(value, ast.Name):
        return None
    defs = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == value.id]
    return defs[-1] if defs else None


def _callee(deco, value: ast.expr):
    """The function of the decorator's file (or imported there) that a returned call runs."""
    if not isinstance(value, ast.Call) or deco.module is None:
        return None
    return _function(deco.module, value.func)


def _function(home, node: ast.expr):
    if isinstance(node, ast.Name):
        return home.functions.get(node.id) or home.imported_function(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return home.imported_function(f"{node.value.id}.{node.attr}")
    return None


def _passes_first(call: ast.Call, wrapped: str, target) -> bool:
    """Whether `call` hands the decorated function (parameter `wrapped`) to `target`'s first parameter."""
    params = target.node.args.posonlyargs + target.node.args.args
    if not params:
        return False
    if call.args:
        return isinstance(call.args[0], ast.Name) and call.args[0].id == wrapped
    return any(k.arg == params[0].arg and isinstance(k.value, ast.Name) and k.value.id == wrapped for k in call.keywords)


def _info(deco, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Def:
    return Def(node, f"{deco.qualname}.<locals>.{node.name}", deco.module, deco.node)
