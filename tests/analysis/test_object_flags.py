"""An object's construction decides its `self` flags: `Block(use_cache=False)` (or its default) with
`self.use_cache = use_cache` in `__init__` never runs `if self.use_cache:` code, compiled directly
or held as a submodule; a flag another statement of the class sets, or a non-literal argument,
decides nothing."""

import textwrap

from fullgraph.analysis.project import ProjectIndex
from fullgraph.engine import analyze_document

LIBRARY = """\
    from torch import nn

    class Block(nn.Module):
        def __init__(self, dim=4, recycle=False, cache=None):
            super().__init__()
            self.recycle = recycle
            self.cache = cache

        def forward(self, x):
            if self.recycle:
                x = x * x.sum().item()
            return self.tail(x)

        def tail(self, x):
            if self.cache is not None:
                print("cached", x)
            return x

    class Switched(Block):
        def enable(self):
            self.recycle = True
    """


def _run(tmp_path, user: str, library: str = LIBRARY):
    (tmp_path / "lib" / "fglib").mkdir(parents=True, exist_ok=True)
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent(library))
    path = tmp_path / "ws" / "user.py"
    path.write_text(textwrap.dedent(user))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    return [(f.code, f.line) for f in analyze_document(path.read_text(), str(path), project=project).findings]


def test_the_compiled_object_s_construction_decides_its_flags(tmp_path):
    assert _run(tmp_path, "import torch\nfrom fglib import Block\n\nm = Block()\nc = torch.compile(m)\n") == []
    assert _run(tmp_path, "import torch\nfrom fglib import Block\n\nc = torch.compile(Block(4, True, cache=1))\n") \
        == [("FG201", 4), ("FG301", 4)]


def test_a_submodule_s_construction_in_init_decides_its_flags(tmp_path):
    user = """\
        import torch
        from torch import nn
        from fglib import Block

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.quiet = Block(recycle=False)

            def forward(self, x):
                return self.quiet(x)
        """
    assert _run(tmp_path, user) == []


def test_objects_that_disagree_decide_only_what_they_share(tmp_path):
    """One walk of `Block.forward` serves every block the module holds: the flags they disagree on
    decide nothing, so the loud block's breaks stay (reported at each call reaching them)."""
    user = """\
        import torch
        from torch import nn
        from fglib import Block

        class Net(nn.Module):
            def __init__(self, flag):
                super().__init__()
                self.quiet = Block(recycle=False)
                self.loud = Block(recycle=True, cache="c")

            def forward(self, x):
                return self.quiet(x) + self.loud(x)
        """
    assert sorted(set(_run(tmp_path, user))) == [("FG201", 12), ("FG301", 12)]


def test_a_flag_another_statement_sets_decides_nothing(tmp_path):
    assert _run(tmp_path, "import torch\nfrom fglib import Switched\n\nc = torch.compile(Switched())\n") \
        == [("FG201", 4)]


DERIVED = """\
    import torch
    from torch import nn

    def safe_divide(num, denom, zero_division=0.0):
        if zero_division == "warn" and torch.any(denom == 0):
            print("zero division")
        zero_division = 0.0 if zero_division == "warn" else zero_division
        return torch.where(denom != 0, num / denom, torch.full_like(num, zero_division))

    class Score(nn.Module):
        def __init__(self, beta=2.0, zero_division=0.0, **kwargs):
            super().__init__()
            self.beta = beta
            self.zero_division = zero_division

        def forward(self, tp, fp):
            return safe_divide(tp, tp + fp, zero_division=self.zero_division) * self.beta

    class F1(Score):
        def __init__(self, zero_division=0.0, **kwargs):
            super().__init__(beta=1.0, zero_division=zero_division, **kwargs)
    """


def test_a_base_init_a_subclass_calls_decides_flags_it_passes_a_literal(tmp_path):
    """`F1()` passes its `zero_division` default on to `Score.__init__`, which stores it: the object's
    `self.zero_division` is 0.0, so `safe_divide(..., zero_division=self.zero_division)` never takes
    its `== "warn"` branch (read before the body rebinds the parameter); `F1(zero_division="warn")`
    does."""
    quiet = "import torch\nfrom fglib import F1\n\nc = torch.compile(F1())\n"
    assert _run(tmp_path, quiet, DERIVED) == []
    warned = "import torch\nfrom fglib import F1\n\nc = torch.compile(F1(zero_division='warn'))\n"
    assert [code for code, _ in _run(tmp_path, warned, DERIVED)] == ["FG101", "FG301"]

