"""The parse cache: random line edits give exactly a full parse's tree and findings; each fallback."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
from fullgraph.analysis import incremental
from fullgraph.analysis.incremental import ParseCache
from fullgraph.config import Config
from fullgraph.engine import analyze_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SMALL = [(FIXTURES / name).read_text() for name in ["hf_style_model.py", "decorated_helpers.py", "logging_block.py"]]
LARGE = "\n".join(path.read_text() for path in sorted(FIXTURES.glob("*.py"))[:6])  # many blocks: most edits stay small
DOCUMENTS = st.sampled_from(SMALL) | st.just(LARGE)
CONFIG = Config(assume_compiled="all")
SNIPPETS = ["# note", "", "x = 1", "if x.sum() > 0:", "@torch.no_grad()", "else:", "    else:", "    y = torch.cat(",
            ")", '"""', "from __future__ import annotations", "def helper(x):", "x = 1 \\", "class Extra(nn.Module):"]
EDITS = st.tuples(st.sampled_from(["insert", "statement", "statement", "delete", "replace", "copy", "undo"]),
                  st.integers(0, 10_000), st.sampled_from(SNIPPETS))
MODEL = ("import torch\n\n\nclass A:\n    x = 1\n\n\ndef f(x):\n    return x\n\n\nif torch:\n    y = 1\n"
         + "y = 2\n" * 20)


def edited(history: list[list[str]], op: str, at: int, snippet: str) -> list[str]:
    lines = list(history[-1])
    at %= len(lines) + 1
    if op == "insert":
        lines.insert(at, snippet)
    elif op == "statement":  # a statement indented like the line it goes before: mostly still parses
        following = lines[at] if at < len(lines) else ""
        lines.insert(at, following[:len(following) - len(following.lstrip())] + "x = 1")
    elif op == "delete":
        del lines[at:at + 1 + at % 3]
    elif op == "replace":
        lines[at:at + 1] = [snippet]
    elif op == "copy":
        lines.insert(at, lines[at * 7 % len(lines)] if lines else snippet)
    else:  # back to the text before the last edit: breaks, then fixes, the syntax
        lines = list(history[-2] if len(history) > 1 else lines)
    return lines


def full_dump(text: str) -> str | None:
    try:
        return ast.dump(ast.parse(text), include_attributes=True)
    except SyntaxError:
        return None


def cached_dump(cache: ParseCache, text: str) -> str | None:
    try:
        return ast.dump(cache.parse(text, "m.py"), include_attributes=True)
    except SyntaxError:
        return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=DOCUMENTS, edits=st.lists(EDITS, min_size=1, max_size=5))
def test_random_edits_match_a_full_parse(document, edits):
    cache = ParseCache()
    cache.parse(document, "m.py")
    history = [document.split("\n")]
    for op, at, snippet in edits:
        history.append(edited(history, op, at, snippet))
        text = "\n".join(history[-1])
        assert cached_dump(cache, text) == full_dump(text)
    # the findings on the tree built by the edits (or FG000), exactly as without the cache
    assert analyze_document(text, "m.py", CONFIG, cache) == analyze_document(text, "m.py", CONFIG)


def reused(old: ast.Module, new: ast.Module) -> bool:
    """Whether the new tree holds a top-level statement of the old one (an incremental parse)."""
    kept = {id(stmt) for stmt in old.body}
    return any(id(stmt) in kept for stmt in new.body)


def parse_twice(first: str, second: str) -> tuple[ast.Module, ast.Module]:
    cache = ParseCache()
    old = cache.parse(first, "m.py")
    new = cache.parse(second, "m.py")
    assert ast.dump(new, include_attributes=True) == ast.dump(ast.parse(second), include_attributes=True)
    return old, new


def test_comment_edit_reuses_and_moves_the_suffix():
    old, new = parse_twice(MODEL, "# top\n" + MODEL)
    assert new.body[-1] is old.body[-1] and new.body[-1].lineno == MODEL.count("\n") + 1
    assert new.body[-1].value.end_lineno == new.body[-1].lineno
    _, back = parse_twice(MODEL, MODEL.replace("    x = 1\n", "    x = 1\n    z = (\n        2)\n"))
    assert back.body[-1].lineno == MODEL.count("\n") + 2


