"""Compiled regions: entry points in every spelling, the call closure, assume_compiled modes."""

import textwrap

import pytest
from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document


def check(src: str, mode: str = "modules"):
    return analyze(textwrap.dedent(src), "r.py", Config(assume_compiled=mode))


def entries(src: str, mode: str = "modules") -> list[str]:
    return [e.message for e in analyze_document(textwrap.dedent(src), "r.py", Config(assume_compiled=mode)).entries]


BODY = "    print(x)\n    return x\n"


@pytest.mark.parametrize("header", [
    "import torch\n@torch.compile\ndef f(x):\n",
    "import torch\n@torch.compile(mode='max-autotune', fullgraph=False)\ndef f(x):\n",
    "import torch as T\n@T.compile\ndef f(x):\n",
    "from torch import compile\n@compile\ndef f(x):\n",
    "from torch import compile as c\n@c()\ndef f(x):\n",
])
def test_decorator_spellings(header):
    assert [f.code for f in check(header + BODY, "decorated")] == ["FG301"]


def test_undecorated_function_is_not_compiled():
    assert check("import torch\ndef f(x):\n" + BODY) == []
    assert [f.code for f in check("def f(x):\n" + BODY, "all")] == ["FG301"]


def test_compile_call_targets():
    src = """
    import torch, torch.nn as nn
    def f(x):
        print(x)
    class M(nn.Module):
        def forward(self, x):
            print(x)
    class N:
        def forward(self, x):
            print(x)
    g = torch.compile(f)
    model = N()
    h = torch.compile(model)
    """
    assert entries(src, "decorated") == ["f", "N.forward"]
    assert entries(src) == ["f", "M.forward", "N.forward"]
    assert entries(src, "all") == ["f", "M.forward", "N.forward"]


def test_compile_call_with_a_space_before_the_bracket():
    assert entries("import torch\ndef f(x):\n    return x\ng = torch.compile (f)\n", "decorated") == ["f"]


@pytest.mark.parametrize("pattern", ["", "import re\nPAT = re.compile('x')\n", "import regex\nP = regex.compile('x')\n"])
def test_a_pattern_compile_neither_hides_nor_makes_a_compile_call(pattern):
    src = "import torch\n" + pattern + "def f(x):\n    return x\n"
    assert entries(src + "g = torch.compile (f)\n", "decorated") == ["f"]
    assert entries(src, "decorated") == []


def test_module_detection():
    src = """
    import torch
    from torch import nn
    from transformers import PreTrainedModel
    class A(nn.Module):
        def forward(self, x): return x
    class B(A):
        def forward(self, x): return x
    class C(PreTrainedModel):
        def forward(self, x): return x
    class D:
        def forward(self, x): return x
    class E(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x): return x
    """
    assert entries(src) == ["A.forward", "B.forward", "C.forward"]


def test_closure_reports_at_helper_with_call_path():
    src = """
    import torch
    import torch.nn as nn

    def helper(t):
        return t.item()

    class Block(nn.Module):
        def inner(self, y):
            return helper(y)

        def forward(self, x: torch.Tensor):
            return self.inner(x)
    """
    [f] = check(src)
    assert (f.code, f.line, f.confidence) == ("FG201", 6, "certain")  # tensor fact flows through the call path
    assert {k: f.data[k] for k in ("entry", "function", "in_loop")} == {"entry": "Block.forward", "function": "helper", "in_loop": False}
    assert [r.message for r in f.related] == [
        "compiled entry point `Block.forward`", "called from `Block.forward`", "called from `Block.inner`"]
    assert [r.line for r in f.related] == [12, 13, 10]


def test_submodule_calls_reach_forward_even_in_decorated_mode():
    src = """
    import torch
    import torch.nn as nn
    class Inner(nn.Module):
        def forward(self, h):
            print(h)
            return h
    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.layers = nn.ModuleList([Inner() for _ in range(2)])
        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return self.inner(x)
    model = torch.compile(Outer())
    """
    [f] = check(src, "decorated")
    assert {k: f.data[k] for k in ("entry", "function", "in_loop")} == \
        {"entry": "Outer.forward", "function": "Inner.forward", "in_loop": True}
    assert "GB7000" in f.gb_ids


def test_disabled_functions_are_not_entered_but_their_calls_are_flagged():
    src = """
    import torch
    @torch.compiler.disable
    def dump(x):
        print(x)
    @torch.compile
    def f(x):
        dump(x)
        return x
    """
    assert [(f.code, f.line) for f in check(src)] == [("FG409", 8)]


def test_is_compiling_guards():
    src = """
    import torch
    from transformers.utils import is_torchdynamo_compiling
    @torch.compile
    def f(x: torch.Tensor):
        if not torch.compiler.is_compiling() and x.sum() > 0:
            print("eager only")
        if is_torchdynamo_compiling():
            y = x
        else:
            print("eager only")
        if torch.jit.is_scripting():
            print("scripting only")
        if torch.compiler.is_compiling():
            print("traced")
        if not is_torchdynamo_compiling() and x.sum() > 0:
            pass
        ok = is_torchdynamo_compiling() or bool(x.any())
        if x.sum() > 0 and not is_torchdynamo_compiling():
            pass
        return x
    """
    assert [(f.code, f.line) for f in check(src)] == [("FG301", 15), ("FG101", 19)]


def test_recursive_helpers_terminate():
    src = """
    import torch
    def a(x):
        return b(x)
    def b(x):
        print(x)
        return a(x)
    @torch.compile
    def f(x):
        return a(x)
    """
    assert [f.code for f in check(src)] == ["FG301"]


