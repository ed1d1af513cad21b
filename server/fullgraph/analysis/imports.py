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


class Aliases:
    """Local name -> qualified name, from the module's imports (any nesting level)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def add_import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Record what an import statement binds."""
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

    def resolve(self, node: ast.AST) -> str | None:
        """Qualified name of a Name/Attribute chain rooted at an imported name, else None."""
        attrs = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.names.get(node.id) or CONVENTIONAL.get(node.id)
        if base is None:
            return None
        return ".".join([base, *reversed(attrs)]) if attrs else base
