"""Code TorchScript compiles keeps the rewrites `torch.jit.script` rejects (a deferral's queued
lambda and replaying decorator, torch's print operator, `torch.cond`) out, with the reason."""

from __future__ import annotations

import importlib.util
import textwrap

import pytest

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document
from fullgraph.fixes import fix_all, fixes_for

PRINTS = """
import torch
from torch import nn
{imports}


class M(nn.Module):
{marks}
    def _note(self, x):
        print("total", x.sum())
        return x + 1

{decorator}
    def forward(self, x: torch.Tensor):
        y = self._note(x)
        for row in y:
            print("row", row.sum())
        return y * 2
"""


def source(imports: str = "", marks: str = "", decorator: str = "") -> str:
    return PRINTS.format(imports=imports, marks=marks, decorator=decorator)


def prints(text: str):
    return [f for f in analyze(text, "m.py") if f.code == "FG301"]


@pytest.mark.parametrize("imports, marks, decorator, helper_sign, loop_sign", [
    ("from torch.jit import Final", "    width: Final[int] = 3\n", "",
     "`M` is written for TorchScript (`torch.jit.Final`", "`M` is written for TorchScript (`torch.jit.Final`"),
    ("", "", "    @torch.jit.export", "`M` is written for TorchScript (`torch.jit.export`",
     "`M.forward` uses TorchScript (`torch.jit.export`"),
    # TorchScript leaves an ignored body to Python; the class is still scripted, and its helper with it
    ("", "", "    @torch.jit.ignore", "`M` is written for TorchScript (`torch.jit.ignore`", None),
    ("", "", "", None, None),
])
def test_scripted_code_declines_what_torchscript_rejects(imports, marks, decorator, helper_sign, loop_sign):
    text = source(imports, marks, decorator)
    lines = text.splitlines()
    found = {f.line: f for f in prints(text)}
    helper = found[lines.index('        print("total", x.sum())') + 1]
    looped = found[lines.index('            print("row", row.sum())') + 1]
    for finding, sign, adds in ((helper, helper_sign, "a lambda kept in a module-level list"),
                                (looped, loop_sign, "a lambda kept in a module-level list")):
        offered = {f.kind for f in fixes_for(text, finding)}
        if sign is None:
            assert "`torch.jit.script` rejects" not in (finding.fix_blocked or "")
            assert "print-op" in offered
        else:
            assert sign in finding.fix_blocked and adds in finding.fix_blocked, finding.fix_blocked
            assert "print-op" not in offered and "defer" not in offered
    unsafe = fix_all(text, "m.py", unsafe=True).source
    rewritten = "torch._higher_order_ops.print" in unsafe or "_fullgraph_defer(" in unsafe
    assert rewritten == (loop_sign is None)


def test_a_scripting_decorator_from_another_file_is_followed(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/scripting.py": """
            import functools
            import torch


            def script_if_tracing(fn):
                @functools.wraps(fn)
                def wrapper(*args, **kwargs):
                    if not torch._C._is_tracing():
                        return fn(*args, **kwargs)
                    return torch.jit.script(fn)(*args, **kwargs)
                return wrapper
        """,
        "pkg/conv.py": """
            import warnings
            import torch
            from torch import nn
            from .scripting import script_if_tracing


            @script_if_tracing
            def shaped(x: torch.Tensor) -> torch.Tensor:
                if x.ndim == 2:
                    warnings.warn("2D input")
                return x.unsqueeze(1)


            class Encoder(nn.Module):
                def forward(self, x):
                    return shaped(x) * 2
        """,
    }
    for name, text in files.items():
        path = tmp_path / "ws" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    path = tmp_path / "ws" / "pkg" / "conv.py"
    report = analyze_document(path.read_text(), str(path), Config(), project=project)
    [warn] = [f for f in report.findings if f.code == "FG303"]
    assert "its decorator `script_if_tracing` (scripting.py) calls `torch.jit.script`" in warn.fix_blocked


SCRIPTED = """
import torch
from torch import nn
from torch.jit import Final


class M(nn.Module):
    width: Final[int] = 3

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        if x.max() >= 100:
            raise ValueError("too large")
        {print_line}
        return y
"""


def _load(text: str, folder, name: str):
    """A fresh `M()` from `text` written to a file (TorchScript reads a function's source)."""
    path = folder / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.M()


def test_what_stays_scripts_and_what_declines_would_not(tmp_path):
    """`torch.where` and `torch._assert_async` script, so they stay; the print operator would not."""
    torch = pytest.importorskip("torch")
    text = SCRIPTED.replace("{print_line}", "")
    fixed = fix_all(text, "m.py", unsafe=True).source
    assert "torch.where" in fixed and "torch._assert_async" in fixed
    x = torch.tensor([1.0, -3.0])
    original, scripted = _load(text, tmp_path, "original"), torch.jit.script(_load(fixed, tmp_path, "fixed"))
    assert torch.equal(scripted(x), original(x)) and torch.equal(scripted(-x), original(-x))
    printing = SCRIPTED.replace("{print_line}", 'print("y", y)')
    assert "torch._higher_order_ops.print" not in fix_all(printing, "m.py", unsafe=True).source
    operator = printing.replace('print("y", y)', 'torch._higher_order_ops.print("y {!s}", y)')
    with pytest.raises(Exception, match="annotation"):
        torch.jit.script(_load(operator, tmp_path, "operator"))


def test_a_plain_deferral_in_scripted_code_is_declined():
    """A print in the body of a scripted `forward`: the deferral's queued lambda and replaying
    decorator are what `torch.jit.script` rejects, so no fix applies, even when asked."""
    text = SCRIPTED.replace("{print_line}", 'print("y", y.sum())\n        y = y + 1')
    [finding] = [f for f in prints(text) if 'print("y"' in text.splitlines()[f.line - 1]]
    assert "a lambda kept in a module-level list, which `torch.jit.script` rejects" in finding.fix_blocked
    assert "@replay_deferred" not in fix_all(text, "m.py", unsafe=True).source
