"""Small helpers for the text the front ends print."""


def counted(n: int, noun: str) -> str:
    """``1 finding``, ``2 findings``: a count with its noun in the right number."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