@pytest.mark.parametrize("after, inserted", [("    x = 1\n", "@torch.no_grad()\n"), ("    return x\n", "    z = 2\n"),
                                             ("    y = 1\n", "else:\n    y = 0\n")])
def test_insertions_at_a_block_edge_stay_incremental(after, inserted):
    old, new = parse_twice(MODEL, MODEL.replace(after, after + inserted))
    assert reused(old, new)


def test_same_text_gives_the_same_statements():
    old, new = parse_twice(MODEL, MODEL)
    assert new.body == old.body


def test_broken_text_gives_the_full_parse_fg000_and_keeps_the_last_good_tree():
    cache = ParseCache()
    good = cache.parse(MODEL, "m.py")
    broken = MODEL.replace("    x = 1", "    x = (1")
    report = analyze_document(broken, "m.py", cache=cache)
    assert report == analyze_document(broken, "m.py") and report.findings[0].code == "FG000"
    assert reused(good, cache.parse(MODEL.replace("    x = 1", "    x = 2"), "m.py"))


def test_no_good_text_yet_parses_in_full():
    cache = ParseCache()
    with pytest.raises(SyntaxError):
        cache.parse("def f(:\n" + MODEL, "m.py")
    first = cache.parse(MODEL, "m.py")
    assert reused(first, cache.parse("# top\n" + MODEL, "m.py"))


def test_span_that_does_not_parse_alone_falls_back():
    # the new string literal runs on to the quotes in a comment two blocks further down
    text = "a = 1\nb = 2\nc = 3  # '''\n" + "d = 4\n" * 10
    old, new = parse_twice(text, text.replace("a = 1", "a = '''"))
    assert not reused(old, new) and len(new.body) == 11


@pytest.mark.parametrize("where", ["top", "late"])
def test_future_import_in_the_span_falls_back(where):
    line = "from __future__ import annotations\n"
    text = line + MODEL if where == "top" else MODEL.replace("y = 2\n", "y = 2\n" + line, 1)
    old, new = parse_twice(MODEL, text)
    assert not reused(old, new)


def test_lone_carriage_returns_and_form_feeds_are_incremental_and_exact():
    before = (MODEL + 'doc = """a\nb"""\n\x0c\n').replace("\n", "\r")
    text = "# top\r\x0c# page\n" + before
    old, new = parse_twice(before, text)
    assert reused(old, new)
    assert ast.dump(new, include_attributes=True) == ast.dump(ast.parse(text), include_attributes=True)


def test_crlf_text_is_incremental_and_exact():
    before = (MODEL + 'doc = """a\nb"""\n').replace("\n", "\r\n")
    text = "# top\r\n" + before
    old, new = parse_twice(before, text)
    assert reused(old, new)
    assert ast.dump(new, include_attributes=True) == ast.dump(ast.parse(text), include_attributes=True)


def test_edit_over_most_of_the_file_falls_back():
    old, new = parse_twice(MODEL, MODEL.replace("y = 2\n" * 20, "y = 3\n" * 20))
    assert not reused(old, new)


@pytest.mark.parametrize("text, starts", [("x = 1; y = 2\nz = 3\n", [1, 2]), ("x = 1 \\\n\ny = 2\nz = 3\n", [1, 4])])
def test_statements_sharing_a_logical_line_share_a_block(text, starts):
    assert [b.start for b in incremental._blocks(ast.parse(text).body, text.split("\n"))] == starts


def test_analysis_holds_the_cache_lock():
    cache, done = ParseCache(), threading.Event()
    with cache.lock:
        worker = threading.Thread(target=lambda: (analyze_document(MODEL, "m.py", cache=cache), done.set()))
        worker.start()
        assert not done.wait(0.2)
    worker.join(5)
    assert done.is_set()


def test_a_cache_bug_resets_the_cache_and_the_engine_does_not_raise(monkeypatch, capsys):
    cache = ParseCache()
    good = cache.parse(MODEL, "m.py")
    monkeypatch.setattr(incremental, "_span", lambda *args: 1 / 0)
    [finding] = analyze_document("# top\n" + MODEL, "m.py", cache=cache).findings
    assert finding.code == "FG001" and "internal error (ZeroDivisionError" in finding.message
    assert "internal error" in capsys.readouterr().err
    monkeypatch.undo()
    assert not reused(good, cache.parse("# top\n" + MODEL, "m.py"))
