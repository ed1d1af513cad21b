"""Readable, unique temporary names and the module's ``torch`` alias."""

from __future__ import annotations

import ast
import re

from fullgraph.analysis.imports import module_level
from fullgraph.analysis.nodes import walk
from fullgraph.fixes.edits import TextEdit


def taken_names(tree: ast.AST) -> set[str]:
    """Every identifier the module uses (names, parameters, attributes, functions)."""
    names: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


class ModuleNames:
    """`taken_names` of successive versions of one module whose unchanged top-level statements
    are the same nodes (the language server's incremental parse): each statement is walked once."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[ast.stmt, frozenset[str]]] = {}

    def of(self, tree: ast.Module) -> frozenset[str]:
        known = {}
        for stmt in tree.body:
            hit = self._known.get(id(stmt))
            known[id(stmt)] = hit if hit is not None and hit[0] is stmt else (stmt, frozenset(taken_names(stmt)))
        self._known = known
        return frozenset().union(*(names for _, names in known.values()))


class NameMaker:
    """Hands out identifiers that collide with nothing in the module nor with each other."""

    def __init__(self, tree: ast.AST, taken: frozenset[str] | None = None):
        self.taken = set(taken) if taken is not None else taken_names(tree)

    def fresh(self, base: str) -> str:
        base = re.sub(r"\W+", "_", base).strip("_") or "tmp"
        if base[0].isdigit():
            base = "v_" + base
        name, n = base, 2
        while name in self.taken:
            name, n = f"{base}_{n}", n + 1
        self.taken.add(name)
        return name


def torch_alias(tree: ast.Module) -> str | None:
    """The module-level name bound to ``torch`` (``torch``, or ``th`` for ``import torch as th``),
    also by an import inside a module-level `if`/`try`."""
    for node in module_level(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch" and alias.asname:
                    return alias.asname
                if alias.asname is None and (alias.name == "torch" or alias.name.startswith("torch.")):
                    return "torch"
    return None


def import_line(tree: ast.Module) -> int:
    """1-based line before which a new top-level import goes (after docstring, ``__future__`` and imports)."""
    line = 1
    for i, node in enumerate(tree.body):
        is_doc = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        if is_doc or isinstance(node, (ast.Import, ast.ImportFrom)):
            line = node.end_lineno + 1
        else:
            break
    return line


def torch_import_edit(tree: ast.Module) -> TextEdit | None:
    """An edit adding ``import torch`` when the module does not bind ``torch``."""
    if torch_alias(tree) is not None:
        return None
    line = import_line(tree)
    return TextEdit(line, 0, line, 0, "import torch\n")
