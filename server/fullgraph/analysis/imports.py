"""Import aliases: map local names to the qualified names they stand for."""

from __future__ import annotations

import ast

# Well-known spellings that work even without an import in view (e.g. `nn` and `F` in snippets).
CONVENTIONAL = {
    "torch": "torch",
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "np": "numpy",
}


def module_level(body: list[ast.stmt]):
    """Module-level statements, through `if`/`try` blocks (`if is_torch_available(): import torch`)."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from module_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from module_level(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body])


def imports_torch(body: list[ast.stmt]) -> bool:
    """Whether a module imports torch, or a name from it, at module level (also in a module-level
    `if`/`try`): a module that does not may be meant to run without torch."""
    for node in module_level(body):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "torch":
            return True
    return False


def dotted(node: ast.AST) -> str | None:
    """"a.b.c" for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))

class Aliases:
    """Local name -> qualified name, from the module's imports (any nesting level)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._modules: frozenset[str] | None = None  # top-level modules imported from, once asked

    def add_import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Record what an import statement binds."""
        self._modules = None
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.names[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    self.names[top] = top
            return
        if node.level or not node.module:
            return  # relative imports are the project's own code
        for a in node.names:
            if a.name != "*":
                self.names[a.asname or a.name] = f"{node.module}.{a.name}"

    def imports(self, module: str) -> bool:
        """Whether the module imports top-level `module` or a name from it (read once per import set:
        every function walk of the module asks)."""
        if self._modules is None:
            self._modules = frozenset(q.partition(".")[0] for q in self.names.values())
        return module in self._modules

    def resolve(self, node: ast.AST) -> str | None:
        """Qualified name of a Name/Attribute chain rooted at an imported name, else None."""
        spelling = dotted(node)
        return None if spelling is None else self.resolve_spelling(spelling)

    def resolve_spelling(self, spelling: str) -> str | None:
        """Qualified name of a dotted spelling (`nn.Linear`) rooted at an imported name, else None."""
        head, dot, rest = spelling.partition(".")
        base = self.names.get(head) or CONVENTIONAL.get(head)
        if base is None:
            return None
        return f"{base}{dot}{rest}"
