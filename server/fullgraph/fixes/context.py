"""What every rewrite needs: the source, its ``ast``, the torch alias and fresh names."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from fullgraph.fixes.conditions import Lowering
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.names import NameMaker, torch_alias, torch_import_edit
from fullgraph.fixes.source_comments import source_comments


@dataclass
class FixContext:
    """One source text under repair."""

    source: str
    tree: ast.Module
    taken: frozenset[str] | None = field(default=None, repr=False)  # the module's identifiers, when known
    names: NameMaker = field(init=False)
    torch: str = field(init=False)
    lowering: Lowering = field(init=False)

    def __post_init__(self):
        self.names = NameMaker(self.tree, self.taken)
        self.torch = torch_alias(self.tree) or "torch"
        self.lowering = Lowering(self.source, self.torch)

    def text(self, node: ast.AST) -> str:
        """Original source text of a node (parenthesized when it spans lines)."""
        return self.lowering.text(node)

    def make_fix(self, title: str, edit: TextEdit | None, kind: str, needs_torch: bool = True,
                 preferred: bool = True, unsafe: bool = False) -> list[Fix]:
        """A one-fix list (with ``import torch`` added when needed), or [] when there is no edit;
        ``preferred`` fixes are the ones fix-all applies, ``unsafe`` ones only when asked."""
        if edit is None:
            return []
        edits = [edit]
        extra = torch_import_edit(self.tree) if needs_torch else None
        if extra is not None:
            edits.insert(0, extra)
        return [Fix(title, tuple(edits), preferred=preferred, kind=kind, unsafe=unsafe)]

    def expression_edit(self, node: ast.expr, replacement: str) -> TextEdit | None:
        """An edit replacing one expression's exact source range; None if a comment sits inside it."""
        if source_comments(self.lowering.segment(node)) != []:
            return None
        positions = self.lowering.positions
        start = positions.position(positions.ast_offset(node.lineno, node.col_offset))
        end = positions.position(positions.ast_offset(node.end_lineno, node.end_col_offset))
        return TextEdit(*start, *end, replacement)
