"""FG301's print-operator fix: what it carries, what it declines, and the torch it needs."""

from __future__ import annotations

import ast
import textwrap

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fix_all, fixes_for
from fullgraph.fixes.print_operator import available, plan
from fullgraph.fixes.project_torch import has_module

HEADER = "import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def forward(self, x: torch.Tensor, step: int = 0):\n"


# `Outer` makes `M`, and writes to stdout after calling it: that write would come before the deferral's
# replay, so the deferral is not the safe fix that would otherwise come first, and fix-all's choice is the
# print operator's alone
OUTER = ("\n\nimport sys\n\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.m = M()\n\n    def forward(self, x):\n        y = self.m(x)\n        sys.stdout.write('done\\n')\n"
         "        return y\n")


def module(body: str) -> str:
    return HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + OUTER


def print_findings(source: str):
    return [f for f in analyze(source) if f.code == "FG301"]


@pytest.mark.parametrize("call, expected", [
    ('print("y", y)', ("y {!s}", ["y"])),
    ('print(y.sum(), y.shape[0], y.size(1), y.dim(), len(y), sep=", ")', ("{!s}, {!s}, {!s}, {!s}, {!s}", 5)),
    ('print(f"{y.mean():.2f} {y!r} {{x}}", 3, -1.5, None)', ("{:.2f} {!r} {{x}} 3 {!s} None", 3)),
    ('print("a{b}")', ("a{{b}}", [])),
    ('print()', ("", [])),
])
def test_carried_values_become_the_format_and_its_arguments(call, expected):
    source = module(f"y = x * 2\n{call}\nreturn y * 3\n")
    [finding] = print_findings(source)
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print")
    text, values = plan(tree, call, set(finding.data["tensors"]))
    assert text == expected[0]
    count = expected[1] if isinstance(expected[1], int) else len(expected[1])
    assert len(values) == count


@pytest.mark.parametrize("call, reason", [
    ('print("shape", y.shape)', "`y.shape` is a `torch.Size`, which the operator would print as a tuple"),
    ('print("step", step)', "`step` is not known to be a tensor"),
    ('print("w", self.weight)', "`self.weight` is an attribute, which may be a parameter"),
    ('print(y, end="")', "`print(..., end=...)`"),
    ('print(y, file=None)', "`print(..., file=...)`"),
    ('print(*[y])', "a starred argument"),
    ('print(f"{y:{step}}")', "a format spec computed at run time"),
    ('n = print(y)', "the call's result is used"),
])
def test_values_the_operator_would_change_are_declined_with_the_reason(call, reason):
    source = module(f"y = x * 2\n{call}\nreturn y * 3\n")
    [finding] = print_findings(source)
    assert reason in finding.fix_blocked
    assert "torch's print operator cannot take it" in finding.fix_blocked
    assert not any(f.kind == "print-op" for f in fixes_for(source, finding))


def test_the_fix_is_unsafe_first_choice_and_fix_all_applies_it_only_when_asked():
    source = module('y = x * 2\nprint("y", y.sum())\nreturn y * 3\n')
    [finding] = print_findings(source)
    assert "lose their `grad_fn=` tag" in finding.fix_blocked
    first = fixes_for(source, finding)[0]
    assert first.kind == "print-op" and first.unsafe and not first.preferred
    fixed = apply_edits(source, first.edits)
    assert 'torch._higher_order_ops.print("y {!s}", y.sum())' in fixed
    assert fix_all(source).applied == 0
    assert fix_all(source, unsafe=True).source == fixed
    assert not print_findings(fixed)


def test_a_torch_without_the_operator_gets_no_fix(tmp_path, monkeypatch):
    old, new = tmp_path / "old", tmp_path / "new"
    for base in (old, new):
        (base / "torch" / "_higher_order_ops").mkdir(parents=True)
        (base / "torch" / "__init__.py").write_text("")
    (new / "torch" / "_higher_order_ops" / "print.py").write_text("")
    assert has_module((str(new), str(old)), "_higher_order_ops", "print")
    assert not has_module((str(old), str(new)), "_higher_order_ops", "print")
    assert not has_module((str(tmp_path),), "_higher_order_ops", "print")

    class Project:  # the project's interpreter comes before fullgraph's own
        class resolver:
            bases = (str(old),)

    assert not available(Project())
    monkeypatch.setattr("fullgraph.engine.print_operator_available", lambda project: False)
    source = module('y = x * 2\nprint("y", y.sum())\nreturn y * 3\n')
    [finding] = print_findings(source)
    assert "the project's torch has no print operator" in finding.fix_blocked
    assert not any(f.kind == "print-op" for f in fixes_for(source, finding))


