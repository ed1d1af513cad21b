"""`walk` and `children`: `ast.walk` and `ast.iter_child_nodes` in the same order, without the
nodes that never hold code (expression contexts, read through `.ctx`, and operators, read through
`.op`/`.ops`), and about twice as fast: each node type's fields are looked up once
(`code_fields`, which the walker's visit uses too)."""

from __future__ import annotations

import ast
from collections import deque

_SKIPPED = frozenset(("ctx", "op", "ops", "type_comment", "type_params"))
_FIELDS: dict[type, tuple[str, ...]] = {}


def code_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node type that may hold code."""
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = tuple(name for name in cls._fields if name not in _SKIPPED)
    return fields


def children(node: ast.AST) -> list[ast.AST]:
    """The direct sub-nodes of `node`, in field order."""
    found = []
    for name in code_fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found.extend([item for item in value if isinstance(item, ast.AST)])
    return found


def decorator_target(dec: ast.expr) -> ast.expr:
    """What a decorator names: `deco` of `@deco` and of `@deco(...)`."""
    return dec.func if isinstance(dec, ast.Call) else dec


def class_bases(node: ast.ClassDef) -> list[ast.expr]:
    """The base classes of a class statement, a generic one's `Base[T, U]` as `Base`."""
    return [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]


def statements(node: ast.AST):
    """The statements under `node` (itself included when it is one), nested blocks too, without
    descending into expressions: `walk` for what only statements hold."""
    todo = deque((node,))
    while todo:
        node = todo.popleft()
        todo.extend([c for c in children(node) if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case))])
        if isinstance(node, ast.stmt):
            yield node


def walk(node: ast.AST):
    """`node` and every node under it, breadth first."""
    todo = deque((node,))
    while todo:
        node = todo.popleft()
        for name in _FIELDS.get(type(node)) or code_fields(type(node)):
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                todo.append(value)
            elif isinstance(value, list):
                todo.extend([item for item in value if isinstance(item, ast.AST)])
        yield node


def names_in(node: ast.AST) -> set[str]:
    """The plain names read or bound anywhere under `node`."""
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}


def same_code(a, b) -> bool:
    """Whether two trees (or lists or tuples of them) are the same code, positions aside, as
    `ast.dump(a) == ast.dump(b)` says, stopping at the first difference."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, ast.AST):
            todo.extend((getattr(x, name, None), getattr(y, name, None)) for name in x._fields)
        elif isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y))
        elif x != y:  # constants and names; a literal is never a NaN (`-0.0` is a unary minus)
            return False
    return True


def super_call(call: ast.Call) -> bool:
    """`super().<method>(...)`, as `super().__init__(...)` (`super` given no arguments)."""
    made = call.func.value if isinstance(call.func, ast.Attribute) else None
    return isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "super" and not made.args


def self_attribute(node: ast.AST | None) -> bool:
    """`self.<name>` (an attribute of a method's own object, or a method of it in a call)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
