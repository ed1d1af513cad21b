"""Fix-all on generated and fixture code: always parses, is idempotent, keeps every comment."""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fix_all
from fullgraph.fixes.fixpoint import diff_edits

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
NAMES = ["x", "y", "h", "self.buf"]
VALUES = ["x * 2", "-y", "h + 1", "torch.relu(x)", "x.clamp(min=0)", "None", "self.proj(x)", "x[i]", "y.sum().item() * x"]
CONDS = ["x.sum() > 0", "h.mean() < y.mean()", "x.any() and not y.all()", "self.training and x.isnan().any()",
         "x.max().item() > 1", "flag"]


def comments(source: str) -> Counter:
    found: Counter = Counter()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.string] += 1
    return found


@st.composite
def statements(draw, depth: int = 0) -> list[str]:
    kind = draw(st.sampled_from(["assign", "if", "print", "log", "assert", "raise", "ternary", "loop"][: 8 if depth < 2 else 3]))
    comment = draw(st.sampled_from(["", "  # note", "  # fullgraph: ignore[FG101]"]))
    name, value, cond = draw(st.sampled_from(NAMES[:3])), draw(st.sampled_from(VALUES)), draw(st.sampled_from(CONDS))
    if kind == "assign":
        return [f"{draw(st.sampled_from(NAMES))} = {value}{comment}"]
    if kind == "print":
        return [f'print("v", {name}.sum(), f"{{{name}.mean().item():.2f}}"){comment}']
    if kind == "log":
        return [f'logger.info("v %s", {name}.norm()){comment}']
    if kind == "assert":
        return [f'assert {cond}, "must hold"{comment}']
    if kind == "raise":
        return [f"if {cond}:{comment}", '    raise ValueError("bad")']
    if kind == "ternary":
        return [f"{name} = {value} if {cond} else {name}{comment}"]
    body = [f"    {line}" for _ in range(draw(st.integers(1, 2))) for line in draw(statements(depth + 1))]
    if kind == "loop":
        return [f"for i in range(2):{comment}", *body]
    out = [f"if {cond}:{comment}", *body]
    if draw(st.booleans()):
        out += ["else:", "    # other side", *[f"    {line}" for line in draw(statements(depth + 1))]]
    return out


@st.composite
def modules(draw) -> str:
    lines = [line for _ in range(draw(st.integers(1, 6))) for line in draw(statements())]
    tail = draw(st.sampled_from(["return x + y + h", "return x", "pass"]))
    body = "\n".join("        " + line for line in ["h = x + 1  # start", "i = 0", *lines, tail])
    header = draw(st.sampled_from(["import torch\n", "import torch as th\nimport torch\n", "from torch import nn\nimport logging\n"]))
    return (f"{header}import logging\nlogger = logging.getLogger(__name__)\n\n\nclass M(torch.nn.Module):\n"
            f"    def forward(self, x: torch.Tensor, y: torch.Tensor, flag=False):\n{body}\n")


def check_fix_all(source: str, path: str) -> None:
    result = fix_all(source, path)
    ast.parse(result.source)
    if result.findings is not None:  # what `fullgraph fix` reports as left without analysing again
        assert list(result.findings) == analyze(result.source, path)
    assert apply_edits(source, result.edits) == result.source
    assert fix_all(source, path, findings=analyze(source, path)) == result  # as the editor calls it
    assert fix_all(result.source, path).source == result.source
    missing = comments(source) - comments(result.source)
    assert not missing, f"dropped comments: {missing}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules())
def test_fix_all_on_generated_code(source):
    ast.parse(source)
    check_fix_all(source, "generated.py")


FIXTURE_FILES = sorted(p for p in ROOT.rglob("*.py"))


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[str(p.relative_to(ROOT)) for p in FIXTURE_FILES])
def test_fix_all_on_fixtures(path):
    check_fix_all(path.read_text(encoding="utf-8"), str(path))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a\n", "b\n", "\n", ")\n", "c"]), max_size=12),
       st.lists(st.sampled_from(["a\n", "b\n", "\n", ")\n", "d\n"]), max_size=12), st.integers(0, 12), st.integers(0, 12))
def test_fix_alls_edits_turn_the_old_text_into_the_new(old, inserted, at, cut):
    """`diff_edits` (what fix-all reports as its edits) leaves out the lines both texts start and
    end with, and its edits still give the new text exactly; none for an unchanged text."""
    old_text, new_text = "".join(old), "".join(old[:at] + inserted + old[at + cut:])
    edits = diff_edits(old_text, new_text)
    assert apply_edits(old_text, edits) == new_text
    assert (edits == ()) == (old_text == new_text)
