"""An object's construction decides its `self` flags: `Block(use_cache=False)` (or its default) with
`self.use_cache = use_cache` in `__init__` never runs `if self.use_cache:` code, compiled directly
or held as a submodule; a flag another statement of the class sets, or a non-literal argument,
decides nothing."""

import textwrap

import pytest

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



def test_an_int_and_a_float_literal_decide_alike(tmp_path):
    """One call passes the object's `zero_division=0`, another leaves the default `0.0`: both are
    not `"warn"`, so the branch stays decided (torchmetrics' `_safe_divide`, also called by a helper
    that leaves the default)."""
    both = DERIVED.replace("def __init__(self, zero_division=0.0", "def __init__(self, zero_division=0") + """
    def weighted(score, weights):
        return safe_divide(weights * score, weights.sum())

    class Weighted(F1):
        def forward(self, tp, fp):
            return weighted(safe_divide(tp, tp + fp, zero_division=self.zero_division), tp)
    """
    quiet = "import torch\nfrom fglib import Weighted\n\nc = torch.compile(Weighted())\n"
    assert _run(tmp_path, quiet, both) == []


def test_a_method_called_through_super_runs_on_the_same_object(tmp_path):
    """`super().forward(tp, fp)` runs the base's `forward` on the object compiled: its flags
    (`zero_division` left at 0.0) decide the base's branches as for `self.forward(...)`."""
    through_super = DERIVED + """
    class Doubled(F1):
        def forward(self, tp, fp):
            return super().forward(tp, fp) * 2
    """
    quiet = "import torch\nfrom fglib import Doubled\n\nc = torch.compile(Doubled())\n"
    assert _run(tmp_path, quiet, through_super) == []
    warned = "import torch\nfrom fglib import Doubled\n\nc = torch.compile(Doubled(zero_division='warn'))\n"
    assert [code for code, _ in _run(tmp_path, warned, through_super)] == ["FG101", "FG301"]


POPPED = """\
    import torch
    from torch import nn

    def safe_divide(num, denom, zero_division=0.0):
        if zero_division == "warn" and torch.any(denom == 0):
            print("zero division")
        return num / denom

    class Base(nn.Module):
        def __init__(self, **kwargs):
            super().__init__()

    class Precision(Base):
        def __init__(self, threshold=0.5, **kwargs):
            zero_division = kwargs.pop("zero_division", 0)
            super().__init__(**kwargs)
            self.zero_division = zero_division

        def forward(self, tp, fp):
            return safe_divide(tp, tp + fp, self.zero_division)

    class Recall(Precision):
        def __init__(self, **kwargs):
            super().__init__(threshold=0.3, **kwargs)
    """


@pytest.mark.parametrize("made, flagged", [
    ("Precision()", False),
    ("Recall()", False),  # the keywords passed on through `**kwargs` do not hold it either
    ("Precision(zero_division='warn')", True),
    ("Recall(zero_division='warn')", True),
    ("Precision(**options)", True),  # unknown keywords
])
def test_a_keyword_popped_from_kwargs_with_a_literal_default(tmp_path, made, flagged):
    """`zero_division = kwargs.pop("zero_division", 0)`, then `self.zero_division = zero_division`: the
    object holds the default where no keyword reaches `**kwargs` with that name (torchmetrics'
    `BinaryStatScores`)."""
    user = f"import torch\nfrom fglib import Precision, Recall\n\noptions = {{}}\nc = torch.compile({made})\n"
    assert bool(_run(tmp_path, user, POPPED)) is flagged


def test_a_parameter_rebound_before_the_store_is_not_its_default(tmp_path):
    """torch-geometric's `GCNConv`: `if add_self_loops is None: add_self_loops = normalize`, then
    `self.add_self_loops = add_self_loops`: the object holds `normalize`, not the default None, so
    `if self.add_self_loops:` code stays reported."""
    library = """\
    import torch
    from torch import nn

    class Conv(nn.Module):
        def __init__(self, add_loops=None, normalize=True):
            super().__init__()
            if add_loops is None:
                add_loops = normalize
            self.add_loops = add_loops

        def forward(self, x):
            if self.add_loops:
                print(x.sum().item())
            return x
    """
    user = "import torch\nfrom fglib import Conv\n\nc = torch.compile(Conv())\n"
    assert sorted({code for code, _ in _run(tmp_path, user, library)}) == ["FG201", "FG301"]


def test_a_local_bound_once_to_a_test_of_the_flags_is_that_test(tmp_path):
    """`should_drop = self.training and self.drop` then `if should_drop:`: with `drop` left False by
    the construction, the branch never runs, as `if self.training and self.drop:` would not."""
    library = """\
    import torch
    from torch import nn

    class Dropper(nn.Module):
        def __init__(self, drop=False):
            super().__init__()
            self.drop = drop

        def forward(self, x):
            should_drop = self.training and self.drop
            if should_drop:
                print(x.sum().item())
            return x * 2
    """
    quiet = "import torch\nfrom fglib import Dropper\n\nc = torch.compile(Dropper())\n"
    assert _run(tmp_path, quiet, library) == []
    loud = "import torch\nfrom fglib import Dropper\n\nc = torch.compile(Dropper(drop=True))\n"
    assert sorted({code for code, _ in _run(tmp_path, loud, library)}) == ["FG201", "FG301"]


def test_a_flag_stored_as_and_of_a_false_literal_is_false(tmp_path):
    """`self.quantize_dropout = quantize_dropout and num_quantizers > 1` with `quantize_dropout`
    left False is False whatever the other operand (vector-quantize-pytorch's `ResidualSimVQ`)."""
    library = """\
    import torch
    from torch import nn

    class Residual(nn.Module):
        def __init__(self, layers=2, dropout=False):
            super().__init__()
            self.dropout = dropout and layers > 1

        def forward(self, x):
            if self.dropout:
                print(x.sum().item())
            return x * 2
    """
    assert _run(tmp_path, "import torch\nfrom fglib import Residual\n\nc = torch.compile(Residual())\n", library) == []
    loud = "import torch\nfrom fglib import Residual\n\nc = torch.compile(Residual(dropout=True))\n"
    assert sorted({code for code, _ in _run(tmp_path, loud, library)}) == ["FG201", "FG301"]


def test_a_constant_init_stores_is_not_a_flag_of_the_construction(tmp_path):
    """`self.checkpointing = False` in `__init__`, which code elsewhere turns on
    (`model.gradient_checkpointing_enable()` sets it on every submodule): what it guards stays reported."""
    library = """\
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.checkpointing = False

        def forward(self, x):
            if self.checkpointing and self.training:
                print(x.sum().item())
            return x * 2
    """
    user = "import torch\nfrom fglib import Block\n\nc = torch.compile(Block())\n"
    assert sorted({code for code, _ in _run(tmp_path, user, library)}) == ["FG201", "FG301"]
