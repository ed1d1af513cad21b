"""Edit mechanics: minimal edits, import handling, names, comments, bad input."""

from __future__ import annotations

import ast
import textwrap

from fullgraph.engine import analyze
from fullgraph.findings import Finding
from fullgraph.fixes import apply_edits, fix_all, fixes_for


def finding(source: str, code: str, line: int, col: int = 0, end_line: int | None = None, end_col: int = 0) -> Finding:
    """The engine's finding (with what it knows there) of `code` at `line`, else a bare one."""
    found = [f for f in analyze(source, "m.py") if (f.code, f.line) == (code, line)]
    return found[0] if found else Finding("m.py", line, col, end_line or line, end_col, code, "", fix="predicate")


def main_fix(source: str, found: Finding) -> str:
    fixes = fixes_for(source, found)
    assert fixes and fixes[0].preferred
    return apply_edits(source, fixes[0].edits)


MODULE = textwrap.dedent('''\
    """Doc."""
    from torch import Tensor, nn


    class M(nn.Module):
        def forward(self, x: Tensor, cond=None):
            # leading comment
            if x.sum() > 0:  # trailing
                y = x  # on the true side
            else:
                # own line on the false side
                y = -x
            return y
''')


def test_import_torch_added_once_after_the_imports():
    fixed = main_fix(MODULE, finding(MODULE, "FG101", 8))
    assert fixed.count("import torch\n") == 1
    assert fixed.index("import torch") > fixed.index("from torch import Tensor, nn")
    assert "y = torch.where(x.sum() > 0, x, -x)" in fixed


def test_every_comment_survives():
    fixed = main_fix(MODULE, finding(MODULE, "FG101", 8))
    comments = ["# leading comment", "# trailing", "# on the true side", "# own line on the false side"]
    assert all(c in fixed for c in comments)
    ast.parse(fixed)


def test_torch_alias_is_reused():
    source = MODULE.replace("from torch import Tensor, nn", "import torch as th\nfrom torch import Tensor, nn")
    fixed = main_fix(source, finding(source, "FG101", 9))
    assert "th.where(" in fixed and "import torch\n" not in fixed


def test_edit_touches_only_the_if():
    fix = fixes_for(MODULE, finding(MODULE, "FG101", 8))[0]
    body_edit = fix.edits[-1]
    assert (body_edit.line, body_edit.end_line) == (8, 12)


def test_temporaries_do_not_shadow_existing_names():
    source = textwrap.dedent('''\
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, cond: torch.Tensor):
                if x.mean() > 0:
                    a = x
                    b = cond
                else:
                    a = x * 2
                    b = cond * 2
                return a + b
    ''')
    fixed = main_fix(source, finding(source, "FG101", 6))
    assert "cond_2 = x.mean() > 0" in fixed
    assert "a = torch.where(cond_2, x, x * 2)" in fixed


def test_declined_sites_get_no_fix():
    source = textwrap.dedent('''\
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                if x.sum() > 0:
                    y = self.proj(x)
                else:
                    y = x
                return y
    ''')
    assert fixes_for(source, finding(source, "FG101", 6)) == []


def test_bad_input_never_raises():
    for source in ("def f(:\n", b"\xff\xfe\x00", "", "x = (" * 500, "if x:\n" + "  " * 50, "\n" * 10):
        assert fixes_for(source, finding(source, "FG101", 1)) == []
        result = fix_all(source, "bad.py")
        assert result.applied == 0


def test_deep_nesting_is_left_alone():
    source = "import torch\nclass M(torch.nn.Module):\n    def forward(self, x: torch.Tensor):\n        y = " + "(" * 90 + "x" + ")" * 90 + "\n        return y\n"
    assert fix_all(source, "deep.py").source == source


def test_fix_on_non_ascii_line_uses_code_points():
    source = textwrap.dedent('''\
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                s = "é"; z = x if x.sum() > 0 else -x
                return z
    ''')
    fixed = fix_all(source, "m.py").source
    assert 's = "é"; z = torch.where(x.sum() > 0, x, -x)' in fixed


DEFER = textwrap.dedent('''\
    import logging

    import torch

    logger = logging.getLogger(__name__)


    class M(torch.nn.Module):
        def forward(self, x: torch.Tensor):
            print("x", x.sum())
            logger.info("x %s", x.mean())
            return x * 2
''')


