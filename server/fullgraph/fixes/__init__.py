"""Rewrites that remove graph breaks: predication, deferral, trap lowering, keep-tensor.

The public names are loaded lazily so that importing :mod:`fullgraph.fixes.preconditions`
(on the engine's keystroke path) never imports libcst.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "TextEdit": "fullgraph.fixes.edits",
    "Fix": "fullgraph.fixes.edits",
    "apply_edits": "fullgraph.fixes.edits",
    "fixes_for": "fullgraph.fixes.dispatch",
    "parse_for_fixes": "fullgraph.fixes.dispatch",
    "forget_trees": "fullgraph.fixes.sites",
    "suppression_fix": "fullgraph.fixes.suppression",
    "fix_all": "fullgraph.fixes.fixpoint",
    "FixAllResult": "fullgraph.fixes.fixpoint",
    "decline_reason": "fullgraph.fixes.preconditions",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'fullgraph.fixes' has no attribute {name!r}")
