"""The finding: what every rule produces and every front end consumes."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

SEVERITIES = ("error", "warning", "info", "hint")
CONFIDENCES = ("certain", "likely")
FIX_KINDS = ("predicate", "defer", "trap", "keep-tensor", "where", "list")

GB_DOC_URL = "https://meta-pytorch.github.io/compile-graph-break-site/gb/{}.html"


def gb_doc_url(gb_id: str) -> str:
    """Dynamo's registry page for a break id such as ``GB0170``."""
    return GB_DOC_URL.format(gb_id.lower())


@dataclass(frozen=True)
class Location:
    """A source range with a short label (entry point, call site, inner frame)."""

    path: str
    line: int  # 1-based
    col: int  # 0-based, in code points
    end_line: int
    end_col: int
    message: str = ""


@dataclass(frozen=True)
class Finding:
    """One likely (or confirmed) graph break.

    Lines are 1-based; columns are 0-based code-point offsets into the line
    (not UTF-8 bytes as in ``ast``, not UTF-16 as in LSP).
    """

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    code: str
    message: str
    severity: str = "warning"
    confidence: str = "certain"
    gb_ids: tuple[str, ...] = ()
    fix: str | None = None
    related: tuple[Location, ...] = ()
    fix_blocked: str | None = None  # why no safe fix exists, when the rule has a fix kind
    confirmed: bool | None = None  # None: static only; True: Dynamo broke here; False: not reached
    data: dict = field(default_factory=dict, compare=False, hash=False)

    def rewritable(self, unsafe: bool = False) -> bool:
        """Whether fix-all tries a rewrite for it: it has a fix kind and no reason blocks it (with
        ``unsafe``, a blocked one may still have an unsafe fix)."""
        return bool(self.fix) and (unsafe or not self.fix_blocked)

    def fixable(self, unsafe: bool = False) -> bool:
        """Whether a fix is offered for it: a safe one, or with ``unsafe`` (the `unsafe-fixes`
        setting or flag) an unsafe one too."""
        return bool(self.fix) and (not self.fix_blocked or unsafe and self.unsafe_fix)

    @property
    def unsafe_fix(self) -> bool:
        """Whether its fix is one fix-all applies only when unsafe fixes are asked for."""
        return bool(self.fix_blocked) and isinstance(self.data, dict) and bool(self.data.get("unsafe_fix"))

    def with_(self, **changes) -> "Finding":
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """The JSON shape of ``fullgraph check --format json``."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["gb_ids"] = list(self.gb_ids)
        out["related"] = [dict(vars(r)) for r in self.related]
        out["data"] = dict(self.data)  # its values are never changed in place, so a shallow copy is enough
        return out
