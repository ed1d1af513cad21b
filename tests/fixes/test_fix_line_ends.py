"""Fixes count lines as `ast` does: CR, LF and CRLF, never form feeds or Unicode separators."""

import ast

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import fix_all, suppression_fix
from fullgraph.fixes.edits import apply_edits

LONE_CR = "import torch\r# a comment\n@torch.compile\ndef f(x: torch.Tensor):\n    n = int((x > 0).sum())\n    return x * n\n"


def test_fix_all_after_a_lone_cr_keeps_the_code():
    fixed = fix_all(LONE_CR, unsafe=True).source  # keeping the tensor is an unsafe fix (type promotion)
    assert fixed == fix_all(LONE_CR.replace("\r", "\n"), unsafe=True).source.replace("# a", "\r# a").replace("\n\r", "\r")
    assert "    return x * n\n" in fixed and "# a comment" in fixed
    assert fix_all(LONE_CR, unsafe=True).applied == 1


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_fix_all_is_the_same_whatever_the_line_ends(end):
    source = ("import torch\n\n@torch.compile\ndef f(x):  # entry\n    if x.sum() > 0:\n        y = (x *\n             2)\n"
              "    else:\n        y = -x\n    return y\n")
    assert fix_all(source.replace("\n", end)).source == fix_all(source).source.replace("\n", end)


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x85"])
def test_suppression_goes_on_the_finding_line_past_odd_separators(separator):
    source = f"import torch\n# {separator} page\n@torch.compile\ndef f(x):\n    print(x.item())\n    return x + 1\n"
    finding = next(f for f in analyze(source) if f.code == "FG301")
    fixed = apply_edits(source, suppression_fix(source, finding).edits)
    assert "    print(x.item())  # fullgraph: ignore[FG301]\n" in fixed
    ast.parse(fixed)


CALL_BEFORE_RETURN = ("import logging\nimport torch\nlogger = logging.getLogger(__name__)\n\n@torch.compile\ndef f0(x):\n"
                      "    print('v', x.item())\n    y = x + 1\n    return y\n\n@torch.compile\ndef f1(x, flag=True):\n"
                      "{body}    return x\n")


@pytest.mark.parametrize("body", ["    logger.info('a %s',\n                x)\n",
                                  "    if flag:\n        warnings.warn('a %s' %\n                      x)\n",
                                  "    print('a',\n          x, sep='')\n    pass\n",
                                  "    logger.info('a %s',\n                x)\n    print('b')\n"])
def test_a_multi_line_call_before_return_is_deferred_whole(body):
    source = CALL_BEFORE_RETURN.format(body=body).replace("import torch\n", "import torch\nimport warnings\n")
    # an unsafe fix: `torch.export` refuses the replaying wrapper (a constant print goes into the graph)
    assert "replay_deferred" not in fix_all(source).source
    fixed = fix_all(source, unsafe=True).source
    ast.parse(fixed)
    assert fixed.count("@replay_deferred\n@torch.compile\n") >= 1 and fix_all(fixed, unsafe=True).source == fixed
    late = [f for f in analyze(fixed) if f.data.get("function") == "f1" and f.code in ("FG301", "FG302", "FG303")]
    assert all(f.fix_blocked for f in late)  # what is left is what deferral declines (a later print it would pass)
