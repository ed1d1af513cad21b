"""``fixes_for``: the quick fixes for one finding, computed on its enclosing function."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from fullgraph.analysis.parsing import parse_tree
from fullgraph.fixes.config_alternatives import config_fix
from fullgraph.fixes.context import FixContext
from fullgraph.fixes.deferral import SPLIT_TITLE, config_alternative, defer_call
from fullgraph.fixes.edits import Fix, with_line_ends
from fullgraph.fixes.flags import keep_and_predicate
from fullgraph.fixes.generator_list import reduce_list
from fullgraph.fixes.keep_tensor import flag_uses, keep_tensor, test_of
from fullgraph.fixes.mask_shapes import reduction_of
from fullgraph.fixes.masked_reduction import masked_reduction
from fullgraph.fixes.masked_store import masked_store
from fullgraph.fixes.names import ModuleNames, taken_names
from fullgraph.fixes.preconditions import (
    DEFER_CODES,
    decline_reason,
    placement_reason,
    torch_imported,
)
from fullgraph.fixes.predication import lower_boolean, predicate_if, predicate_ternary
from fullgraph.fixes.print_rewrite import print_operator_fix
from fullgraph.fixes.sites import finding_node
from fullgraph.fixes.store_deferral import defer_store
from fullgraph.fixes.stored_values import store_of
from fullgraph.fixes.trap import lower_trap
from fullgraph.text import to_lf


def parse(source: str | bytes) -> tuple[str, ast.Module] | None:
    """Decoded text and its ``ast``, or None for undecodable or invalid code."""
    try:
        text = source.decode("utf-8") if isinstance(source, bytes) else source
        return text, parse_tree(text)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None


@dataclass(frozen=True)
class Parsed:
    """One source text as every quick fix of it needs it (the rewrites only read the tree, so
    the fixes of several findings can share it)."""

    text: str
    tree: ast.Module
    taken: frozenset[str]


def parse_for_fixes(source: str | bytes, tree: ast.Module | None = None, names: ModuleNames | None = None) -> Parsed | None:
    """`source` parsed for :func:`fixes_for`, with its identifiers; None when it does not parse.
    ``tree``: the tree of ``source`` (a str) when the caller has it; ``names`` then finds its
    identifiers walking only the top-level statements it has not seen."""
    if tree is None:
        parsed = parse(source)
        if parsed is None:
            return None
        source, tree = parsed
    return Parsed(source, tree, names.of(tree) if names is not None else frozenset(taken_names(tree)))


def fixes_for(source: str | bytes, finding, parsed: Parsed | None = None) -> list[Fix]:
    """Fixes for ``finding`` (main fix first, alternatives after); [] when none is safe. Never raises.
    ``parsed``: ``parse_for_fixes(source)``, when the caller keeps it for several findings."""
    parsed = parsed or parse_for_fixes(source)
    if parsed is None:
        return []
    text = parsed.text
    fixes = guarded_fixes(FixContext(to_lf(text), parsed.tree, parsed.taken), finding)
    return [replace(f, edits=with_line_ends(f.edits, text)) for f in fixes] if "\r" in text else fixes


def guarded_fixes(ctx: FixContext, finding) -> list[Fix]:
    """Fixes for ``finding`` on an already parsed text; [] on any failure of a rewrite."""
    try:
        return _fixes(ctx, finding)
    except (RecursionError, ValueError, SyntaxError, KeyError, IndexError, AttributeError, TypeError):
        return []
    except Exception as exc:  # libcst parser errors and anything unforeseen must not reach the editor
        if type(exc).__module__.startswith("libcst"):
            return []
        raise


def _fixes(ctx: FixContext, finding) -> list[Fix]:
    if not torch_imported(ctx.tree) or placement_reason(ctx.tree, finding):  # (the first torch import; where it sits)
        return []
    return _rewrites(ctx, finding) + config_fix(ctx, finding)


def _rewrites(ctx: FixContext, finding) -> list[Fix]:
    node = finding_node(ctx.tree, finding)
    if node is None:
        return []
    code = finding.code
    if code in DEFER_CODES and isinstance(node, ast.Call):  # the config line needs no rewrite
        deferred = defer_call(ctx, node, finding) if finding.fix else []
        split = any(f.title == SPLIT_TITLE for f in deferred)  # in the graph, the `if` around it would still break
        in_graph = print_operator_fix(ctx, node, finding) if code == "FG301" and not split else []
        offered = sorted([*in_graph, *deferred], key=lambda f: not f.preferred)  # the safe ones first, in order
        return offered + config_alternative(ctx, node, finding)
    if bool(finding.fix) and decline_reason(ctx.tree, finding) is not None:
        return []
    if code == "FG101" and isinstance(node, ast.If):
        return predicate_if(ctx, node)
    if code == "FG103" and isinstance(node, ast.IfExp):
        return predicate_ternary(ctx, node)
    if code == "FG105" and isinstance(node, (ast.BoolOp, ast.UnaryOp)):
        return lower_boolean(ctx, node)
    if code in ("FG201", "FG204", "FG105") and isinstance(node, ast.Call):
        return _scalar(ctx, node, finding)
    if code in ("FG104", "FG107"):
        return lower_trap(ctx, node, finding)
    if code == "FG422":
        return reduce_list(ctx, node)
    if code == "FG453":
        return masked_reduction(ctx, node, finding) if reduction_of(ctx.tree, node) else masked_store(ctx, node, finding)
    return []


def _scalar(ctx: FixContext, call: ast.Call, finding) -> list[Fix]:
    """A conversion in an ``if`` (predicate it), an ``assert`` (lower it), a flag (keep the tensor and
    predicate its ``if``s), a value stored on the module (defer the store) or tensor arithmetic (keep
    the tensor)."""
    holder = test_of(ctx.tree, call)
    if isinstance(holder, ast.If):
        return predicate_if(ctx, holder)
    if isinstance(holder, ast.Assert):
        return lower_trap(ctx, holder, finding)
    if decline_reason(ctx.tree, finding) is not None:
        return []
    flag = flag_uses(ctx.tree, call)
    if flag is not None:
        return keep_and_predicate(ctx, call, flag[1])
    stored = store_of(ctx.tree, call) if finding.code != "FG105" else None
    if stored is not None:
        return defer_store(ctx, call, finding, stored)
    return keep_tensor(ctx, call) if finding.code != "FG105" else []
