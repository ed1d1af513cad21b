"""Import resolution to source files, without importing or running anything.

Order (as pyright does for code, minus stubs): a relative import is resolved from the importing
file's folder; an absolute one in the workspace roots (and their `src/` folder), then in the
target interpreter's `sys.path`, site-packages included. The first folder that holds the whole
dotted name wins; a folder without `__init__.py` is a namespace package and the search goes on.
"""

from __future__ import annotations

import os
import sys

# Top-level modules whose names the analysis knows by heart: never read from disk.
KNOWN_ROOTS = frozenset(("torch", "numpy", "typing", "typing_extensions", "builtins", "__future__"))


def is_known(module: str) -> bool:
    """True for torch, numpy and the standard library (resolved by name, not by reading them)."""
    top = module.split(".")[0]
    return top in KNOWN_ROOTS or top in sys.stdlib_module_names


class Resolver:
    """Dotted module names to files: `module_file("a.b")`, `relative_file(path, 2, "c")`."""

    def __init__(self, roots: tuple[str, ...], search_paths: tuple[str, ...]) -> None:
        bases: dict[str, None] = {}
        for root in roots:
            bases.setdefault(root, None)
            src = os.path.join(root, "src")
            if os.path.isdir(src):
                bases.setdefault(src, None)
        for p in search_paths:
            bases.setdefault(p, None)
        self.bases = tuple(bases)
        self._memo: dict[str, str | None] = {}
        self._relative: dict[tuple[str, int, str], str | None] = {}

    def module_file(self, name: str) -> str | None:
        """The `.py` file (or package `__init__.py`) of an absolute module name; None when not
        found or when it is torch/numpy/the standard library."""
        if not name or is_known(name):
            return None
        if name not in self._memo:
            parts = name.split(".")
            self._memo[name] = next((f for f in (find_in(b, parts) for b in self.bases) if f), None)
        return self._memo[name]

    def clear(self) -> None:
        """Forget resolved names (after a file was created or deleted)."""
        self._memo.clear()
        self._relative.clear()

    def relative_file(self, from_path: str, level: int, module: str) -> str | None:
        """The file of `from .{level dots}module import ...` written in `from_path`."""
        base = os.path.dirname(os.path.abspath(from_path))
        key = (base, level, module)
        if key not in self._relative:
            for _ in range(level - 1):
                base = os.path.dirname(base)
            self._relative[key] = find_in(base, module.split(".") if module else [])
        return self._relative[key]


def find_in(base: str, parts: list[str]) -> str | None:
    """`base/a/b.py` or `base/a/b/__init__.py` for parts ["a", "b"] (None when absent)."""
    folder = os.path.join(base, *parts)
    init = os.path.join(folder, "__init__.py")
    if os.path.isfile(init):
        return init
    if parts:
        module = folder + ".py"
        if os.path.isfile(module):
            return module
    return None


def package_folder(path: str) -> str | None:
    """The folder of a package's `__init__.py` (where its submodules live), else None."""
    return os.path.dirname(path) if os.path.basename(path) == "__init__.py" else None