def test_defer_offers_the_logger_config_alternative_once_and_no_print_reordering():
    # a logging call follows: no deferral, but the print operator prints in place
    assert [f.kind for f in fixes_for(DEFER, finding(DEFER, "FG301", 10, 8, 10, 27))] == ["print-op"]
    log_fixes = fixes_for(DEFER, finding(DEFER, "FG302", 11, 8, 11, 37))
    assert [f.preferred for f in log_fixes] == [True, False]  # the deferral (fix-all's), the config line (never)
    with_logger = apply_edits(DEFER, log_fixes[1].edits)
    line = "torch._dynamo.config.ignore_logger_methods.add(logger.info)\n"
    assert with_logger.index(line) > with_logger.index("logger = logging.getLogger")
    assert fixes_for(with_logger, finding(with_logger, "FG302", 12, 8, 12, 37))[1:] == []  # the line is in place


def test_fix_all_skips_a_fix_that_breaks_the_code_and_applies_the_rest(monkeypatch):
    from fullgraph.fixes import fixpoint
    from fullgraph.fixes.edits import Fix, TextEdit

    source = ("import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    print('a')\n    y = x * 2\n"
              "    if x.sum() > 0:\n        y = y + 1\n    return y\n")
    real = fixpoint.guarded_fixes

    def first_print_breaks(ctx, finding):
        if finding.code == "FG301":  # a rewrite gone wrong: it would leave an open bracket
            return [Fix("broken", (TextEdit(6, 0, 6, 0, "(\n"),), preferred=True)]
        return real(ctx, finding)

    monkeypatch.setattr(fixpoint, "guarded_fixes", first_print_breaks)
    result = fix_all(source, "m.py")
    assert "torch.where(" in result.source and "print('a')" in result.source
    assert result.applied == 1
    ast.parse(result.source)


def test_a_guarded_torch_import_counts_and_no_second_import_is_added():
    """`if is_torch_available(): import torch` (transformers' files) binds `torch`: a fix must not
    add an unconditional `import torch` the module was written to avoid."""
    import ast

    from fullgraph.fixes.names import torch_alias, torch_import_edit

    guarded = ast.parse("from .utils import is_torch_available\nif is_torch_available():\n    import torch\n")
    assert torch_alias(guarded) == "torch" and torch_import_edit(guarded) is None
    tried = ast.parse("try:\n    import torch as th\nexcept ImportError:\n    th = None\n")
    assert torch_alias(tried) == "th"
    assert torch_import_edit(ast.parse("def f():\n    import torch\n")) is not None  # a local import binds nothing


def test_moved_code_keeps_the_lines_of_its_strings():
    """Code cut from one block and indented into another: its continuation lines move with it,
    but a line that starts inside a triple-quoted string is the string's value and stays."""
    from fullgraph.fixes.slicing import continuation, indent

    call = 'warn("""a\n        b""",\n        Warning)'
    assert continuation(call, 4) == 'warn("""a\n        b""",\n    Warning)'
    assert indent(call + "\n") == '    warn("""a\n        b""",\n            Warning)\n'
    assert continuation("f(\n  x)", 4) == "f(\nx)"  # a line indented less than the cut is stripped
    assert continuation('f("""a\n  b', 4) == 'f("""a\n  b'  # not tokenizable: every line left as it is
    # a block cut whole (its `else:` dedents): tokenized where it stood, so its lines move with it
    block = 'if a:\n            x = """s\n  t"""\n        else:\n            x = 2'
    assert continuation(block, 8) == 'if a:\n    x = """s\n  t"""\nelse:\n    x = 2'


def test_an_operand_in_parentheses_of_its_own_only_is_wrapped_whole():
    """`(a.sum()) + (b.sum())` begins with a parenthesis but is not wrapped by one: the kept tensor
    is detached whole, not only its last operand."""
    source = "import torch\n\n\n@torch.compile\ndef f(a: torch.Tensor, b: torch.Tensor):\n" \
             "    s = float((a.sum()) + (b.sum()))\n    return a * s\n"
    fixed = fix_all(source, "m.py", unsafe=True).source
    assert "s = ((a.sum()) + (b.sum())).detach()" in fixed
    wrapped = source.replace("float((a.sum()) + (b.sum()))", "float((a.sum() + b.sum()))")
    assert "s = (a.sum() + b.sum()).detach()" in fix_all(wrapped, "m.py", unsafe=True).source