def test_compiled_with_aot_autograd_it_prints_the_same_text_in_one_graph(capsys):
    torch = pytest.importorskip("torch")
    source = module('y = x * 2\nprint("y", y.sum(), y.shape[0])\ny.add_(1)\nprint(f"{y.max()!r}")\nreturn y * 3\n')
    fixed = fix_all(source, unsafe=True).source
    assert fixed.count("_higher_order_ops.print(") == 2
    spaces: dict = {}, {}
    exec(compile(source, "original.py", "exec"), spaces[0])
    exec(compile(fixed, "fixed.py", "exec"), spaces[1])
    x = torch.arange(6.0).reshape(3, 2)
    want = spaces[0]["M"]()(x)
    printed = capsys.readouterr().out
    torch._dynamo.reset()
    with torch.no_grad():
        got = torch.compile(spaces[1]["M"](), backend="aot_eager", fullgraph=True)(x)
    assert torch.equal(got, want)
    assert capsys.readouterr().out == printed == "y tensor(30.) 3\ntensor(11.)\n"


def test_comments_stay_the_eager_call_is_kept_and_a_print_sharing_its_line_is_left():
    """The operator runs while compiled only (`torch.jit.trace` has no kernel for it): the original
    call, comments and all, stays for eager runs; a `#` inside a string is no comment; a print that
    shares its line with another statement is not rewritten."""
    source = module('y = x * 2\nprint(\n    "y #",  # the label\n    y.sum(),\n)  # after\nz = 1; print("# shared", y)\n'
                    'return y * 3\n')
    fixed = fix_all(source, unsafe=True).source
    assert fixed.count("_higher_order_ops.print(") == 1
    lines = fixed.splitlines()
    call = next(i for i, line in enumerate(lines) if line.endswith("_higher_order_ops.print("))
    assert [line.strip() for line in lines[call - 2:call + 10]] == [
        "# after", "if torch.compiler.is_compiling():", "torch._higher_order_ops.print(", '"y # {!s}",', "y.sum(),",
        ")", "else:", "print(", '"y #",  # the label', "y.sum(),", ")", 'z = 1; print("# shared", y)']
    assert len(print_findings(fixed)) == 1


def test_a_constant_print_is_a_safe_fix_that_still_runs_under_jit_trace(capsys):
    """A print of constants alone goes into the graph under fix-all (no `--unsafe-fixes`); eagerly,
    `torch.jit.trace` included (it has no kernel for the operator: probed, NotImplementedError),
    the original call runs, and both print the same line."""
    import torch

    source = module('y = x * 2\nprint("notice: slow path")\nreturn y + 1\n')
    [found] = print_findings(source)
    assert found.fix_blocked is None
    fixed = fix_all(source).source
    assert "_higher_order_ops.print(" in fixed and not print_findings(fixed)
    outputs = []
    for text in (source, fixed):
        scope: dict = {}
        exec(compile(text, "m.py", "exec"), scope)
        x = torch.arange(3.0)
        traced = torch.jit.trace(scope["M"](), (x,))
        compiled = torch.compile(scope["M"](), backend="eager", fullgraph=text is fixed)
        outputs.append((traced(x), compiled(x), capsys.readouterr().out))
    (t0, c0, out0), (t1, c1, out1) = outputs
    assert torch.equal(t0, t1) and torch.equal(c0, c1)
    assert out0 == out1 and "notice: slow path" in out0  # printed while tracing (and its check), and compiled


def test_a_print_sharing_its_line_is_not_marked_fixable():
    """The rewrite replaces whole lines: a print after another statement on its line, or on the line
    of its block's header, gets no fix, and the finding says why instead of promising one."""
    source = module('z = 1; print("shared")\nif step: print("header")\nreturn x * z\n')
    found = print_findings(source)
    assert len(found) == 2 and all("another statement shares its line" in f.fix_blocked for f in found)
    assert fix_all(source, unsafe=True).source == source
