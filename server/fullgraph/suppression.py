"""`# fullgraph: ignore` and `# fullgraph: ignore[FG101,FG3]` comments."""

from __future__ import annotations

import re

_IGNORE = re.compile(r"#\s*fullgraph:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)


def suppressed(line: str, code: str) -> bool:
    """True when `line` carries an ignore comment covering `code` (codes are prefixes)."""
    if "fullgraph" not in line:
        return False
    for match in _IGNORE.finditer(line):
        listed = match.group(1)
        if listed is None:
            return True
        if any(code.startswith(c.strip().upper()) for c in listed.split(",") if c.strip()):
            return True
    return False
