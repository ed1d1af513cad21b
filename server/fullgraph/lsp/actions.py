"""Quick fixes, the suppression action and fix-all (source action, resolve and command)."""

from __future__ import annotations

from contextlib import nullcontext

from lsprotocol import types

from fullgraph import fixes  # its names import libcst on first use
from fullgraph.analysis.incremental import ParseCache
from fullgraph.fixes.config_alternatives import has_alternatives
from fullgraph.fixes.edits import minimal_edit
from fullgraph.fixes.names import ModuleNames
from fullgraph.lsp.convert import (
    SOURCE,
    to_text_edits,
    versioned_edit,
)
from fullgraph.lsp.documents import SYNTAX_ERROR
from fullgraph.lsp.positions import Encoder
from fullgraph.text import split_lines

FIX_ALL_KIND = "source.fixAll.fullgraph"
FIX_ALL_TITLE = "fullgraph: Fix all likely graph breaks"
APPLY_FIX_ALL = "fullgraph.applyFixAll"
_parses: dict[str, tuple] = {}  # uri -> (version, source, parse): the editor asks diagnostic by diagnostic
_names: dict[str, ModuleNames] = {}  # uri -> the identifiers of its versions' statements


def _parse_of(uri: str, version: int | None, source: str, cache: ParseCache | None):
    """The parse the quick fixes of this version of `uri` share: the analysis's tree when ``cache``
    (held locked) has it, else parsed on the first request."""
    known = _parses.get(uri)
    if known is not None and known[0] == version and known[1] is source:
        return known[2]
    tree = cache.tree_of(source) if cache is not None else None
    parsed = fixes.parse_for_fixes(source, tree, _names.setdefault(uri, ModuleNames()) if tree else None)
    _parses[uri] = (version, source, parsed)
    return parsed


def forget(uri: str) -> None:
    """Drop the quick fixes' parse of `uri` (it changed or closed), and what the fix checks kept of it."""
    if _parses.pop(uri, None) is not None:
        fixes.forget_trees()


def closed(uri: str) -> None:
    """Drop all that the quick fixes keep of `uri`."""
    forget(uri)
    _names.pop(uri, None)


def _finding_of(diag: types.Diagnostic, version: int | None, known, enc: Encoder):
    """The finding of this version behind one of our diagnostics: the one with its code and range
    (None for another tool's diagnostic, or one published for another version; one another
    document's analysis placed here has none, and ``known`` holds such findings only when they
    were placed on this very text)."""
    data = diag.data if isinstance(diag.data, dict) else {}
    if diag.source not in (SOURCE, None) or data.get("version", version) not in (version, None):
        return None
    code = None if diag.code is None else str(diag.code)
    return next((f for f in known if (code is None or f.code == code)
                 and enc.range(f.line, f.col, f.end_line, f.end_col) == diag.range), None)


def fixes_of(uri: str, version: int | None, source: str, cache: ParseCache | None, finding) -> list:
    """The fixes of one finding of this version of `uri`, on the parse its quick fixes share;
    ``cache``: the document's parse cache, whose tree is used when it is this version's."""
    with cache.lock if cache is not None else nullcontext():  # the next analysis moves its tree's nodes
        return fixes.fixes_for(source, finding, _parse_of(uri, version, source, cache))


def _suppression_of(source: str, cache: ParseCache | None, finding):
    """The "disable for this line" fix of one finding, on the analysis's tree of this version when
    the cache has it (no edit where no line of the finding can carry the comment, or one already
    silences it)."""
    with cache.lock if cache is not None else nullcontext():
        return fixes.suppression_fix(source, finding, cache.tree_of(source) if cache is not None else None)


def quick_fixes(uri: str, version: int | None, source: str, diagnostics: list[types.Diagnostic],
                encoding: str, known=(), cache: ParseCache | None = None, unsafe: bool = False) -> list[types.CodeAction]:
    """Actions for our diagnostics computed on this very version (runs in a worker thread).

    ``known`` are the findings of this version; ``cache`` the document's parse cache; ``unsafe``
    (the `unsafe-fixes` setting): also offer the fixes of findings whose fix is unsafe, marked so
    and never preferred.
    """
    enc = Encoder(split_lines(source), encoding)
    actions = []
    for diag in diagnostics:
        finding = _finding_of(diag, version, known, enc)
        if finding is None or finding.code == SYNTAX_ERROR:
            continue
        risky = unsafe and finding.unsafe_fix
        found = fixes_of(uri, version, source, cache, finding) \
            if finding.fixable(unsafe) or has_alternatives(finding.code) else []
        suppress = _suppression_of(source, cache, finding)
        for fix, title in [*((f, f"{f.title} (unsafe)" if risky or f.unsafe else f.title) for f in found),
                           *(((suppress, "disable for this line"),) if suppress.edits else ())]:
            actions.append(types.CodeAction(
                title=f"{SOURCE} ({finding.code}): {title}", kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                is_preferred=bool(fix.preferred and not risky) or None,
                edit=versioned_edit(uri, version, to_text_edits(fix.edits, enc))))
    return actions


def rewrite_edit(uri: str, version: int | None, source: str, new_source: str, encoding: str) -> types.WorkspaceEdit | None:
    """``source`` → ``new_source`` as one minimal versioned edit, or None when they are equal."""
    edit = minimal_edit(source, 0, len(source), new_source)
    return versioned_edit(uri, version, to_text_edits([edit], Encoder(split_lines(source), encoding))) if edit else None


def fix_all_edit(uri: str, version: int | None, source: str, path: str, config, encoding: str,
                 project=None, known=None) -> types.WorkspaceEdit | None:
    """The file's fix-all as one minimal edit, or None when nothing changes (worker thread); with
    the project index as the diagnostics use it (read-only: it never waits for the index), and
    ``known``, the findings of this very text when the caller has them."""
    with project.readonly() if project is not None else nullcontext():
        fixed = fixes.fix_all(source, path, config, project, unsafe=config.unsafe_fixes, findings=known).source
    return rewrite_edit(uri, version, source, fixed, encoding)


def fix_all_action(uri: str, version: int | None, edit: types.WorkspaceEdit | None, lazy: bool) -> types.CodeAction:
    """The ``source.fixAll.fullgraph`` action; ``lazy`` leaves the edit to codeAction/resolve."""
    return types.CodeAction(
        title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, edit=None if lazy else edit,
        data={"uri": uri, "version": version, "fixAll": True} if lazy else None)


def wants(only: list[str] | None, kind: str) -> bool:
    """Whether a request's ``context.only`` admits actions of ``kind``."""
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


def has_fixable(findings, unsafe: bool = False) -> bool:
    """Whether fix-all can possibly change anything (``unsafe``: applying the unsafe fixes too)."""
    return any(f.fixable(unsafe) for f in findings)
