"""The server under bad input: malformed messages, odd line ends, exit during an analysis.

Each test drives the real `fullgraph serve` over stdio with `raw_lsp.RawServer`.
"""

from __future__ import annotations

import time

import pytest
from raw_lsp import RawServer, editor_lines, position, utf16

from fullgraph.engine import analyze

URI = "untitled:robust.py"
MODEL = "import torch\n\n\n@torch.compile\ndef f(x):\n    y = x + 1\n    return y\n"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}


@pytest.fixture
def server():
    raw = RawServer({"debounce": 0})
    raw.initialize()
    yield raw
    raw.close()


def expected(text: str) -> list[tuple]:
    """(code, range) of `fullgraph check` on ``text``, in UTF-16 positions on the editor's lines."""
    lines = editor_lines(text)

    def pos(line, col):
        index = min(line, len(lines)) - 1
        return index, utf16(lines[index][:col])
    return sorted((f.code, *pos(f.line, f.col), *pos(f.end_line, f.end_col)) for f in analyze(text, URI))


def got(diagnostics: list[dict]) -> list[tuple]:
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in diagnostics)


MALFORMED = [
    ("negative position", "textDocument/hover",
     {"textDocument": {"uri": URI}, "position": {"line": -1, "character": -5}}),
    ("params null", "textDocument/hover", None),
    ("textDocument as a string", "textDocument/codeAction",
     {"textDocument": URI, "range": {}, "context": {"diagnostics": []}}),
    ("missing field", "textDocument/codeLens", {}),
    ("wrong type deep inside", "textDocument/codeAction",
     {"textDocument": {"uri": URI}, "range": {"start": {"line": "a", "character": 0},
                                              "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
]


@pytest.mark.parametrize("name,method,params", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_request_gets_an_error_and_the_server_keeps_serving(server, name, method, params):
    server.open(URI, MODEL)
    server.send({"jsonrpc": "2.0", "id": 99, "method": method, "params": params})
    answer = server.response(99, timeout=10)
    assert answer is not None and answer["error"]["code"] == -32602, answer
    assert server.request("textDocument/hover", HOVER) is not None and server.alive()


def test_an_object_as_id_and_a_body_that_is_not_json_get_errors(server):
    server.send({"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover", "params": HOVER})
    assert server.response(None, timeout=10)["error"]["code"] == -32600
    server.send_bytes(b'{"jsonrpc": "2.0", "id": 5, "method": ')
    assert server.response(None, timeout=10)["error"]["code"] == -32700
    server.send_bytes(b"[1, 2, 3]")
    assert server.response(None, timeout=10)["error"]["code"] == -32600
    assert server.request("textDocument/hover", HOVER) is not None and server.alive()


def test_a_malformed_notification_is_dropped_and_the_server_keeps_serving(server):
    server.notify("textDocument/didOpen", {"textDocument": "nope"})
    server.open(URI, MODEL)
    assert server.published(URI, 1) == []


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_the_server_text_follows_the_editor_across_line_separators(server, separator):
    text = f"import torch\n# page{separator}break {separator}\n\n@torch.compile\ndef f(x):\n    y = x + 1\n    return y\n"
    server.open(URI, text)
    assert server.published(URI, 1) == []
    at = position(text, text.index("    y = x + 1"))
    version = server.change(URI, [{"range": {"start": at, "end": at}, "text": "    print(x.item())\n"}])
    diagnostics = server.published(URI, version)
    assert diagnostics and got(diagnostics) == expected(server.docs[URI][1])
    assert {d["code"] for d in diagnostics} == {"FG301", "FG201"}


def test_line_ends_of_every_kind_keep_positions_with_the_editor(server):
    text = "import torch\r# a comment\r\n@torch.compile\ndef f(x):\r    y = x + 1\n    return y\n"
    server.open(URI, text)
    at = position(text, text.index("    y = x + 1"))
    version = server.change(URI, [{"range": {"start": at, "end": at}, "text": "    print(x.item())\r"}])
    diagnostics = server.published(URI, version)
    assert diagnostics and got(diagnostics) == expected(server.docs[URI][1])


def test_exit_ends_the_process_at_once_while_an_analysis_runs():
    raw = RawServer({"debounce": 0})
    try:
        raw.initialize()
        body = "".join(f"    if x.sum() > {i}:\n        x = x * {i}\n    print(x.item(), {i})\n" for i in range(20_000))
        raw.open(URI, f"import torch\n\n@torch.compile\ndef f(x):\n{body}    return x\n")
        time.sleep(1.0)  # the analysis is under way in the server's pool
        assert raw.published(URI, 1, timeout=0) is None, "the analysis ended before exit: make the file larger"
        assert raw.exit(timeout=10) < 10
        assert raw.proc.returncode == 0
    finally:
        raw.close()