def test_super_calls_reach_the_in_file_base():
    src = """
    import torch
    import torch.nn as nn
    class Base(nn.Module):
        def forward(self, x):
            return x.tolist()
    class Child(Base):
        def forward(self, x: torch.Tensor):
            return super().forward(x * 2)
    compiled = torch.compile(Child())
    """
    [f] = check(src, "decorated")
    assert (f.code, f.line, f.confidence) == ("FG202", 6, "certain")
    assert f.data == {"entry": "Child.forward", "function": "Base.forward", "in_loop": False}


def test_methods_of_submodules_are_in_the_region():
    src = """
    import torch
    from torch import nn
    class Norm(nn.Module):
        def stats(self, h):
            return h.mean().item()
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = Norm()
        def forward(self, x):
            return x * self.norm.stats(x)
    net = torch.compile(Net())
    """
    [f] = check(src, "decorated")
    assert (f.code, f.line, f.data["entry"], f.data["function"]) == ("FG201", 6, "Net.forward", "Norm.stats")
    assert [r.message for r in f.related] == ["compiled entry point `Net.forward`", "called from `Net.forward`"]


def test_generator_is_an_entry_only_when_declared():
    """`assume_compiled = "all"` makes every function an entry, but a generator is then called from
    compiled code (Dynamo inlines it): FG402 only for a generator compiled itself."""
    src = """
    import torch
    def chunks(x):
        for c in x.split(2):
            yield c * 2
    @torch.compile
    def pairs(x):
        yield x
    """
    assert [(f.line, f.code) for f in check(src, "all")] == [(8, "FG402")]


def test_requires_grad_call_on_a_tensor_not_on_a_module():
    src = """
    import torch, torch.nn as nn
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.Linear(2, 2)
        def forward(self, x: torch.Tensor):
            self.enc.requires_grad_(False)
            self.requires_grad_(False)
            return torch.zeros_like(x).requires_grad_()
    """
    assert [(f.line, f.code) for f in check(src)] == [(10, "FG406")]


def test_a_transform_module_called_as_a_module_runs_its_call(tmp_path):
    """A class that is both a `torch.distributions.Transform` and an `nn.Module` inherits `__call__`
    from `Transform` (first in its MRO), which runs `_call` (pyro's `TransformModule`s; probed: a
    tensor `if` in `_call` breaks the compiled module). With `nn.Module` first, `forward` runs; a plain
    `Transform` is no module. Through a base class of another file too."""
    src = """
    import torch
    from torch import nn
    from torch.distributions import transforms

    class T(transforms.Transform, nn.Module):
        def _call(self, x):
            return x

    class U(nn.Module, transforms.Transform):
        def _call(self, x):
            return x

    class P(transforms.Transform):
        def _call(self, x):
            return x
    """
    assert entries(src) == ["T._call"]
    from fullgraph.analysis.project import ProjectIndex

    (tmp_path / "base.py").write_text("import torch\n\n\nclass TransformModule(torch.distributions.Transform, "
                                      "torch.nn.Module):\n    pass\n")
    flow = tmp_path / "flow.py"
    flow.write_text("from base import TransformModule\n\n\nclass Flow(TransformModule):\n    def _call(self, x):\n"
                    "        if x.sum() > 0:\n            return x\n        return -x\n")
    report = analyze_document(flow.read_text(), str(flow), project=ProjectIndex([str(tmp_path)]))
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 6)]


def test_all_mode_does_not_compile_a_module_constructor():
    """`assume_compiled = "all"` checks every function but a module class's `__init__`: a module is
    built before it is compiled (vit-pytorch: 171 of 244 findings were `nn.Parameter(...)` there); a
    plain class's constructor and any other method stay entries."""
    src = """
    import torch
    from torch import nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.Parameter(torch.zeros(3))

        def reset(self):
            self.q = nn.Parameter(torch.zeros(3))

    class Helper:
        def __init__(self):
            self.p = nn.Parameter(torch.zeros(3))
    """
    assert entries(src, "all") == ["M.reset", "Helper.__init__"]


def test_an_epilogue_print_is_reported_when_the_entry_is_compiled_with_fullgraph(tmp_path):
    """A print after all tensor work costs no second graph, so it is not reported, unless the entry is
    compiled with `fullgraph=True` (the decorator, or `torch.compile(Model(), fullgraph=True)` here or
    in another workspace file): Dynamo then raises at the break (probed)."""
    from fullgraph.analysis.project import ProjectIndex

    model = tmp_path / "model.py"
    model.write_text("import torch\nfrom torch import nn\n\n\nclass A(nn.Module):\n    def forward(self, x):\n"
                     "        y = x * 2\n        print(y)\n        return y\n\n\nclass B(nn.Module):\n"
                     "    def forward(self, x):\n        y = x * 2\n        print(y)\n        return y\n\n\n"
                     "@torch.compile(fullgraph=True)\ndef f(x):\n    y = x + 1\n    print(y)\n    return y\n\n\n"
                     "@torch.compile\ndef g(x):\n    y = x + 1\n    print(y)\n    return y\n")
    (tmp_path / "train.py").write_text("import torch\n\nfrom model import A\n\nm = torch.compile(A(), fullgraph=True)\n")
    report = analyze_document(model.read_text(), str(model), project=ProjectIndex([str(tmp_path)]))
    assert [(f.code, f.line) for f in report.findings] == [("FG301", 8), ("FG301", 22)]
