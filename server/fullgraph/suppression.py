"""Suppression comments: `# fullgraph: ignore[FG101,FG3]`, and `# noqa: FG101` / bare `# noqa` as in every linter."""

from __future__ import annotations

import re

_IGNORE = re.compile(r"#\s*fullgraph:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa(?::\s*([A-Z]+[0-9]*(?:\s*,\s*[A-Z]+[0-9]*|\s+[A-Z]+[0-9]+)*))?", re.IGNORECASE)


def _covers(listed: str, code: str, prefixes_of: str) -> bool:
    """Whether a comma/space separated code list names `code` (or a prefix of it starting with `prefixes_of`)."""
    for item in re.split(r"[\s,]+", listed.strip().upper()):
        if item and (item == code or (item.startswith(prefixes_of) and code.startswith(item))):
            return True
    return False


def suppressed(line: str, code: str) -> bool:
    """True when `line` carries an ignore or noqa comment covering `code`.

    `# fullgraph: ignore[...]` takes code prefixes (`FG3`); `# noqa: ...` takes codes and
    `FG` prefixes, so another linter's `# noqa: E501` does not silence fullgraph.
    """
    if "#" not in line:
        return False
    if "fullgraph" in line:
        for match in _IGNORE.finditer(line):
            if match.group(1) is None or _covers(match.group(1), code, ""):
                return True
    for match in _NOQA.finditer(line):
        if match.group(1) is None or _covers(match.group(1), code, "FG"):
            return True
    return False
