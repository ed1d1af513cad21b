"""Which names in library code the user's side decides when Dynamo traces it: `self` and configs,
the module's own globals, the compiled entry's parameters (the user's arguments), and the
parameters every walked call fills with such values (`preprocess_obs(obs, self.observation_space)`
then `is_image_space(observation_space)`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from fullgraph.analysis.bindings import (as_passed, local_bindings, parameter_names, stored_names,
                                         unpacked_bindings)
from fullgraph.analysis.call_guards import argument_choices
from fullgraph.analysis.nodes import names_in, walk
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.regions import FunctionInfo

# names whose values are the user's: the compiled object, configs, and calls that read them
OUTSIDE_NAMES = frozenset(("self", "config", "torch", "getattr", "hasattr", "isinstance", "len"))


def decided(node: ast.AST, function: FunctionInfo, params: frozenset[str], seen: frozenset[str] = frozenset()) -> bool:
    """Whether every name `node` reads in `function` is the user's: an outside name, one of
    `params` where it still holds what the call passed (:func:`as_passed`), a name `function`
    never binds (a global, a builtin), or a local every binding of
    which :func:`passes_on` what the user's side decides (`check_dtype = not normalized_image`,
    `for key in spaces:`, `B, C, H, W = x.shape`)."""
    stored, own = stored_names(function.node), parameter_names(function.node)
    for name in names_in(node):
        if name in OUTSIDE_NAMES or name not in stored | own:
            continue
        if name in params and (name not in stored or as_passed(node, name, function.node)):
            continue
        values = None if name in seen or name in own else local_bindings(function.node).get(name) \
            or _loop_sources(function.node).get(name) \
            or tuple(value for value, _ in unpacked_bindings(function.node).get(name) or ())
        if not values or not all(passes_on(v) and decided(v, function, params, seen | {name}) for v in values):
            return False
    return True


# calls that pass on what they are given (a container's parts, their count, positions)
PASSING_BUILTINS = frozenset(("enumerate", "zip", "reversed", "len", "range", "list", "tuple"))
PASSING_METHODS = frozenset(("items", "keys", "values"))


def passes_on(node: ast.AST) -> bool:
    """Whether `node` only reads what it names (`self.space`, `space[key]`, `not flag`, `a or b`,
    `spaces.items()`), computing nothing new: another call's or an arithmetic result is the
    library's own value, whose shape the user cannot tell (`blend(x, x * 2)`)."""
    return not any(isinstance(n, ast.BinOp) or isinstance(n, ast.Call) and not _passing(n) for n in walk(node))


def _passing(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Name) and func.id in PASSING_BUILTINS or \
        isinstance(func, ast.Attribute) and func.attr in PASSING_METHODS and not call.args


@per_node
def _loop_sources(fn: ast.AST) -> dict[str, tuple[ast.expr, ...] | None]:
    """Local names of `fn` -> what the loops that bind them iterate over, for names only loop
    targets (`for`, comprehensions) bind; None for a name something else binds too."""
    found: dict[str, tuple[ast.expr, ...] | None] = {}
    targets: set[int] = set()
    for sub in walk(fn):
        if isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)):
            for name in walk(sub.target):
                if isinstance(name, ast.Name):
                    targets.add(id(name))
                    known = found.get(name.id, ())
                    found[name.id] = None if known is None else (*known, sub.iter)
    for sub in walk(fn):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and id(sub) not in targets:
            found[sub.id] = None
    return found


class DecidedParameters:
    """`of(function)`: the parameters of a walked function the user's side decides: all of a compiled
    entry's (the user's arguments); a callee's that every walked call fills with what its caller's
    side decides (`is_image_space(observation_space)` called as `preprocess_obs` passes its own
    `observation_space`, which every call of that fills with `self.observation_space`), its calls of
    itself included, when the user's side decides every test around those calls (`plain(visit,
    tests)`; a call under a test of the library's own state passes nothing decided); where the
    callee rebinds one, only its reads before that count (:func:`decided`). `callers(function)`
    gives (the caller's visit, the call, its tests) for each walked call (:meth:`CallReach.callers`)."""

    def __init__(self, entries: list[FunctionInfo], callers: Callable, plain: Callable) -> None:
        self._entries = {id(e) for e in entries}
        self._callers, self._plain = callers, plain
        self._found: dict[int, frozenset[str]] = {}

    def of(self, function: FunctionInfo) -> frozenset[str]:
        key = id(function)
        if key not in self._found:
            self._found[key] = frozenset()  # a cycle of calls decides nothing
            self._found[key] = parameter_names(function.node) if key in self._entries else self._solve(function)
        return self._found[key]

    def _solve(self, function: FunctionInfo) -> frozenset[str]:
        calls = self._callers(function)
        outer = [(visit, call, tests) for visit, call, tests in calls if visit.function is not function]
        inner = [(visit, call, tests) for visit, call, tests in calls if visit.function is function]
        if not outer or not all(self._plain(visit, tests) for visit, _, tests in outer):
            return frozenset()
        params = frozenset.intersection(*(_passed_decided(function, call, visit.function, self.of(visit.function))
                                          for visit, call, _ in outer))
        while inner:  # its calls of itself, read with what is decided so far, until they keep every one left
            self._found[id(function)] = params
            if not all(self._plain(visit, tests) for visit, _, tests in inner):
                return frozenset()
            kept = params.intersection(*(_passed_decided(function, call, function, params) for _, call, _ in inner))
            if kept == params:
                break
            params = kept
        return params


def _passed_decided(callee: FunctionInfo, call: ast.Call, caller: FunctionInfo,
                    params: frozenset[str]) -> frozenset[str]:
    """The parameters of `callee` that `call` (made in `caller`) fills with what the user's side decides
    (through a `**` argument: with every dict it may hold)."""
    choices = [frozenset(name for name, arg in bound.items()
                         if isinstance(arg, ast.AST) and passes_on(arg) and decided(arg, caller, params))
               for bound in argument_choices(callee, call, caller.node)]
    return frozenset.intersection(*choices)
