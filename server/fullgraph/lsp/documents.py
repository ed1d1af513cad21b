"""What the server knows about one open document: its text, the last analysis and the last good one."""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.walk_cache import WalkCache
from fullgraph.findings import Finding, Location
from fullgraph.text import Text, col_from_units, common_ends, split_lines_keepends

SYNTAX_ERROR = "FG000"


class Document(TextDocument):
    """An open document whose lines and incremental edits follow `fullgraph.text` (CR, LF, CRLF),
    as the client's do: pygls splits with ``str.splitlines``, which also breaks at form feeds,
    U+2028 and other separators, so its copy drifted from the editor's."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(split_lines_keepends(self.source))

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        source = self.source
        positions = Text(source)
        encoding = self.position_codec.encoding or types.PositionEncodingKind.Utf16
        start, end = sorted(_offset(positions, p, encoding) for p in (change.range.start, change.range.end))
        self._source = source[:start] + change.text + source[end:]


def _offset(positions: Text, position: types.Position, encoding: str) -> int:
    """String offset of a client position (clamped to the text, as clients expect)."""
    line = position.line + 1
    return positions.offset(line, col_from_units(positions.line(line), position.character, encoding))


class DocumentStore(Workspace):
    """pygls' workspace holding :class:`Document` objects."""

    @classmethod
    def like(cls, workspace: Workspace) -> "DocumentStore":
        """A store with ``workspace``'s root, folders, sync kind and position encoding (no documents yet)."""
        return cls(workspace.root_uri, workspace._sync_kind, list(workspace.folders.values()),
                   workspace.position_encoding)

    def _create_text_document(self, doc_uri: str, source: str | None = None, version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return Document(doc_uri, source=source, version=version, language_id=language_id,
                        sync_kind=self._sync_kind, position_codec=self._position_codec)


@dataclass
class Analysis:
    """Findings of one text snapshot, with their diagnostics in the client's encoding."""

    version: int | None
    source: str
    lines: list[str]
    findings: list[Finding]
    entries: list[Location]
    diagnostics: list[types.Diagnostic]
    index_use: object = None  # what the analysis used and lacked of the project index (ProjectIndex.readonly)
    elsewhere: list[Finding] = field(default_factory=list)  # what it found in other workspace files

    @property
    def broken(self) -> bool:
        """True when the snapshot did not parse (an FG000 finding)."""
        return any(f.code == SYNTAX_ERROR for f in self.findings)


@dataclass
class DocumentState:
    """Per-URI state; ``current`` is what was last published, ``good`` the last parseable one."""

    uri: str
    current: Analysis | None = None
    good: Analysis | None = None
    task: object = None  # the pending asyncio task (debounce + analysis)
    result_id: int = 0  # bumped when the published diagnostics change (pull clients' "unchanged")
    published: list | None = None  # the diagnostics last published
    parse_cache: ParseCache = field(default_factory=ParseCache)  # dropped with the state on close
    walk_cache: WalkCache = field(default_factory=WalkCache)  # walks reused across edits, used under parse_cache.lock


def _unchanged_shift(old: list[str], new: list[str]):
    """Map a 1-based old line to its new line when its text is unchanged (None otherwise)."""
    prefix, suffix = common_ends(old, new)
    middle_old, middle_new = old[prefix:len(old) - suffix], new[prefix:len(new) - suffix]
    moved: dict[int, int] = {}
    for block in SequenceMatcher(None, middle_old, middle_new).get_matching_blocks():
        for i in range(block.size):
            moved[prefix + block.a + i + 1] = prefix + block.b + i + 1
    delta = len(new) - len(old)

    def shift(line: int) -> int | None:
        if line <= prefix:
            return line
        if line > len(old) - suffix:
            return line + delta
        return moved.get(line)

    return shift


def _moved(item, shift):
    start, end = shift(item.line), shift(item.end_line)
    if start is None or end is None or end - start != item.end_line - item.line:
        return None
    return item if start == item.line else _relocate(item, start, end)


def _relocate(item, start: int, end: int):
    if isinstance(item, Finding):
        return item.with_(line=start, end_line=end)
    return Location(item.path, start, item.col, end, item.end_col, item.message)


def carry_over(good: Analysis, lines: list[str], findings: list[Finding]) -> tuple[list[Finding], list[Location]]:
    """Syntax-error findings plus the last good findings and entries whose text is unchanged."""
    shift = _unchanged_shift(good.lines, lines)
    kept = [m for f in good.findings if (m := _moved(f, shift)) is not None]
    entries = [m for e in good.entries if (m := _moved(e, shift)) is not None]
    errors = [f for f in findings if f.code == SYNTAX_ERROR]
    return sorted(errors + kept, key=lambda f: (f.line, f.col, f.code)), entries
