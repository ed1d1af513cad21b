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


TRIPLES = ("'''", '"""')


def _comment(line: str) -> str:
    """The comment of a source line: from its first `#` outside a string literal ("" if none)."""
    start = comment_start(line)
    return "" if start is None else line[start:]


def comment_start(line: str) -> int | None:
    """Where the comment of a source line starts: its first `#` outside a string literal."""
    quote = None
    i = 0
    while i < len(line):
        char = line[i]
        if quote is not None:
            if char == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif char in "'\"":
            quote = line[i:i + 3] if line[i:i + 3] in TRIPLES else char
            i += len(quote) - 1
        elif char == "#":
            return i
        i += 1
    return None


def suppressed(line: str, code: str) -> bool:
    """True when `line` carries an ignore or noqa comment covering `code`.

    `# fullgraph: ignore[...]` takes code prefixes (`FG3`); `# noqa: ...` takes codes and
    `FG` prefixes, so another linter's `# noqa: E501` does not silence fullgraph.
    """
    if "#" not in line:
        return False
    line = _comment(line)
    if "fullgraph" in line:
        for match in _IGNORE.finditer(line):
            if match.group(1) is None or _covers(match.group(1), code, ""):
                return True
    for match in _NOQA.finditer(line):
        if match.group(1) is None or _covers(match.group(1), code, "FG"):
            return True
    return False


def silenced(line_of, line: int, end_line: int, end_col: int, code: str) -> bool:
    """Whether a finding on lines `line`..`end_line` is suppressed: by a comment on its first line,
    or after its end (`end_col`, in code points) on its last line, which may start inside a string.
    ``line_of(n)``: the text of line n."""
    return suppressed(line_of(line), code) or (end_line != line and suppressed(line_of(end_line)[end_col:], code))
