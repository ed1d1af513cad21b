"""One finding per user line and rule for the breaks a call reaches in library code: the surest
break is named, and the other library lines of that rule the call reaches are counted in the
message and listed in the related information."""

from __future__ import annotations

from fullgraph.findings import Finding

NAMED = 3  # other library lines the message names; the related information lists up to RELATED
RELATED = 20


def library_summary(found: list[tuple[tuple, Finding]]) -> Finding:
    """The finding of the lowest rank (the first of equals) among (rank, finding) pairs of one user
    line and rule, telling of the other library lines among them."""
    best = min(found, key=lambda pair: pair[0])[1]
    others: dict[str, Finding] = {}
    for _, finding in found:
        where = finding.data["library"]
        if where != best.data["library"]:
            others.setdefault(where, finding)
    if not others:
        return best
    names = list(others)
    listed = ", ".join(f"`{w}`" for w in names[:NAMED]) + (", ..." if len(names) > NAMED else "")
    kind = "break" if len(names) == 1 else "breaks"
    message = f"{best.message}; the call reaches {len(names)} more library {kind} of this kind ({listed})"
    related = best.related + tuple(f.related[0] for f in list(others.values())[:RELATED] if f.related)
    return best.with_(message=message, related=related,
                      data={**best.data, "library_lines": [best.data["library"], *names]})
