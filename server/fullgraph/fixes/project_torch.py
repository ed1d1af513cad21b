"""What the torch the project runs offers the fixes, read from its files (never imported): the
first `torch` package on the project interpreter's path, else on this process's."""

from __future__ import annotations

import sys
from functools import lru_cache

from fullgraph.analysis.resolver import find_in


def bases(project=None) -> tuple[str, ...]:
    """The folders searched for `torch`, the project's interpreter's first."""
    return (*(tuple(project.resolver.bases) if project is not None else ()), *sys.path)


@lru_cache(maxsize=8)
def torch_folder(searched: tuple[str, ...]) -> str | None:
    """The folder holding the first `torch` package of ``searched``."""
    return next((base for base in searched if base and find_in(base, ["torch"])), None)


@lru_cache(maxsize=32)
def has_module(searched: tuple[str, ...], *parts: str) -> bool:
    """Whether that torch has the module ``torch.<parts>``."""
    folder = torch_folder(searched)
    return folder is not None and find_in(folder, ["torch", *parts]) is not None


@lru_cache(maxsize=32)
def mentions(searched: tuple[str, ...], parts: tuple[str, ...], text: str) -> bool:
    """Whether that torch's module ``torch.<parts>`` holds ``text``."""
    folder = torch_folder(searched)
    path = find_in(folder, ["torch", *parts]) if folder is not None else None
    try:
        with open(path, encoding="utf-8") as f:
            return text in f.read()
    except (OSError, TypeError, UnicodeDecodeError):
        return False
