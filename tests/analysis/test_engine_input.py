"""Bad input never crashes the engine: syntax errors, bytes, empty, huge and deeply nested files."""

import time

import pytest

from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GOOD = "import torch\n@torch.compile\ndef f(x):\n    print(x)\n    return x\n"
FUZZ_BASE = """import torch, logging
import torch.nn as nn
log = logging.getLogger(__name__)
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
    def forward(self, x, mask=None):
        for layer in self.layers:
            x = layer(x)
            if x.sum() > 0 and mask is not None:
                log.info(f"pos {x.mean().item():.2f} é")
        assert (x > 0).all(), f"{x}"
        return x[x > 0] if x.numel() else torch.where(x > 0, x, -x)
"""


def test_syntax_error_gives_one_fg000_at_the_error():
    [f] = analyze("import torch\n\ndef f(x)\n    return x\n", "bad.py")
    assert (f.code, f.line, f.severity, f.path) == ("FG000", 3, "error", "bad.py")
    assert f.col == 8 and f.message.startswith("syntax error")
    assert [f.code for f in analyze("def f(:\n", config=Config(select=("FG3",)))] == ["FG000"]
    assert analyze("def f(:\n", config=Config(ignore=("FG000",))) == []


def test_undecodable_bytes_give_fg000_at_start():
    [f] = analyze(b"x = '\xff\xfe'\n")
    assert (f.code, f.line, f.col) == ("FG000", 1, 0)
    assert "decode" in f.message


def test_bytes_with_coding_line_and_bom():
    latin = b"# -*- coding: latin-1 -*-\n" + GOOD.replace("print(x)", "print('\xe9', x)").encode("latin-1")
    assert [f.code for f in analyze(latin)] == ["FG301"]
    assert [f.code for f in analyze(b"\xef\xbb\xbf" + GOOD.encode())] == ["FG301"]
    assert [f.code for f in analyze("\ufeff" + GOOD)] == ["FG301"]


def test_null_bytes_and_empty_input():
    assert [f.code for f in analyze("x = 1\0\n")] == ["FG000"]
    assert analyze("") == [] and analyze(b"") == []
    report = analyze_document("")
    assert report.findings == [] and report.entries == []


def test_columns_are_code_points():
    src = "import torch\n@torch.compile\ndef f(x):\n    s = 'ééé'; print(x)\n    return x\n"
    [f] = analyze(src)
    assert (f.col, f.end_col) == (15, 23)


def test_deep_nesting_is_handled():
    nested_ifs = "import torch\n@torch.compile\ndef f(x):\n" + "".join(
        "    " * (i + 1) + f"if x{i}:\n" for i in range(120)) + "    " * 121 + "pass\n"
    parens = "y = " + "(" * 300 + "1" + ")" * 300 + "\n"
    calls = "import torch\n@torch.compile\ndef f(x):\n    return " + "g(" * 180 + "x" + ")" * 180 + "\n"
    for src in (nested_ifs, parens, calls, "x = " + "-" * 100_000 + "1\n"):
        findings = analyze(src)
        assert all(f.code == "FG000" for f in findings)


def test_fifty_thousand_lines():
    block = "class M{i}(nn.Module):\n    def forward(self, x):\n        y = x * 2\n        z = y.tolist()\n" \
            "        return x\n\n"
    src = "import torch\nimport torch.nn as nn\n" + "".join(block.format(i=i) for i in range(8400))
    assert src.count("\n") > 50_000
    start = time.perf_counter()
    findings = analyze(src)
    assert len(findings) == 8400 and {f.code for f in findings} == {"FG202"}
    print(f"50k lines: {time.perf_counter() - start:.2f}s")  # speed is measured by bench/, not asserted


def test_entries_are_reported_with_def_ranges():
    report = analyze_document(GOOD, "g.py")
    [entry] = report.entries
    assert (entry.message, entry.line, entry.end_line, entry.path) == ("f", 3, 5, "g.py")


def test_a_crashing_rule_is_logged_and_the_rest_still_reported(monkeypatch, capsys):
    import ast

    from fullgraph import engine

    def boom(node, walker):
        if walker.function.qualname == "g":
            raise RuntimeError("rule bug")

    checks = {k: list(v) for k, v in engine.CHECKS.items()}
    checks.setdefault(ast.Return, []).append(boom)
    monkeypatch.setattr(engine, "CHECKS", checks)
    src = GOOD + "@torch.compile\ndef g(x):\n    print(x)\n    return x\n"
    found = analyze(src, "c.py")
    assert [(f.code, f.data.get("function")) for f in found] == [("FG301", "f"), ("FG001", None)]
    assert (found[1].line, found[1].message) == (
        7, "`g` was not analysed: internal error (RuntimeError: rule bug); its graph breaks are not reported")
    assert "internal error in c.py (`g`): RuntimeError: rule bug" in capsys.readouterr().err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(min_value=0, max_value=len(FUZZ_BASE)), noise=st.binary(max_size=8))
def test_truncated_or_corrupted_source_never_raises(cut, noise):
    data = FUZZ_BASE.encode()[:cut] + noise
    for f in analyze(data, "fuzz.py"):
        assert f.line >= 1 and f.col >= 0 and (f.end_line, f.end_col) >= (f.line, f.col)


def test_long_operator_chains_are_walked():
    src = "import torch\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x" + " + x" * 2000 + "\n    return y.item()\n"
    assert [f.code for f in analyze(src)] == ["FG201"]


@pytest.mark.parametrize("source", ["if x", "x = (", "import torch\nif x:\n", "def f(x)", "é = (é", "x = 1\n  y = 2\n"])
def test_a_syntax_error_range_stays_inside_its_line(source):
    [f] = analyze(source)
    lines = source.split("\n")
    assert f.code == "FG000" and f.line == f.end_line <= len(lines)
    assert 0 <= f.col <= f.end_col <= len(lines[f.line - 1])
