"""Carry every comment of replaced code over to its replacement."""

from __future__ import annotations

from collections import Counter

import libcst as cst


def comments_in(node: cst.CSTNode | list) -> Counter:
    """Comment texts under a node (or nodes), with multiplicity."""
    found: Counter = Counter()

    class Visitor(cst.CSTVisitor):
        def visit_Comment(self, comment: cst.Comment) -> None:
            found[comment.value] += 1

    for item in node if isinstance(node, list) else [node]:
        item.visit(Visitor())
    return found


def carry_comments(old: list[cst.CSTNode], new: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """``new`` with the first statement taking the leading lines of ``old[0]`` plus every comment of ``old`` it lacks."""
    if not new:
        return new
    new = _keep_header_comment(old[0], new)
    missing = comments_in(old) - comments_in(new)
    leading = list(getattr(old[0], "leading_lines", ()))
    leading_texts = Counter(line.comment.value for line in leading if line.comment is not None)
    missing -= leading_texts
    extra = [cst.EmptyLine(indent=True, comment=cst.Comment(text))
             for text in _ordered(old, missing)]
    first = new[0].with_changes(leading_lines=[*leading, *extra, *new[0].leading_lines])
    return [first, *new[1:]]


def _header_comment(node: cst.CSTNode) -> cst.Comment | None:
    """The comment ending the first line of a statement (``if c:  # here`` or ``x = 1  # here``)."""
    if isinstance(node, cst.SimpleStatementLine):
        return node.trailing_whitespace.comment
    body = getattr(node, "body", None)
    header = getattr(body, "header", None)
    return getattr(header, "comment", None)


def _keep_header_comment(old: cst.CSTNode, new: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Keep a first-line comment (often ``# fullgraph: ignore[...]``) at the end of the new first line."""
    comment = _header_comment(old)
    first = new[0]
    if comment is None or comment.value in comments_in(new) or not isinstance(first, cst.SimpleStatementLine) or first.trailing_whitespace.comment:
        return new
    trailing = first.trailing_whitespace.with_changes(whitespace=cst.SimpleWhitespace("  "), comment=comment)
    return [first.with_changes(trailing_whitespace=trailing), *new[1:]]


def _ordered(old: list[cst.CSTNode], wanted: Counter) -> list[str]:
    """Texts of ``wanted`` in their order of appearance in ``old``."""
    order: list[str] = []
    remaining = Counter(wanted)

    class Visitor(cst.CSTVisitor):
        def visit_Comment(self, comment: cst.Comment) -> None:
            if remaining[comment.value] > 0:
                remaining[comment.value] -= 1
                order.append(comment.value)

    for item in old:
        item.visit(Visitor())
    return order
