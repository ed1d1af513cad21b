"""Diagnostics end to end: exact ranges, encodings, syntax errors while typing, bursts, pull."""

from __future__ import annotations

import asyncio
import random

from lsprotocol import types

from lsp_session import summary
from lsp_texts import MODEL, WIDE



def _units(text: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode())
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le")) // 2


async def test_open_gives_expected_diagnostics(session):
    uri = session.open("model.py", MODEL)
    diags = await session.diagnostics(uri)
    assert summary(diags) == [("FG101", 6, 4, 6, 18), ("FG301", 5, 4, 5, 26)]
    for d in diags:
        assert d.source == "fullgraph"
        assert d.code_description.href.endswith(f"{d.code}.md")
        assert d.severity == types.DiagnosticSeverity.Warning
        assert d.data["finding"]["code"] == d.code and d.data["version"] == 1
        assert set(d.data["finding"]) == {"code", "fix", "fix_blocked"}  # quick fixes look the rest up
    by_code = {d.code: d for d in diags}
    assert by_code["FG101"].message == "`if` branches on tensor value `x.sum() > 0`"  # short: no URL, no ids


async def test_ranges_follow_the_negotiated_encoding_after_emoji_and_cjk(session):
    uri = session.open("wide.py", WIDE)
    diags = await session.diagnostics(uri)
    line = WIDE.splitlines()[5]
    start = line.index("x.item()")
    item = [d for d in diags if d.code == "FG201"]
    assert len(item) == 1
    assert item[0].range.start == types.Position(line=5, character=_units(line[:start], session.encoding))
    assert item[0].range.end == types.Position(line=5, character=_units(line[:start + 8], session.encoding))
    assert item[0].range.start.character != start  # wide characters count for more than one unit


async def test_syntax_error_while_typing_keeps_last_good_findings(session):
    uri = session.open("model.py", MODEL)
    good = summary(await session.diagnostics(uri))
    # Type an unfinished call after the last line: the file no longer parses.
    end = len(MODEL.splitlines())
    session.change(uri, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=end, character=0), end=types.Position(line=end, character=0)),
        text="y = foo(\n")])
    broken = await session.diagnostics(uri)
    assert [d.code for d in broken].count("FG000") == 1
    assert summary([d for d in broken if d.code != "FG000"]) == good
    error = next(d for d in broken if d.code == "FG000")
    assert error.range.start.line >= end - 1
    # Breaking a flagged line drops that line's old finding but keeps the other one.
    session.change(uri, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=5, character=25), end=types.Position(line=5, character=26)),
        text="")])
    again = await session.diagnostics(uri)
    assert {d.code for d in again} == {"FG000", "FG101"}


async def test_burst_of_200_changes_ends_with_the_final_texts_diagnostics(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    rng = random.Random(4)
    lines = MODEL.splitlines()
    for _ in range(200):  # insert or delete single characters anywhere in the body
        line = rng.randrange(4, len(lines))
        text = session.docs[uri].lines[line].rstrip("\n")
        col = rng.randrange(0, len(text) + 1)
        if text and rng.random() < 0.5:
            col = min(col, len(text) - 1)
            change = types.TextDocumentContentChangePartial(range=types.Range(
                start=types.Position(line=line, character=col), end=types.Position(line=line, character=col + 1)), text="")
        else:
            change = types.TextDocumentContentChangePartial(range=types.Range(
                start=types.Position(line=line, character=col), end=types.Position(line=line, character=col)),
                text=rng.choice(["x", " ", "(", ")", ":", "1"]))
        session.change(uri, [change])
    final = session.version(uri)
    assert final == 201
    burst = await session.diagnostics(uri, final, settle=0.5)
    assert [p.version for p in session.published if p.uri == uri][-1] == final
    fresh_uri = session.open("fresh.py", session.text(uri))
    fresh = await session.diagnostics(fresh_uri)
    assert [(d.code, d.range, d.message) for d in burst] == [(d.code, d.range, d.message) for d in fresh]
    assert len([p for p in session.published if p.uri == uri]) < 100  # debounced, not one per keystroke


async def test_pull_diagnostics_when_the_client_supports_them(session):
    uri = session.open("model.py", MODEL)
    pushed = await session.diagnostics(uri)
    caps = session.server_capabilities
    if session.client_capabilities.text_document.diagnostic is None:
        assert caps.diagnostic_provider is None
        return
    report = await session.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert summary(report.items) == summary(pushed)
    same = await session.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id))
    assert same.kind == "unchanged"


