"""`same_code` says what comparing `ast.dump`s says, without building them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fullgraph.analysis.nodes import same_code

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "examples"
NEAR = ["a + b", "a - b", "x = 0.0", "x = -0.0", "x = 1", "x = True", "x = '1'", "x = b'1'", "x = u'1'",
        "f(x, y=1)", "f(x, y=2)", "f(y=1, x)", "a[b]", "a[b] = 1", "del a[b]", "a < b", "a <= b", "not a",
        "def f(a: int) -> x: pass", "def f(a: int) -> y: pass", "async def f(): await g()",
        "class A(B): x = 1", "class A(B): x = 2", "class A(C): x = 1", "x = float('nan')", "x = 1j", "x = -1j"]


def _statements(text: str) -> list[ast.stmt]:
    try:
        return ast.parse(text).body
    except SyntaxError:
        return []


@pytest.mark.parametrize("left", NEAR)
def test_near_statements_compare_as_their_dumps(left):
    for right in NEAR:
        for a in _statements(left):
            for b in _statements(right):
                assert same_code(a, b) == (ast.dump(a) == ast.dump(b)), (left, right)


def test_corpus_statements_compare_as_their_dumps_and_moved_code_is_the_same():
    compared = 0
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text()
        body = ast.parse(text).body
        moved = ast.parse("\n\n# moved\n" + text).body
        for a, b in zip(body, moved):
            assert a.lineno != b.lineno and same_code(a, b)
        for a in body:
            for b in body:
                assert same_code(a, b) == (ast.dump(a) == ast.dump(b)), path.name
                compared += 1
    assert compared > 1000
