"""FG422's rewrite, `min(<generator>)` -> `min([<list comprehension>])`: offered only where what is
compared is known to be Python numbers, applied by fix-all only with unsafe fixes (sizes turn symbolic
once a call with other shapes recompiles the code, and the list breaks then too)."""

from __future__ import annotations

import ast
import textwrap

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all, fixes_for
from fullgraph.fixes.preconditions import fix_check

HEAD = "import itertools\n\nimport torch\n\n\ndef cost(*shapes):\n    return sum(s[0] for s in shapes)\n\n\n@torch.compile\ndef f(a, b):\n    shapes = (a.shape, b.shape)\n"


def source(line: str) -> str:
    return HEAD + textwrap.indent(line, "    ") + "\n    return a\n"


def only(src: str):
    [finding] = [f for f in analyze(src, "m.py") if f.code == "FG422"]
    return finding


def test_known_numbers_get_the_quick_fix_and_fix_all_applies_it_only_when_unsafe():
    src = source("k = min((s[0], i) for i, s in enumerate(shapes))  # the smallest first size")
    [fix] = fixes_for(src, only(src))
    assert fix.edits[-1].new_text == "([(s[0], i) for i, s in enumerate(shapes)])"  # inside the call's parentheses
    assert fix_all(src, "m.py").applied == 0
    fixed = fix_all(src, "m.py", unsafe=True)
    assert "k = min([(s[0], i) for i, s in enumerate(shapes)])  # the smallest first size" in fixed.source


def test_values_not_known_to_be_numbers_or_a_key_get_no_rewrite():
    for line in ("k = min((cost(*(shapes[i] for i in p)), p) for p in itertools.permutations(range(2)))",
                 "k = max((i for i in range(2)), key=lambda i: shapes[i][-1])",
                 "k = min((a.sum(), i) for i in range(2))"):
        src = source(line)
        finding = only(src)
        assert fixes_for(src, finding) == []
        reason, unsafe = fix_check(ast.parse(src), finding)
        assert "not known to be Python numbers" in reason and not unsafe


def test_the_generators_own_parentheses_become_brackets_and_a_comment_inside_blocks_it():
    src = source("k = max(((s[-1], i) for i, s in enumerate(shapes)), default=None)")
    assert fixes_for(src, only(src)) == []  # a keyword: not known numbers
    src = source("k = min(\n    (s[0], i)  # size first\n    for i, s in enumerate(shapes)\n)")
    assert fixes_for(src, only(src)) == []
    src = source("k = min ((s[0], i) for i, s in enumerate(shapes))")
    [fix] = fixes_for(src, only(src))
    assert fix.edits[-1].new_text == "([(s[0], i) for i, s in enumerate(shapes)])"
