"""Factories typed to return an object of the class they are given: `make(query: HintOrType[X], ...)
-> X`, `X` a TypeVar that a `type[X]` in the parameter's annotation (through type aliases, in any
file) binds to the class passed (class-resolver's `ClassResolver.make`, called on a module-level
resolver declared `interaction_resolver: ClassResolver[Interaction] = ...`). Read from annotations
only, as a type checker reads them: nothing runs."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from fullgraph.analysis.callers import bind_arguments, with_defaults
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk

if TYPE_CHECKING:
    from fullgraph.analysis.regions import FunctionInfo, ModuleIndex

MAX_ALIASES = 6  # type aliases followed, nested (`HintOrType` -> `Hint`, `InstOrType`)
TYPE_OF = frozenset(("type", "Type", "typing.Type"))


def given_parameter(index: ModuleIndex, call: ast.Call, names: frozenset[str]) -> str | None:
    """Which of `names` (parameters of the caller) `call` (in `index`'s file) makes an object of
    the class of, per the callee's annotations: the one passed where a `type[X]` binds the TypeVar
    `X` the callee returns."""
    callee = _callee(index, call)
    if callee is None:
        return None
    home = callee.module or index
    returns = callee.node.returns
    var = returns.id if isinstance(returns, ast.Name) else None
    if var is None or not _typevar(home, var):
        return None
    passed = bind_arguments(callee.node, callee.cls is not None, call, lambda arg: arg, lambda default: None,
                            facts=False)
    annotations = {a.arg: a.annotation for a, _ in with_defaults(callee.node)}
    for param, value in passed.items():
        annotation = annotations.get(param)
        if isinstance(value, ast.Name) and value.id in names and annotation is not None \
                and _binds_class(home, annotation, var, 0):
            return value.id
    return None


def _callee(index: ModuleIndex, call: ast.Call) -> FunctionInfo | None:
    """The function or method `call` runs: a module function, or a method of a module-level object
    whose declared class (its annotation, in this file or the one it is imported from) defines it."""
    func = call.func
    if isinstance(func, ast.Name):
        return index.functions.get(func.id) or index.imported_function(func.id)
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    declared = _definition(index, func.value.id, "declared")
    if declared is None:
        return None
    home, annotation = declared
    spelling = dotted(annotation.value if isinstance(annotation, ast.Subscript) else annotation)
    return home.class_method(spelling, func.attr) if spelling else None


def _definition(index: ModuleIndex, name: str, table: str) -> tuple[ModuleIndex, ast.expr] | None:
    """What a module-level name is in `table` (`declared`: its annotation, `name: Cls[...] = ...`;
    `type_aliases`: its definition), in this file or the one it is imported from, and that file."""
    if name in getattr(index, table):
        return index, getattr(index, table)[name]
    other = index.bound_in(name)
    found = getattr(other[0], table).get(other[1]) if other is not None else None
    return (other[0], found) if found is not None else None


def _typevar(index: ModuleIndex, name: str) -> bool:
    return (index.assigned_calls.get(name) or "").rpartition(".")[2] == "TypeVar"


def _binds_class(index: ModuleIndex, annotation: ast.expr, var: str, depth: int) -> bool:
    """Whether `annotation` holds `type[var]`, or a type alias given `var` whose definition holds a
    `type[T]` of a TypeVar of its own (`HintOrType[X]`, `InstOrType: TypeAlias = X | type[X]`)."""
    for node in walk(annotation):
        if not isinstance(node, ast.Subscript):
            continue
        head = dotted(node.value)
        if head in TYPE_OF:
            if isinstance(node.slice, ast.Name) and node.slice.id == var:
                return True
            continue
        if head and depth < MAX_ALIASES and any(isinstance(n, ast.Name) and n.id == var for n in walk(node.slice)):
            alias = _definition(index, head, "type_aliases")
            if alias is not None and _holds_type_of_typevar(alias[0], alias[1], depth + 1):
                return True
    return False


def _holds_type_of_typevar(index: ModuleIndex, value: ast.expr, depth: int) -> bool:
    """Whether a type alias's definition holds `type[T]` (T a TypeVar of its file), itself or
    through the aliases it names with T."""
    for node in walk(value):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and _typevar(index, node.slice.id):
            head = dotted(node.value)
            if head in TYPE_OF or head and _binds_class(index, node, node.slice.id, depth):
                return True
    return False
