"""The comments in a piece of source text, read by the tokenizer (a `#` inside a string is not one)."""

from __future__ import annotations

import io
import tokenize


def source_comments(text: str) -> list[str] | None:
    """The comments of ``text`` in order; None when it does not tokenize (so may hold any)."""
    if "#" not in text:
        return []
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(text + "\n").readline)
                if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return None
