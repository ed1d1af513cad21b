"""Where a name comes from through a wide fan of star imports, read from the files' text.

A lazy package (transformers) re-exports thousands of names with `if TYPE_CHECKING: from .models
import *`, whose `__init__.py` star-imports hundreds of packages, each star-importing its modules.
Summarising them all to find one name would parse every model file; instead the modules are read,
not parsed, for the names they bind at top level (class, def, assignment, import), filtered by
their `__all__` when it is a literal, and only the module that binds the name is summarised then.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable

MAX_FILES = 4096  # modules read for one directory

_STAR = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\*", re.M)
_DEFINED = re.compile(r"^(?:class|def|async[ \t]+def)[ \t]+(\w+)|^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)", re.M)
_IMPORTED = re.compile(r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+)?import[ \t]+([\w \t,.]+?)[ \t]*(?:#.*)?$", re.M)
_IMPORTED_LIST = re.compile(r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+)?import[ \t]*\(([^)]*)\)", re.M)  # over lines
_COMMENT = re.compile(r"#[^\n]*")
_ALL = re.compile(r"^__all__[ \t]*=[ \t]*[\[(]([^\])]*)[\])]", re.M)
_QUOTED = re.compile(r"""["'](\w+)["']""")


def star_directory(path: str, read: Callable[[str], str | None],
                   module_file: Callable[[str, str, int], str | None]) -> dict[str, str]:
    """Name -> the file binding it, among the modules `path` star-imports and theirs in turn
    (breadth first: the first module binding a name wins), at most MAX_FILES of them. `read` gives a
    file's text (None: unreadable), `module_file(module, from_path, level)` the file of an import."""
    found: dict[str, str] = {}
    seen = {path}
    todo = deque(_stars(path, read(path) or "", module_file))
    while todo and len(seen) < MAX_FILES:
        file = todo.popleft()
        if file in seen:
            continue
        seen.add(file)
        text = read(file)
        if text is None:
            continue
        for name in bound_names(text):
            found.setdefault(name, file)
        todo.extend(_stars(file, text, module_file))
    return found


def bound_names(text: str) -> set[str]:
    """The public names a module's text binds at top level, within its `__all__` when a literal."""
    names = {a or b for a, b in _DEFINED.findall(text)}
    for group in [*_IMPORTED.findall(text), *(_COMMENT.sub("", g) for g in _IMPORTED_LIST.findall(text))]:
        for part in group.replace("\n", ",").split(","):
            words = part.split()
            if words:
                names.add(words[-1].partition(".")[0] if len(words) == 1 else words[-1])
    declared = _ALL.search(text)
    if declared is not None:
        names &= set(_QUOTED.findall(declared.group(1)))
    return {n for n in names if not n.startswith("_") and n.isidentifier()}


def _stars(path: str, text: str, module_file: Callable[[str, str, int], str | None]) -> list[str]:
    """The files `text` (of `path`) star-imports, in order."""
    files = []
    for dots, module in _STAR.findall(text):
        file = module_file(module, path, len(dots))
        if file is not None:
            files.append(file)
    return files
