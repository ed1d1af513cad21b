"""`ast.parse` for a process that parses in several threads (the language server)."""

from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse_tree(source: str | bytes, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """`ast.parse`, one thread at a time: CPython 3.11 counts the depth of the tree it builds in
    state that every thread shares, so a thread switch inside a parse (a collection running
    finalizers) can make another thread's parse fail with "SystemError: AST constructor
    recursion depth mismatch" (python/cpython#106905)."""
    with _LOCK:
        return ast.parse(source, filename=filename, mode=mode)
