"""A fuzzed editor session against the real server: random edits and requests, then the invariants:
every request answered, the server alive, and its diagnostics for the last version equal to
`fullgraph check` on the editor's text (for a text that does not parse: the same FG000)."""

from __future__ import annotations

from hypothesis import strategies as st
from inputs import LINE_ENDS, SEPARATORS, SNIPPETS, mutant, program
from invariants import parses
from raw_lsp import RawServer, apply_change, editor_lines, utf16

from fullgraph.engine import analyze

SESSION_LINES = 250
EDIT_TEXTS = (*SNIPPETS, "", "x", "    y = x.item()\n", "😀\r\n", "\r\n\r", "a\u2028b", "\x0c\n", "\t\t")
REQUESTS = ("textDocument/hover", "textDocument/codeAction", "textDocument/codeLens", "textDocument/documentSymbol")
MALFORMED = ({"textDocument": "nope"}, None, {"textDocument": {"uri": 5}, "position": {"line": -3}}, [1, 2])


def position(draw, text: str) -> dict:
    lines = editor_lines(text)
    line = draw(st.integers(0, len(lines)))
    limit = utf16(lines[line]) + 2 if line < len(lines) else 3
    return {"line": line, "character": draw(st.integers(0, limit))}


@st.composite
def session(draw) -> dict:
    """A document's text and a list of steps: edits (ranges in the editor's text of that moment),
    requests and malformed requests."""
    text = draw(st.one_of(mutant(SESSION_LINES), program()))
    steps, current = [], text
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(("edit", "edit", "edit", "request", "malformed")))
        if kind == "edit":
            start, end = sorted((position(draw, current), position(draw, current)), key=lambda p: (p["line"], p["character"]))
            change = {"range": {"start": start, "end": end}, "text": draw(st.sampled_from(EDIT_TEXTS))}
            current = apply_change(current, change)
            steps.append({"edit": change})
        elif kind == "request":
            steps.append({"request": draw(st.sampled_from(REQUESTS)), "position": position(draw, current)})
        else:
            steps.append({"malformed": draw(st.sampled_from(REQUESTS)), "params": draw(st.sampled_from(MALFORMED))})
    if draw(st.booleans()):
        end = draw(st.sampled_from((*LINE_ENDS, *SEPARATORS)))
        steps.append({"edit": {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                               "text": f"# top{end}"}})
    return {"text": text, "steps": steps}


def _params(method: str, uri: str, position: dict) -> dict:
    doc = {"uri": uri}
    if method == "textDocument/hover":
        return {"textDocument": doc, "position": position}
    if method == "textDocument/codeAction":
        return {"textDocument": doc, "range": {"start": position, "end": position}, "context": {"diagnostics": []}}
    return {"textDocument": doc}


def _summary(text: str) -> list[tuple]:
    lines = editor_lines(text)

    def pos(line, col):
        return line - 1, utf16(lines[line - 1][:col])
    return sorted((f.code, *pos(f.line, f.col), *pos(f.end_line, f.end_col)) for f in analyze(text, "fuzz.py"))


def _published(diagnostics: list[dict]) -> list[tuple]:
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in diagnostics)


def run_session(server: RawServer, uri: str, script: dict) -> int:
    """Play ``script`` on ``server``; returns the number of messages sent. Raises AssertionError."""
    server.open(uri, script["text"])
    sent = 1
    for step in script["steps"]:
        sent += 1
        if "edit" in step:
            server.change(uri, [step["edit"]])
        elif "request" in step:
            answer = server.request(step["request"], _params(step["request"], uri, step["position"]), timeout=60)
            assert answer is not None, f"no answer to {step['request']}"
        else:
            server._ids += 1
            server.send({"jsonrpc": "2.0", "id": server._ids, "method": step["malformed"], "params": step["params"]})
            answer = server.response(server._ids, timeout=60)
            assert answer is not None, f"no answer to a malformed {step['malformed']}"
        assert server.alive(), "the server died"
    version, text = server.docs[uri]
    diagnostics = server.published(uri, version, timeout=120)
    assert diagnostics is not None, f"no diagnostics for the last version {version}"
    expected, got = _summary(text), _published(diagnostics)
    if parses(text):
        assert got == expected, f"server {got} != check {expected}"
    else:
        assert [d for d in got if d[0] == "FG000"] == [d for d in expected if d[0] == "FG000"], \
            f"server {got} != check {expected}"
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return sent + 1
