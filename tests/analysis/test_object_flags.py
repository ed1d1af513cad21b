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


def _run(tmp_path, user: str):
    (tmp_path / "lib" / "fglib").mkdir(parents=True, exist_ok=True)
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent(LIBRARY))
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