async def test_bad_input_never_stops_the_server(session):
    nested = "def f(x):\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(120)) + "    " * 121 + "pass\n"
    huge = MODEL + "".join(f"def g{i}(x):\n    return x + {i}\n" for i in range(5000))
    texts = {"nested.py": nested, "huge.py": huge, "junk.py": "\x00\ufffd)]}\n\tdef (:\n" * 50,
             "partial.py": "class A(:\n    def", "empty.py": ""}
    logged = len(session.client.log_messages)
    uris = {name: session.open(name, text) for name, text in texts.items()}
    for uri in uris.values():
        await session.diagnostics(uri)
    assert [d.code for d in await session.diagnostics(uris["partial.py"])] == ["FG000"]
    hover = await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uris["huge.py"]), position=types.Position(line=6, character=8)))
    assert hover is not None and "FG101" in hover.contents.value
    assert not [m for m in session.client.log_messages[logged:] if m.type == types.MessageType.Error]


async def test_hover_shows_the_rule_and_a_fix_preview(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    hover = await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=6, character=9)))
    text = hover.contents.value
    assert "FG101" in text and "```diff" in text and "torch." in text
    assert hover.range.start == types.Position(line=6, character=4)
    nothing = await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2)))
    assert nothing is None


async def test_code_lens_counts_breaks_per_compiled_entry(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    ours = [lens for lens in lenses if lens.command.command == "fullgraph.applyFixAll"]
    assert len(ours) == 1
    assert ours[0].command.title == "2 likely graph breaks · 1 fixable"  # FG101; the print's deferral is a choice
    assert list(ours[0].command.arguments) == [uri, 1]
    assert ours[0].range.start.line in (3, 4)


async def test_close_clears_diagnostics(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    def last():  # other documents of the shared session may publish meanwhile
        return [p for p in session.published if p.uri == uri][-1]
    for _ in range(200):
        if not last().diagnostics:
            break
        await asyncio.sleep(0.01)
    assert not last().diagnostics


async def test_server_errors_go_to_the_log_not_to_pop_ups(session):
    ghost = "file:///nowhere/never_opened.py"
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=ghost, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")]))
    uri = session.open("model.py", MODEL)
    assert await session.diagnostics(uri)  # still answering
    errors = [m for m in session.client.log_messages if m.type == types.MessageType.Error]
    assert errors and "fullgraph server error" in errors[-1].message
    assert session.client.messages == []


INHERITED = ("import torch\nfrom torch import nn\n\n"
             "class Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             "        self.rnn = nn.Identity()\n\n    def forward(self, x):\n        return self.rnn(x)\n\n"
             "class Recurrent(Base):\n    def __init__(self):\n        super().__init__()\n"
             "        self.rnn = nn.LSTM(4, 4)\n")


async def test_a_subclass_edit_reaches_the_inherited_forward_it_runs(session):
    """The base's `forward` as the subclass runs it is kept across keystrokes like any walk; an
    edit of the subclass's `__init__` alone (the base untouched) re-walks it."""
    uri = session.open("inherited.py", INHERITED)
    diags = await session.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in diags] == [("FG408", 9)]
    assert "(as the subclass `Recurrent` runs it)" in diags[0].message
    line = INHERITED.splitlines().index("        self.rnn = nn.LSTM(4, 4)")
    session.change(uri, [types.TextDocumentContentChangePartial(range=types.Range(
        start=types.Position(line=line, character=19), end=types.Position(line=line, character=32)),
        text="nn.Linear(4, 4)")])
    assert await session.diagnostics(uri) == []
