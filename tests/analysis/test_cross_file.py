"""The engine with the project index: regions, module-ness and loggers across files."""

import textwrap

import pytest

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze_document

LIB = {
    "lib/biglib/__init__.py": "from .modeling import *\nfrom .utils import logging\n",
    "lib/biglib/modeling.py": """
        import torch
        from torch import nn
        __all__ = ["PreTrained", "scale_if_positive", "wrap_forward", "is_tracing"]
        class Base(nn.Module):
            def helper(self, x):
                if x.sum() > 0:
                    return x
                return -x
        class PreTrained(Base):
            pass
        def scale_if_positive(x):
            if x.max() > 0:
                return x * 2
            return x
        def is_tracing(t=None):
            found = torch.compiler.is_compiling() or t is None
            return found
        def wrap_forward(fn):
            def wrapper(self, *args, **kwargs):
                print("calling", fn)
                return fn(self, *args, **kwargs)
            return wrapper
        """,
    "lib/biglib/utils/__init__.py": "",
    "lib/biglib/utils/logging.py": """
        import logging as _std
        def get_logger(name):
            return _std.getLogger(name)
        """,
}


def make(tmp_path, files):
    for name, text in {**LIB, **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))


def run(project, tmp_path, name, config=None):
    path = tmp_path / "ws" / name
    return analyze_document(path.read_text(), str(path), config or Config(), project=project)


def codes(report):
    return [(f.line, f.code) for f in report.findings]


def named_in(report):
    """What a report's findings say, and the library lines their related locations name."""
    return sorted({r.message.split("(")[0] for f in report.findings for r in f.related} | {f.message for f in report.findings})


MODEL = """
    import torch
    from biglib import PreTrained, logging, scale_if_positive, wrap_forward, is_tracing
    logger = logging.get_logger(__name__)
    class Middle(PreTrained):
        pass
    class Encoder(Middle):
        def forward(self, x):
            if torch.rand([]) < 0.5:
                x = x + 1
            logger.warning_once("hi")
            y = scale_if_positive(x)
            if not is_tracing(y) and y.any():
                y = y + 1
            return self.helper(y)
    """


def test_module_through_files_logger_library_calls(tmp_path):
    project = make(tmp_path, {"ws/model.py": MODEL})
    report = run(project, tmp_path, "model.py")
    assert codes(report) == [(9, "FG101"), (11, "FG302"), (12, "FG101"), (15, "FG101")]
    by_line = {f.line: f for f in report.findings}
    assert "calls `scale_if_positive`, which breaks in library code at biglib/modeling.py:13" in by_line[12].message
    assert by_line[15].message.startswith("calls `self.helper`")
    assert by_line[12].related[0].path.endswith("modeling.py")
    without = analyze_document((tmp_path / "ws/model.py").read_text(), "model.py")
    assert codes(without) == []  # one file alone: `Encoder` is not known to be a module


def test_decorator_wrapping_forward_counts_as_a_call(tmp_path):
    project = make(tmp_path, {"ws/model.py": """
        from torch import nn
        from biglib import wrap_forward
        class Net(nn.Module):
            @wrap_forward
            def forward(self, x):
                return x
        """})
    [finding] = run(project, tmp_path, "model.py").findings
    assert (finding.line, finding.code) == (5, "FG301") and "@wrap_forward" in finding.message


def test_workspace_helper_findings_appear_in_their_file(tmp_path):
    project = make(tmp_path, {
        "ws/helpers.py": "def clip(x):\n    if x.max() > 1:\n        return x / x.max()\n    return x\n",
        "ws/model.py": "from torch import nn\nfrom helpers import clip\nclass Net(nn.Module):\n"
                       "    def forward(self, x):\n        return clip(x)\n",
    })
    report = run(project, tmp_path, "model.py")
    assert report.findings == []
    [finding] = report.elsewhere
    assert finding.path.endswith("helpers.py") and (finding.line, finding.code) == (2, "FG101")
    assert [r.line for r in finding.related] == [4, 5] and finding.related[0].path.endswith("model.py")


def test_torch_compile_in_another_file_makes_an_entry(tmp_path):
    project = make(tmp_path, {
        "ws/model.py": "class Net:\n    def forward(self, x):\n        print(x)\n        return x\n",
        "ws/train.py": "import torch\nfrom model import Net\nnet = Net()\nfast = torch.compile(net)\n",
    })
    report = run(project, tmp_path, "model.py", Config(assume_compiled="decorated"))
    assert [e.message for e in report.entries] == ["Net.forward"]
    [finding] = report.findings
    assert finding.code == "FG301" and finding.related[-1].path.endswith("train.py")
    assert finding.related[-1].line == 4


@pytest.mark.parametrize(("train", "entry"), [
    ("net = Net()\nsample = torch.compile(net.sample)\n", "Net.sample"),  # a method of an instance
    ("sample = torch.compile(Net().sample)\n", "Net.sample"),
    ("import model\nstep = torch.compile(model.step)\n", "step"),  # a function through its module
])
def test_a_method_or_function_compiled_in_another_file_is_an_entry(tmp_path, train, entry):
    project = make(tmp_path, {
        "ws/model.py": "class Net:\n    def sample(self, x):\n        print(x)\n        return x\n"
                       "def step(x):\n    print(x)\n    return x\n",
        "ws/train.py": "import torch\nfrom model import Net\n" + train,
    })
    report = run(project, tmp_path, "model.py", Config(assume_compiled="decorated"))
    assert [e.message for e in report.entries] == [entry]
    [finding] = report.findings
    assert finding.code == "FG301" and finding.related[-1].path.endswith("train.py")


def test_a_class_compiling_its_own_method_makes_it_an_entry(tmp_path):
    project = make(tmp_path, {"ws/model.py": """
        import torch
        class Sampler:
            def __init__(self):
                self.step = torch.compile(self.step)
            def step(self, x):
                print(x)
                return x
            def other(self, x):
                print(x)
                return x
        """})
    report = run(project, tmp_path, "model.py", Config(assume_compiled="decorated"))
    assert [e.message for e in report.entries] == ["Sampler.step"]
    assert codes(report) == [(7, "FG301")]


def test_submodules_and_processors_of_other_files_are_followed(tmp_path):
    """Calling `self.attn` runs the `forward` of the module class another file defines, and
    calling `self.processor` (a parameter annotated with a class) runs that class's `__call__`."""
    project = make(tmp_path, {
        "ws/blocks.py": """
            import torch
            from torch import nn
            class Processor:
                def __call__(self, attn, x):
                    if x.sum() > 0:
                        return x
                    return -x
            class Attention(nn.Module):
                def __init__(self, processor: "Processor"):
                    super().__init__()
                    self.processor = processor
                def forward(self, x):
                    return self.processor(self, x)
            """,
        "ws/model.py": """
            from torch import nn
            from blocks import Attention, Processor
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.attn = Attention(Processor())
                def forward(self, x):
                    return self.attn(x)
            """,
    })
    report = run(project, tmp_path, "model.py")
    assert [(f.path.rpartition("/")[2], f.line, f.code) for f in report.elsewhere] == [("blocks.py", 6, "FG101")]


def test_typed_dicts_with_optional_keys_across_files(tmp_path):
    """FG415 for a TypedDict class another file declares with optional keys (directly or through
    a base); not for one whose keys are all required, nor for a local variable of that name."""
    project = make(tmp_path, {
        "ws/messages.py": """
            from typing import NotRequired, TypedDict
            class Message(TypedDict, total=False):
                name: str
            class Base(TypedDict):
                mask: NotRequired[int]
            class Site(Base):
                name: str
            class Full(TypedDict):
                name: str
            """,
        "ws/model.py": """
            import torch
            from messages import Full, Message, Site
            @torch.compile
            def step(x):
                a = Message(name="a")
                b = Site(name="b")
                c = Full(name="c")
                return x
            @torch.compile
            def local(x, Message):
                return Message(name="d"), x
            """,
    })
    assert codes(run(project, tmp_path, "model.py")) == [(6, "FG415"), (7, "FG415")]


def test_a_submodule_a_base_class_in_another_file_sets_is_called(tmp_path):
    """`self.distance` is set by the `__init__` of a base class two files up (`Default() if given
    is None else given`, the default made by a method): calling it gives a tensor, so the mask built
    from its output is one, and the break in its `forward` is reported in its file."""
    project = make(tmp_path, {
        "ws/distances.py": """
            import torch
            from torch import nn
            class LpDistance(nn.Module):
                def forward(self, a, b):
                    if a.sum() > 0:
                        a = a * 2
                    return torch.cdist(a, b)
            """,
        "ws/records.py": """
            from torch import nn
            from distances import LpDistance
            class WithDistance(nn.Module):
                def __init__(self, distance=None):
                    super().__init__()
                    self.distance = self.default_distance() if distance is None else distance
                def default_distance(self):
                    return LpDistance()
            """,
        "ws/base_miner.py": """
            from records import WithDistance
            class BaseMiner(WithDistance):
                pass
            """,
        "ws/miner.py": """
            import torch
            from base_miner import BaseMiner
            class Miner(BaseMiner):
                def forward(self, x: torch.Tensor, idx: torch.Tensor):
                    mat = self.distance(x, x)
                    return idx[mat[0] > 0.5]
            """,
    })
    report = run(project, tmp_path, "miner.py")
    assert codes(report) == [(7, "FG453")]
    assert [(f.path.rpartition("/")[2], f.line, f.code) for f in report.elsewhere] == [("distances.py", 6, "FG101")]


def test_library_code_a_workspace_file_compiles_is_reported_at_the_compile_call(tmp_path):
    """`torch.compile(Block())` (or of an instance, or of a function) where `Block` comes from an
    installed library: its breaks are reported once each at the first compile call, naming the library
    line (pytorch-tabnet's `torch.compile(TabNet(...))` gave nothing; probed: Dynamo breaks there); a
    workspace class compiled there is an entry of its own file instead."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(
        "import torch\nfrom torch import nn\n\n\ndef helper(x):\n    return x * x.max().item()\n\n\n"
        "class Block(nn.Module):\n    def forward(self, x):\n        if x.sum() > 0:\n            return x * 2\n"
        "        return helper(x)\n\n\ndef fn(x):\n    print(x)\n    return x\n")
    (tmp_path / "ws" / "mine.py").write_text("from torch import nn\n\n\nclass Mine(nn.Module):\n"
                                             "    def forward(self, x):\n        print(x)\n        return x\n")
    train = tmp_path / "ws" / "train.py"
    train.write_text("import torch\n\nfrom fglib import Block, fn\nfrom mine import Mine\n\n"
                     "model = torch.compile(Block())\nm = Block()\nm2 = torch.compile(m)\nf = torch.compile(fn)\n"
                     "g = torch.compile(Mine())\n")
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(train.read_text(), str(train), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 6), ("FG201", 6), ("FG301", 9)]
    assert report.findings[0].message.startswith("compiles `Block()`, which breaks in library code at ")
    assert report.entries == []  # the library's functions are not this file's entries


def test_a_library_finding_is_silenced_by_a_comment_on_the_call(tmp_path):
    """The finding at the user's call line for a break in library code obeys the line's ignore or
    noqa comment, on the call's first or last line, like any other finding (it did not)."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(
        "def helper(x):\n    if x.sum() > 0:\n        return x * 2\n    return x\n")
    model = tmp_path / "ws" / "model.py"
    source = ("import torch\nfrom torch import nn\nfrom fglib import helper\n\n\nclass M(nn.Module):\n"
              "    def forward(self, x):\n        y = helper(x){first}\n        return helper(\n            y){last}\n")
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    plain = source.format(first="", last="")
    assert [(f.line, f.code) for f in analyze_document(plain, str(model), project=project).findings] == \
        [(8, "FG101"), (9, "FG101")]
    silenced = source.format(first="  # fullgraph: ignore[FG1]", last="  # noqa: FG101")
    assert analyze_document(silenced, str(model), project=project).findings == []


def test_a_module_level_instance_called_in_compiled_code_runs_its_forward(tmp_path):
    """`blk = Block()` at module level, then `blk(x)` in a compiled function: Dynamo inlines
    `Block.forward`, from an installed library (reported at the call) or from this file (probe:
    zuko's `flow = MAF(...)`, a user's `model = Net()`); nothing was followed before."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(
        "from torch import nn\n\n\nclass Block(nn.Module):\n    def forward(self, x):\n"
        "        if x.sum() > 0:\n            return x * 2\n        return x\n")
    train = tmp_path / "ws" / "train.py"
    train.write_text(textwrap.dedent("""\
        import torch
        from torch import nn
        from fglib import Block

        class Mine(nn.Module):
            def forward(self, x):
                print(x)
                return x

        blk = Block()
        mine = Mine()

        @torch.compile
        def step(x):
            return blk(x) + mine(x)
        """))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(train.read_text(), str(train), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG301", 7), ("FG101", 15)]
    assert report.findings[1].message.startswith("calls `blk`, which breaks in library code at fglib/__init__.py:6")


def test_methods_of_plain_objects_run_wherever_their_class_is_defined(tmp_path):
    """An object of a plain library class, made in compiled code or passed to a parameter
    annotated with its class (`Optional[...]` too): calling its method runs the method, and a
    break inside is reported at the user's call; `assert` on it is FG111. A parameter annotated
    with an nn.Module class of the library is not an object of this kind (its call runs `forward`)."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent("""\
        import pickle
        from torch import nn

        class Cache:
            def __init__(self):
                self.store = {}

            def update(self, x, **options):
                self.store[pickle.dumps(options)] = x
                return x

            def fetch(self, x, **options):
                return self.store.get(pickle.dumps(options), x)

            def drop(self, x, **options):
                self.store.pop(pickle.dumps(options), None)
                return x

        class Net(nn.Module):
            def update(self, x):
                return x
        """))
    model = tmp_path / "ws" / "model.py"
    model.write_text(textwrap.dedent("""\
        from typing import Optional

        import torch
        from fglib import Cache, Net

        @torch.compile
        def step(x, cache: Optional[Cache] = None, net: Net = None, spare: "Cache | None" = None):
            made = Cache()
            assert made
            y = made.update(x)
            if cache is not None:
                y = cache.fetch(y)
            y = spare.drop(y)
            return net.update(y)
        """))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG111", 9), ("FG411", 10), ("FG411", 12), ("FG411", 13)]
    assert report.findings[1].message.startswith("calls `made.update`, which breaks in library code at fglib/__init__.py:9")


def test_a_method_of_the_object_a_call_returns_runs(tmp_path):
    """`flow(c).log_prob(x)` (zuko's shape): a library module's `forward` returns an object of one
    plain class; calling its method runs it, and its break is reported at the user's call."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent("""\
        from torch import nn

        class Density:
            def __init__(self, scale):
                self.scale = scale

            def log_prob(self, x):
                if x.max() > 10:
                    return x * 0
                return -x.square() / self.scale

        class Flow(nn.Module):
            def forward(self, c):
                return Density(c.exp())
        """))
    train = tmp_path / "ws" / "train.py"
    train.write_text(textwrap.dedent("""\
        import torch
        from fglib import Flow

        flow = Flow()

        @torch.compile
        def loss(x, c):
            return -flow(c).log_prob(x).mean()
        """))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(train.read_text(), str(train), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 8)]
    assert report.findings[0].message.startswith("calls `flow(c).log_prob`, which breaks in library code at fglib/__init__.py:8")


def test_a_library_break_is_reported_at_every_call_that_reaches_it(tmp_path):
    project = make(tmp_path, {"ws/model.py": """
        import torch
        from torch import nn
        from biglib import scale_if_positive
        class Net(nn.Module):
            def forward(self, x):
                y = scale_if_positive(x)
                z = scale_if_positive(x + 1)
                return y + z + self.twice(x)
            def twice(self, x):
                return scale_if_positive(x) * 2
        """})
    report = run(project, tmp_path, "model.py")
    assert codes(report) == [(7, "FG101"), (8, "FG101"), (11, "FG101")]  # the helper's call, in the helper
    for line in (8, 11):
        assert report.findings[[7, 8, 11].index(line)].message.startswith(
            "calls `scale_if_positive`, which breaks in library code at biglib/modeling.py:13")


def test_an_attribute_of_an_object_of_a_library_class_has_the_fact_its_init_gives(tmp_path):
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent("""\
        import torch

        class Tally:
            def __init__(self, steps):
                self.total = torch.zeros(())
                self.steps = steps
                self.name = "tally"
        """))
    model = tmp_path / "ws" / "model.py"
    model.write_text(textwrap.dedent("""\
        from torch import nn
        from fglib import Tally

        class Net(nn.Module):
            def forward(self, x):
                tally = Tally(3)
                if tally.total > 0:
                    x = x + 1
                if tally.name == "tally":
                    x = x * 2
                return x
        """))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 7)]


def _library_and_model(tmp_path, library: str, model: str):
    """A library package `fglib` (its `__init__.py`) on the search path and the workspace file
    `model.py`; the model's path and the project index."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent(library))
    path = tmp_path / "ws" / "model.py"
    path.write_text(textwrap.dedent(model))
    return path, ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))


def test_indexing_an_object_runs_its_item_methods_wherever_its_class_is_defined(tmp_path):
    """`x[i]` on an object of a known class runs its `__getitem__` (`x[i] = v`, `__setitem__`), as
    Dynamo inlines them: a break inside is reported at the user's subscript. A subscript of a
    tensor, or of an object whose class defines no item method, calls nothing."""
    model, project = _library_and_model(tmp_path, """\
        import torch

        def _batched(count: torch.Tensor):
            return torch.arange(count.numel()).repeat_interleave(count)

        class Ragged:
            def __init__(self, values, offset):
                self.values, self.offset = values, offset

            def __getitem__(self, i):
                return self.values[_batched(self.offset[1:] - self.offset[:-1])]

            def __setitem__(self, i, value):
                print("storing", i)

        class Plain:
            pass
        """, """\
        import torch
        from fglib import Plain, Ragged

        @torch.compile
        def step(x, feat: Ragged, other: Plain):
            y = feat[0] + x[0]
            feat[1] = y
            return other[0], y
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line, f.col) for f in report.findings] == [("FG455", 6, 8), ("FG301", 7, 4)]
    assert report.findings[0].message.startswith("calls `feat.__getitem__`, which breaks in library code at fglib/__init__.py:4")


def test_len_iteration_and_membership_run_special_methods_wherever_the_class_is_defined(tmp_path):
    """`len(x)`, `for v in x` (a comprehension too) and `a in x` on an object of a known class run
    its `__len__`, `__iter__` and `__contains__`, as Dynamo inlines them; a class without them, a
    tensor, and a `len` the file defines run nothing."""
    model, project = _library_and_model(tmp_path, """\
        class Bag:
            def __len__(self):
                print("len")
                return 2

            def __iter__(self):
                print("iter")
                return iter([1, 2])

            def __contains__(self, item):
                print("contains", item)
                return True

        class Plain:
            pass
        """, """\
        import torch
        from fglib import Bag, Plain

        @torch.compile
        def step(x, bag: Bag, other: Plain):
            n = len(bag) + len(x)
            for v in bag:
                x = x + v
            ys = [v for v in bag]
            if 3 in bag and 3 not in [1]:
                x = x + 1
            return x, n, ys, len(other)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line, f.col) for f in report.findings] == [
        ("FG301", 6, 8), ("FG301", 7, 13), ("FG301", 9, 21), ("FG301", 10, 7)]
    assert report.findings[1].message.startswith("calls `bag.__iter__`, which breaks in library code at fglib/__init__.py:7")
    shadowed = model.read_text().replace("import torch\n", "import torch\n\ndef len(x):\n    return 1\n", 1)
    assert [f.line for f in analyze_document(shadowed, str(model), project=project).findings] == [10, 12, 13]


def test_a_keyword_partial_of_a_library_function_runs_it_and_an_import_fallback_does_not_replace_it(tmp_path):
    """`einsum = functools.partial(contract, backend="torch")` in a `try` whose `except ImportError`
    falls back to `torch.einsum`: the import works, so a call of `einsum` runs `contract` (in this
    file or another); a partial that binds positional arguments is not followed (they would shift)."""
    project = make(tmp_path, {
        "lib/slowsum.py": """
            import sys
            def contract(spec, *operands, backend="auto"):
                sys._getframe(1)
                return operands[0]
            """,
        "ws/helpers.py": """
            import functools
            import torch
            try:
                from slowsum import contract
                einsum = functools.partial(contract, backend="torch")
                shifted = functools.partial(contract, "ij->ij")
            except ImportError:
                einsum = torch.einsum
                shifted = torch.einsum
            """,
        "ws/model.py": """
            from functools import partial
            from torch import nn
            from slowsum import contract
            from helpers import einsum, shifted
            local = partial(contract, backend="torch")
            class Net(nn.Module):
                def forward(self, x):
                    a = einsum("ij->ij", x)
                    b = local("ij->ij", x)
                    return shifted(x) + a + b
            """})
    report = run(project, tmp_path, "model.py")
    assert codes(report) == [(9, "FG411"), (10, "FG411")]
    assert "calls `einsum`, which breaks in library code at slowsum.py:4" in report.findings[0].message


def test_a_generic_base_class_in_another_file_makes_a_module(tmp_path):
    """`class Impl(Base[Tensor])`: a subscripted (generic) base is the class `Base`, an `nn.Module`."""
    project = make(tmp_path, {
        "ws/base.py": """
            from typing import Generic, TypeVar
            from torch import nn
            T = TypeVar("T")
            class Base(nn.Module, Generic[T]):
                pass
            """,
        "ws/model.py": """
            import torch
            from base import Base
            class Impl(Base[torch.Tensor]):
                def forward(self, x: torch.Tensor):
                    if x.sum() > 0:
                        x = x * 2
                    return x
            """})
    assert codes(run(project, tmp_path, "model.py")) == [(6, "FG101")]


def test_a_sparse_tensor_a_helper_in_another_file_returns_is_flagged_where_it_is_read(tmp_path):
    project = make(tmp_path, {
        "ws/graphs.py": """
            import torch
            def stacked(src, dst, n):
                return torch.sparse_coo_tensor(torch.stack([src, dst]), torch.ones(len(src)), (n, n))
            def dense(src, dst, n):
                return torch.zeros(n, n).index_put((src, dst), torch.ones(len(src)))
            """,
        "ws/model.py": """
            import torch
            from torch import nn
            from graphs import dense, stacked
            class Net(nn.Module):
                def forward(self, x, src, dst):
                    adj = stacked(src, dst, x.shape[0])
                    if x.shape[1] > 4:
                        h = self.mix(x, adj)
                    else:
                        h = torch.spmm(adj, x)
                    near = dense(src, dst, x.shape[0])
                    return h + near @ x
                def mix(self, x, adj):
                    return torch.sparse.mm(adj, x) + torch.sparse.mm(adj, x * 2)
            """,
    })
    report = run(project, tmp_path, "model.py")
    assert codes(report) == [(9, "FG420"), (11, "FG420"), (15, "FG420")]  # once per path and statement, not per read
    assert "`adj` is a sparse tensor" in report.findings[0].message
    [built] = report.elsewhere
    assert built.path.endswith("graphs.py") and (built.line, built.code) == (4, "FG414")


def test_a_call_reaching_several_library_breaks_of_a_rule_names_the_surest_and_counts_the_rest(tmp_path):
    """One finding per user line and rule: it names the break the call reaches under no condition
    and through the fewest calls (not the first walked, here one in training mode only), and counts
    and lists the others, each in the related information."""
    model, project = _library_and_model(tmp_path, """\
        from torch import nn

        class Block(nn.Module):
            def forward(self, x):
                if self.training:
                    if x.sum() > 0:
                        x = x * 2
                return helper(x)

        def helper(x):
            if x.max() > 1:
                x = x - 1
            return deeper(x)

        def deeper(x):
            if x.min() < 0:
                x = x + 1
            return x
        """, """\
        from torch import nn
        from fglib import Block

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blk = Block()

            def forward(self, x):
                return self.blk(x)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 10)]
    finding = report.findings[0]
    assert finding.message.startswith("calls `self.blk`, which breaks in library code at fglib/__init__.py:11 (`helper`)")
    assert finding.message.endswith("; the call reaches 2 more library breaks of this kind "
                                    "(`fglib/__init__.py:6`, `fglib/__init__.py:16`)")
    assert [(r.line, r.message.partition(":")[0]) for r in finding.related] == [
        (11, "breaks here"), (8, "through here"), (6, "breaks here"), (16, "breaks here")]
    assert finding.related[1].message == "through here: `Block.forward` calls `helper`"  # how the call reaches it
    assert finding.data["library_lines"] == ["fglib/__init__.py:11", "fglib/__init__.py:6", "fglib/__init__.py:16"]


def test_a_library_break_reached_from_two_user_functions_names_only_library_calls_on_the_way(tmp_path, monkeypatch):
    """Two compiled functions of the user's file call the same library helper, the file named by a
    relative path (as `fullgraph check model.py` does): each finding's "through here" locations are
    the library's calls only, never the other function's call of the user's file."""
    model, project = _library_and_model(tmp_path, """\
        def helper(x):
            return inner(x)

        def inner(x):
            return x[x > 0]
        """, """\
        import torch
        import fglib

        @torch.compile
        def f(x):
            return fglib.helper(x)

        @torch.compile
        def g(x):
            return fglib.helper(x + 1)
        """)
    monkeypatch.chdir(model.parent)
    report = analyze_document(model.read_text(), "model.py", project=project)
    assert codes(report) == [(6, "FG453"), (10, "FG453")]
    for finding in report.findings:
        assert [(r.path.endswith("__init__.py"), r.line, r.message) for r in finding.related] == [
            (True, 5, "breaks here: `x[x > 0]` indexes with a boolean mask"),
            (True, 2, "through here: `helper` calls `inner`")]


def test_a_library_module_runs_its_inherited_forward_with_its_own_overrides(tmp_path):
    """A library class whose `forward` is its base's (torchmetrics' `Metric.forward` calling
    `self.update`, kornia's augmentation base calling `self.apply_transform`): compiled, or called
    as a submodule, `self.<m>(...)` in that `forward` runs the class's own override, as Dynamo
    dispatches it; the base's `step` does not break, the override's does. (A file compiling objects
    of both walks the base's `forward` once, for both: not covered here.)"""
    model, project = _library_and_model(tmp_path, """\
        from torch import nn

        class Base(nn.Module):
            def forward(self, x):
                return self.step(x)

            def step(self, x):
                return x

        class Child(Base):
            def step(self, x):
                if x.sum() > 0:
                    return x * 2
                return x
        """, """\
        import torch
        from torch import nn
        from fglib import Base, Child

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.child = Child()

            def forward(self, x):
                return self.child(x)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 11)]
    assert report.findings[0].message.startswith("calls `self.child`, which breaks in library code at "
                                                  "fglib/__init__.py:12 (`Child.step`)")
    script = model.with_name("script.py")
    for compiled, expected in (("Child", [("FG101", 4)]), ("Base", [])):
        script.write_text(f"import torch\nfrom fglib import {compiled}\n\ncompiled = torch.compile({compiled}())\n")
        report = analyze_document(script.read_text(), str(script), project=project)
        assert [(f.code, f.line) for f in report.findings] == expected
    script.write_text("import torch\nfrom fglib import Child\n\ncompiled = torch.compile(Child())\n")
    report = analyze_document(script.read_text(), str(script), project=project)
    assert report.findings[0].message.startswith("compiles `Child()`, which breaks in library code at "
                                                  "fglib/__init__.py:12 (`Child.step`)")


def test_a_library_break_after_an_early_return_on_the_library_s_own_values_is_left_out(tmp_path):
    """Below `if a.shape == b.shape: return torch.where(...)` (kornia's blend) the library's code
    runs only when the shapes differ, which the user cannot tell: no finding. Below an early return
    the user's side decides (`if not self.training: return x`), the finding stays and names it."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def blend(a, b, keep):
            if a.shape == b.shape:
                return torch.where(keep, a, b)
            if bool(keep.any()):
                return a
            return b

        class Block(nn.Module):
            def forward(self, x):
                y = blend(x, x * 2, x > 0)
                if not self.training:
                    return y
                if y.sum() > 0:
                    y = y + 1
                return y
        """, """\
        import torch
        from fglib import Block

        compiled = torch.compile(Block())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert report.findings[0].message.endswith("(in training mode only)")


def test_a_library_break_where_its_tensors_hold_elements_is_reported_naming_the_check(tmp_path):
    """Past `if y.numel() == 0: return y` (or `len(a) == 0`, `continue` in a loop), and inside
    `if not _is_empty(b):` (a helper returning `t.numel() == 0`), the library runs whenever its
    tensors hold anything, the common path: the break is the user's, named "unless ...". Inside
    `if len(extra) > 0:` on a Python list (leftover names, empty on the common path) it stays left
    out."""
    model, project = _library_and_model(tmp_path, """\
        import torch

        OPTIONS = {}

        def _part(x):
            return x.flatten()

        def _is_empty(t):
            'Whether t holds nothing.'
            return t.numel() == 0

        def pick(x):
            y = _part(x)
            if y.numel() == 0:
                return y
            return y[y > 0]

        def each(xs):
            for x in xs:
                a = _part(x)
                if len(a) == 0:
                    continue
                a.nonzero()
            b = _part(xs[0])
            if not _is_empty(b):
                b.tolist()
            extra = [name for name in OPTIONS if name.startswith("_")]
            if len(extra) > 0:
                print("extra", extra)
            return xs
        """, """\
        import torch
        import fglib

        @torch.compile
        def f(x):
            return fglib.pick(x)

        @torch.compile
        def g(xs):
            return fglib.each(xs)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert codes(report) == [(6, "FG453"), (10, "FG202"), (10, "FG451")]
    assert report.findings[0].message.endswith("(unless `y.numel() == 0`)")
    assert "(unless `_is_empty(b)`)" in report.findings[1].message
    assert "(unless `len(a) == 0`)" in report.findings[2].message


def test_a_compiled_library_object_s_inherited_forward_sees_the_elements_its_override_makes(tmp_path):
    """torch-geometric's `GCN`: its base's `__init__` fills `self.convs = ModuleList()` with
    `self.init_conv(...)`, which `GCN` overrides to make a `GCNConv`; the base's `forward` loops over
    the convs. Compiling a `GCN` runs that `forward` on the `GCN` object, so its elements are
    `GCNConv`s and their breaks are the user's."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        class Conv(nn.Module):
            def forward(self, x):
                return x[x > 0]

        class Basic(nn.Module):
            def __init__(self, layers):
                super().__init__()
                self.convs = nn.ModuleList()
                for _ in range(layers):
                    self.convs.append(self.init_conv())

            def init_conv(self):
                raise NotImplementedError

            def forward(self, x):
                for conv in self.convs:
                    x = conv(x)
                return x

        class Net(Basic):
            def init_conv(self):
                return Conv()
        """, """\
        import torch
        from fglib import Net

        model = Net(layers=2)
        compiled = torch.compile(model)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert codes(report) == [(5, "FG453")]
    assert "breaks in library code at fglib/__init__.py:6 (`Conv.forward`)" in report.findings[0].message


def test_a_library_parameter_every_call_fills_with_the_users_values_decides_its_tests(tmp_path):
    """`is_image(space)` reached as `preprocess(obs, self.space)` from the compiled `forward`
    (stable-baselines3's `is_image_space`): `space` is the object's own state, which the user's side
    sets, so a break under `len(space.shape) == 3` is reported and names it; the recursive call for
    a dict of spaces passes `space[key]` on and keeps it so. Where the call passes a value the
    library computes (`x * 2`) or sits under a test of the library's own values, the parameter
    decides nothing and the break under it is left out."""
    model, project = _library_and_model(tmp_path, """\
        import numpy as np
        import torch
        from torch import nn

        def is_image(space, strict=False):
            check = not strict
            if len(space.shape) == 3:
                wrong = np.any(space.low != 0) or np.any(space.high != 255)
                if check and wrong:
                    return False
            return True

        def preprocess(obs, space):
            if isinstance(space, dict):
                return {key: preprocess(o, space[key]) for key, o in obs.items()}
            if is_image(space):
                return obs.float() / 255.0
            return obs.float()

        def scaled(x, y):
            if x.shape == y.shape:
                return x
            if len(y.shape) == 3:
                return x[x > 0]
            return x

        def ranked(x):
            if len(x.shape) == 3:
                return x[x > 0]
            return x

        def local(x):
            n = x.numel()
            if n > 3:
                return ranked(x)
            return x

        class Policy(nn.Module):
            def __init__(self, space):
                super().__init__()
                self.space = space

            def forward(self, obs):
                return preprocess(obs, self.space)

        class Scaled(nn.Module):
            def forward(self, x):
                return scaled(x, x * 2) + local(x)
        """, """\
        import torch
        from fglib import Policy, Scaled

        compiled = torch.compile(Policy(None))
        other = torch.compile(Scaled())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4), ("FG105", 4)]
    assert report.findings[1].message.endswith("(unless `isinstance(space, dict)`, when `len(space.shape) == 3`)")


def test_a_part_the_user_decides_of_a_compound_library_test_is_its_condition(tmp_path):
    """`if isinstance(state, tuple) and thresholds is not None: ... else: <break>` (torchmetrics'
    `_binary_roc_compute`): `state` is the library's own value, but whenever `thresholds` (the
    object's state) is None the `else` runs, so the break is reported under that part. A true `and`
    needs every part: one the user does not decide leaves the break out."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def compute(state, x, thresholds):
            if isinstance(state, tuple) and thresholds is not None:
                return x
            if x[-1] <= 0:
                return x * 0
            return x

        def both(state, x, thresholds):
            if isinstance(state, tuple) or thresholds is None:
                return x
            if x[-1] <= 0:
                return x * 0
            return x

        class Curve(nn.Module):
            def __init__(self, thresholds=None):
                super().__init__()
                self.thresholds = thresholds
                self.pair = torch.cuda.is_available()

            def forward(self, x: torch.Tensor):
                state = self.split(x)
                return compute(state, x, self.thresholds) + both(state, x, self.thresholds)

            def split(self, x):
                return (x, x) if self.pair else x
        """, """\
        import torch
        from fglib import Curve

        compiled = torch.compile(Curve())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert report.findings[0].message.endswith("(when `thresholds` is None)")
    assert "calls `both`" not in str(report.findings[0].related)


def test_a_library_early_return_each_part_of_which_the_user_decides_is_a_condition(tmp_path):
    """`if torch.are_deterministic_algorithms_enabled() or AVAILABLE or x.is_mps: return ...` before a
    break (torchmetrics' `_bincount`): a torch setting, a global and a device, each the user's, so the
    break is reported under that condition; a part on the library's own value (`x.sum() > 3`, a
    tensor the library computed) leaves it out."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        AVAILABLE = False

        def count(x):
            if torch.are_deterministic_algorithms_enabled() or AVAILABLE or x.is_mps:
                return x.sum()
            return torch.bincount(x)

        def other(x):
            if AVAILABLE or x.sum().item() > 3:
                return x.sum()
            return torch.bincount(x)

        class Counter(nn.Module):
            def forward(self, x: torch.Tensor):
                return count(x.long() * 2) + other(x.long())
        """, """\
        import torch
        from fglib import Counter

        compiled = torch.compile(Counter())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    named = [f for f in report.findings if f.code == "FG452"]
    assert len(named) == 1 and "at fglib/__init__.py:9 (`count`)" in named[0].message
    assert "when `x` is not on mps" in named[0].message and "more library break" not in named[0].message


def test_a_call_under_a_test_a_decided_part_stands_for_passes_decided_values(tmp_path):
    """`_multiclass_roc_compute` calls `_binary_roc_compute(..., thresholds=None)` in the `else` of
    `isinstance(state, Tensor) and thresholds is not None`: the part on the object's `thresholds`
    decides when that call runs, so the callee's `thresholds` is the user's (a literal), and its
    own test on it decides the break after it."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def binary(state, x, thresholds):
            if isinstance(state, tuple) and thresholds is not None:
                return x
            if x[-1] <= 0:
                return x * 0
            return x

        def multi(state, x, thresholds):
            if isinstance(state, tuple) and thresholds is not None:
                return x
            return binary(state, x * 2, thresholds=None)

        class Curve(nn.Module):
            def __init__(self, thresholds=None):
                super().__init__()
                self.thresholds = thresholds
                self.pair = torch.cuda.is_available()

            def forward(self, x: torch.Tensor):
                return multi(self.split(x), x, self.thresholds)

            def split(self, x):
                return (x, x) if self.pair else x
        """, """\
        import torch
        from fglib import Curve

        compiled = torch.compile(Curve())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert "at fglib/__init__.py:7 (`binary`)" in report.findings[0].message


def test_a_submodule_a_helper_of_init_makes_and_a_call_of_the_object_itself_are_followed(tmp_path):
    """stable-baselines3's DQN policy: `__init__` calls `self._build()`, which stores
    `self.q_net = self.make_q_net()`, a method returning `QNetwork(...).to(device)`; `forward` calls
    `self.q_net._predict(obs)`, which calls the object itself, `self(obs)`: its `forward` runs, with
    the argument bound as for `self.forward(obs)`."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def check(obs, scale):
            if scale is not None and obs.sum() > 0:
                return obs * scale
            return obs

        class QNet(nn.Module):
            def __init__(self, scale=None):
                super().__init__()
                self.scale = scale

            def forward(self, obs):
                return check(obs, self.scale)

            def predict(self, obs):
                return self(obs).argmax()

        class Policy(nn.Module):
            def __init__(self):
                super().__init__()
                self._build()

            def _build(self):
                self.q_net = self.make_q_net()

            def make_q_net(self):
                return QNet(scale=2.0).to("cpu")

            def forward(self, obs):
                return self.q_net.predict(obs)
        """, """\
        import torch
        from fglib import Policy

        compiled = torch.compile(Policy())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert "at fglib/__init__.py:5 (`check`)" in report.findings[0].message


def test_a_local_unpacked_from_the_users_value_is_the_users(tmp_path):
    """`B, C, H, W = input.shape` then `if H < 3: return ...` before a break (kornia's
    `conv_quad_interp3d`): the sizes are the user's input's, so the break is reported under them."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def interp(input):
            B, C, H, W = input.shape
            if H < 3 or W < 3:
                return input
            return torch.nonzero(input.reshape(B * C, H, W))

        class Interp(nn.Module):
            def forward(self, x: torch.Tensor):
                return interp(x)
        """, """\
        import torch
        from fglib import Interp

        compiled = torch.compile(Interp())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG451", 4)]
    assert report.findings[0].message.endswith("(unless `H < 3`, unless `W < 3`)")


def test_a_submodule_made_through_a_local_name_for_its_class_is_that_class(tmp_path):
    """`codebook_class = Codebook` then `self._codebook = codebook_class(dim=dim)` in a library
    (vector-quantize-pytorch): the submodule is a `Codebook`, whose `forward` the compiled holder runs."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        class Codebook(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.register_buffer("initted", torch.tensor(False))

            def forward(self, x):
                if self.initted:
                    return x
                return x * 2

        class Quantize(nn.Module):
            def __init__(self, dim):
                super().__init__()
                codebook_class = Codebook
                self._codebook = codebook_class(dim=dim)

            def forward(self, x):
                return self._codebook(x)
        """, """\
        import torch
        from fglib import Quantize

        compiled = torch.compile(Quantize(8))
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert "(`Codebook.forward`)" in report.findings[0].message


def test_a_library_parameter_read_before_the_body_rebinds_it_is_still_the_users(tmp_path):
    """`if edge_attr is not None:` above `edge_attr = torch.cat(...)` (torch-geometric's
    `add_remaining_self_loops`): the test reads what the call passed, the user's `edge_weight`, so
    the break under it is reported and names it; a test after the rebinding reads the library's
    own value and is left out."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def add_loops(edge_index, edge_attr=None):
            mask = edge_index[0] != edge_index[1]
            if edge_attr is not None:
                loop_attr = edge_attr[~mask]
                edge_attr = torch.cat([edge_attr[mask], loop_attr], dim=0)
            if edge_attr is not None:
                edge_attr = edge_attr[edge_attr > 0]
            return edge_index[:, mask], edge_attr

        class Conv(nn.Module):
            def forward(self, x, edge_index: torch.Tensor, edge_weight: torch.Tensor | None = None):
                if isinstance(x, tuple):
                    x = x[0]
                elif x.dim() == 1:
                    return x
                edge_index, edge_weight = add_loops(edge_index, edge_weight)
                return x, edge_weight
        """, """\
        import torch
        from fglib import Conv

        compiled = torch.compile(Conv())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    [found] = [f for f in report.findings if f.code == "FG453"]
    lines = sorted(r.line for r in found.related if r.message.startswith("breaks here"))
    assert lines == [7, 8, 11], lines


def test_a_method_called_on_a_submodule_runs_the_submodules_own_overrides(tmp_path):
    """`self.coupling.inverse(z)` where the submodule's class inherits `inverse` from a base that
    calls `self._transform(...)` (normflows' spline wrappers over `Coupling.inverse`): `self` in
    the inherited method is the submodule's object, so its class's override runs, not the base's."""
    model, project = _library_and_model(tmp_path, """\
        from torch import nn

        class Coupling(nn.Module):
            def inverse(self, x):
                return self._transform(x)

            def _transform(self, x):
                raise NotImplementedError

        class Spline(Coupling):
            def _transform(self, x):
                return x[x > 0]

        class Wrapper(nn.Module):
            def __init__(self):
                super().__init__()
                self.coupling = Spline()

            def forward(self, x):
                return self.coupling.inverse(x)
        """, """\
        import torch
        from fglib import Wrapper

        compiled = torch.compile(Wrapper())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG453", 4)]
    assert report.findings[0].message.startswith("compiles `Wrapper()`, which breaks in library code at "
                                                  "fglib/__init__.py:12 (`Spline._transform`)")


def test_a_module_of_a_class_from_another_file_is_followed_wherever_it_is_held(tmp_path):
    """`self.vq = Quant()` with `Quant` imported from another module of the library, handed back by a
    method (`self.get_vq(i)(x)`, vector-quantize-pytorch's hierarchical VQ) or held in a ModuleList:
    calling it runs that class's `forward` (the module's fact names its file)."""
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text("from fglib.holder import Holder\n")
    (tmp_path / "lib" / "fglib" / "quant.py").write_text(textwrap.dedent("""\
        from torch import nn

        class Quant(nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    x = x * 2
                return x
        """))
    (tmp_path / "lib" / "fglib" / "holder.py").write_text(textwrap.dedent("""\
        from torch import nn
        from fglib.quant import Quant

        class Holder(nn.Module):
            def __init__(self, shared=True):
                super().__init__()
                self.vq = None
                self.vqs = None
                if shared:
                    self.vq = Quant()
                else:
                    self.vqs = nn.ModuleList([Quant() for _ in range(2)])

            def get_vq(self, i):
                return self.vq if self.vq is not None else self.vqs[i]

            def forward(self, x):
                return self.get_vq(0)(x)
        """))
    model = tmp_path / "ws" / "model.py"
    model.write_text("import torch\nfrom fglib import Holder\n\ncompiled = torch.compile(Holder())\n")
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    report = analyze_document(model.read_text(), str(model), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 4)]
    assert report.findings[0].message.startswith("compiles `Holder()`, which breaks in library code at "
                                                  "fglib/quant.py:5 (`Quant.forward`)")


def test_a_library_finding_names_the_users_conditions_on_the_way_to_it(tmp_path):
    """Reached through calls under tests the user's side decides (the compiled `forward`'s own
    parameters, the mode), a library break names them: `get_image_features` runs only when the user
    passes `pixel_values`, `Shaped.helper` only for inputs of more than one dimension. A helper two calls
    reach under different tests gets neither's, and a test on the library's own values on the way is not
    named (nor does it hide the break)."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        class Vision(nn.Module):
            def get_image_features(self, pixel_values):
                return pixel_values[pixel_values > 0]

            def forward(self, input_ids: torch.Tensor, pixel_values: torch.Tensor | None = None):
                if pixel_values is not None:
                    input_ids = input_ids + self.get_image_features(pixel_values).sum()
                return input_ids

        class Shared(nn.Module):
            def shared(self, x):
                return x[x > 0]

            def forward(self, x: torch.Tensor):
                if self.training:
                    x = self.shared(x).sum() + x
                if x.dim() > 1:
                    x = self.shared(x).sum() + x
                return x

        class Shaped(nn.Module):
            def helper(self, x):
                return x[x > 0]

            def forward(self, x: torch.Tensor):
                if x.dim() > 1:
                    x = self.helper(x).sum() + x
                return x

        class Inner(nn.Module):
            def helper(self, x):
                return x[x > 0]

            def forward(self, x: torch.Tensor):
                y = x * 2
                if y.dim() > 1:
                    x = self.helper(x).sum() + x
                return x
        """, """\
        import torch
        from fglib import Vision

        compiled = torch.compile(Vision())
        """)
    script = model.with_name("script.py")
    for compiled, line, ending in (("Vision", 6, " (when `pixel_values` is not None)"), ("Shared", 15, "boolean mask"),
                                   ("Inner", 35, "boolean mask"), ("Shaped", 26, "(when `x.dim() > 1`)")):
        script.write_text(f"import torch\nfrom fglib import {compiled}\n\ncompiled = torch.compile({compiled}())\n")
        [finding] = analyze_document(script.read_text(), str(script), project=project).findings
        assert finding.data["library"] == f"fglib/__init__.py:{line}"
        assert finding.message.endswith(ending), finding.message


def test_keywords_spread_from_a_dict_literal_are_passed_by_name(tmp_path):
    """`spline(x, **kwargs)` where every binding of `kwargs` is a dict literal that is only spread
    (normflows' `spline_kwargs = {"tails": self.tails}`, `{}` in the other branch): `tails` is the
    user's in both (the object's state, or the default), so the break under `tails == "linear"` is
    reported and names it. A dict the function also changes (`extra["tails"] = ...`) passes nothing
    known, and the break under its test is left out."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        def spline(x, tails="linear"):
            if tails == "linear":
                x = x[x > 0]
            return x

        def other(x, tails="linear"):
            if tails == "linear":
                x = x[x < 0]
            return x

        class Flow(nn.Module):
            def __init__(self, tails="linear"):
                super().__init__()
                self.tails = tails

            def forward(self, x):
                if self.tails is None:
                    kwargs = {}
                else:
                    kwargs = {"tails": self.tails}
                extra = {"tails": self.tails}
                extra["tails"] = x.sum()
                return spline(x, **kwargs) + other(x, **extra)
        """, """\
        import torch
        from fglib import Flow

        compiled = torch.compile(Flow())
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    lines = sorted(r.line for f in report.findings for r in f.related if r.message.startswith("breaks here"))
    assert lines == [6], lines


@pytest.mark.parametrize("split", [False, True])
def test_a_default_a_base_makes_through_a_method_is_made_by_the_subclass_override(tmp_path, split):
    """`self.distance = self.get_default_distance() if distance is None else distance` in a base's
    `__init__` (pytorch-metric-learning's `ModuleWithRecordsAndDistance`), the method overridden by
    the compiled subclass: calling `self.distance(...)` runs the override's class (`Cos`), not the
    base's default (`Lp`), whether the base sits in the subclass's file or another."""
    base = """\
        import torch
        from torch import nn

        class Lp(nn.Module):
            def forward(self, x):
                return x[x > 0]

        class Cos(nn.Module):
            def forward(self, x):
                return x.nonzero()

        class Base(nn.Module):
            def __init__(self, distance=None):
                super().__init__()
                self.distance = self.get_default_distance() if distance is None else distance

            def get_default_distance(self):
                return Lp()
        """
    loss = """\
        class Loss(Base):
            def get_default_distance(self):
                return Cos()

            def forward(self, x):
                return self.distance(x)
        """
    library = {"lib/fglib/base.py": base, "lib/fglib/__init__.py": "from .base import Base, Cos\n" + textwrap.dedent(loss)} \
        if split else {"lib/fglib/__init__.py": textwrap.dedent(base) + "\n\n" + textwrap.dedent(loss)}
    project = make(tmp_path, {**library, "ws/model.py": "import torch\nfrom fglib import Loss\n\ncompiled = torch.compile(Loss())\n"})
    report = run(project, tmp_path, "model.py")
    named = named_in(report)
    assert any("nonzero" in m for m in named), named
    assert not any("x[x > 0]" in m for m in named), named


def test_a_method_of_a_library_object_compiled_is_its_entry(tmp_path):
    """`torch.compile(model.sample)` and `torch.compile(Flow(...).inverse)` (normflows' flows,
    pykeen's `score_hrt`): the method runs as the object's, its own overrides included (`inverse`
    is the base's, calling the flow's `_step`), and a break in it is reported at the compile call.
    A method the class does not have compiles nothing known."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        class Base(nn.Module):
            def inverse(self, z):
                return self._step(z)

            def _step(self, z):
                return z

        class Flow(Base):
            def __init__(self, clamp=True):
                super().__init__()
                self.clamp = clamp

            def forward(self, z):
                return z * 2

            def sample(self, n):
                z = torch.randn(n, 4)
                if self.clamp:
                    return z.nonzero()
                return z

            def _step(self, z):
                return z[z > 0]
        """, """\
        import torch
        from fglib import Flow

        model = Flow()
        sampled = torch.compile(model.sample)
        inverted = torch.compile(Flow(clamp=False).inverse)
        unclamped = torch.compile(Flow(clamp=False).sample)
        missing = torch.compile(model.missing)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert sorted((f.line, f.code) for f in report.findings) == [(5, "FG451"), (6, "FG453")], \
        [(f.line, f.code, f.message) for f in report.findings]


def test_an_object_made_through_a_module_alias_is_compiled_and_a_call_s_result_is_not_its_function(tmp_path):
    """`import fglib as fl`, `model = fl.Flow()`, `torch.compile(model)`: the object's `forward` is
    the entry (it compiled nothing known when the class was spelled through a module). A function
    given by its module path (`torch.compile(fl.step)`) is one too; but `built = fl.build()` then
    `torch.compile(built)` compiles what `build` returned, not `build`, whose own break stays out
    (nor does `made = build()`, with `build` imported by name)."""
    model, project = _library_and_model(tmp_path, """\
        import torch
        from torch import nn

        class Flow(nn.Module):
            def forward(self, z):
                return z.nonzero()

        def build():
            print("building")
            return Flow()

        def step(x):
            return x[x > 0]
        """, """\
        import torch
        import fglib as fl
        from fglib import build
        model = fl.Flow()
        compiled = torch.compile(model)
        stepped = torch.compile(fl.step)
        built = fl.build()
        again = torch.compile(built)
        made = build()
        once_more = torch.compile(made)
        """)
    report = analyze_document(model.read_text(), str(model), project=project)
    assert sorted((f.line, f.code) for f in report.findings) == [(5, "FG451"), (6, "FG453")], \
        [(f.line, f.code, f.message) for f in report.findings]


BLOCKS = """\
    import torch
    from torch import nn

    class Gelu(nn.Module):
        def forward(self, x):
            return x.nonzero()

    class Masked(nn.Module):
        def forward(self, x):
            return x[x > 0]

    class Block(nn.Module):
        def __init__(self, dim=4, act_layer=Gelu):
            super().__init__()
            self.act = act_layer()

        def forward(self, x):
            return self.act(x)
    """
SUBCLASSES = """\
    class Sub(Block):
        def __init__(self):
            super().__init__(act_layer=Masked)

    class Mid(Block):
        def __init__(self, layer=Gelu):
            super().__init__(8, layer)

    class Leaf(Mid):
        def __init__(self):
            super().__init__(layer=Masked)

    class Inherits(Sub):
        pass
    """


@pytest.mark.parametrize("split", [False, True], ids=["one file", "base in another file"])
@pytest.mark.parametrize("model, runs", [("Block", "nonzero"), ("Sub", "x[x > 0]"), ("Leaf", "x[x > 0]"),
                                         ("Inherits", "x[x > 0]"), ("Mid", "nonzero")])
def test_a_submodule_made_by_calling_a_parameter_is_of_the_class_the_construction_gives_it(tmp_path, split, model, runs):
    """`self.act = act_layer()` in `__init__` holds an object of the class the parameter is given:
    its default (`act_layer=Gelu`), or what a subclass's `super().__init__(...)` passes for it, by
    keyword or position, through a parameter it renames (`Mid`'s `layer`)."""
    library = {"lib/fglib/blocks.py": BLOCKS, "lib/fglib/__init__.py": "from .blocks import Block, Gelu, Masked\n"
               + textwrap.dedent(SUBCLASSES)} if split \
        else {"lib/fglib/__init__.py": textwrap.dedent(BLOCKS) + "\n\n" + textwrap.dedent(SUBCLASSES)}
    project = make(tmp_path, {**library, "ws/model.py": f"import torch\nfrom fglib import {model}\n\n"
                                                        f"compiled = torch.compile({model}())\n"})
    report = run(project, tmp_path, "model.py")
    named = named_in(report)
    other = "nonzero" if runs != "nonzero" else "x[x > 0]"
    assert any(runs in m for m in named), named
    assert not any(other in m for m in named), named


RESOLVER = """\
    from typing import Generic, TypeVar, Union
    from typing_extensions import TypeAlias

    X = TypeVar("X")
    InstOrType: TypeAlias = Union[X, type[X]]
    Hint = Union[str, None, InstOrType[X]]

    class Resolver(Generic[X]):
        def make(self, query: Hint[X], kwargs=None) -> X:
            cls = self.lookup(query)
            return cls(**(kwargs or {}))

        def same(self, query: X, kwargs=None) -> X:
            return query

        def untyped(self, query, kwargs=None):
            return query(**(kwargs or {}))
    """
RESOLVED = """\
    import torch
    from torch import nn
    from .resolver import Hint, Resolver

    class Masked(nn.Module):
        def forward(self, x):
            return x[x > 0]

    layer_resolver: Resolver[nn.Module] = Resolver()

    class Model(nn.Module):
        def __init__(self, layer: Hint[nn.Module], layer_kwargs=None):
            super().__init__()
            self.layer = layer_resolver.{method}(layer, layer_kwargs)

        def forward(self, x):
            return self.layer(x)

    class Masky(Model):
        def __init__(self):
            super().__init__(layer=Masked, layer_kwargs=None)
    """


@pytest.mark.parametrize("method, follows", [("make", True), ("same", False), ("untyped", False)])
def test_a_factory_typed_to_make_the_class_it_is_given_is_followed(tmp_path, method, follows):
    """`self.layer = layer_resolver.make(layer, kwargs)` (class-resolver's `ClassResolver.make`,
    `make(query: Hint[X]) -> X` with `type[X]` inside the alias) holds an object of the class a
    subclass passes for `layer`; a function typed `(query: X) -> X` returns what it is given (a
    class, not an object of it), and an unannotated one says nothing: neither is followed."""
    project = make(tmp_path, {"lib/rlib/__init__.py": "from .models import Masky\n",
                              "lib/rlib/resolver.py": RESOLVER,
                              "lib/rlib/models.py": RESOLVED.replace("{method}", method),
                              "ws/model.py": "import torch\nfrom rlib import Masky\n\ncompiled = torch.compile(Masky())\n"})
    report = run(project, tmp_path, "model.py")
    named = [f.message for f in report.findings]
    assert any("x[x > 0]" in m for m in named) is follows, named


def test_a_helper_s_parameter_is_not_taken_for_init_s_of_the_same_name(tmp_path):
    """`self._build(act_layer=Masked)` from `__init__`, the helper storing `self.act = act_layer()`:
    the helper's parameter is what the call gives it, not `__init__`'s `act_layer` (default `Gelu`)
    of the same name, so `Gelu`'s break is not named."""
    blocks = BLOCKS.replace("            self.act = act_layer()\n",
                            "            self._build(act_layer=Masked)\n\n"
                            "        def _build(self, act_layer):\n            self.act = act_layer()\n")
    project = make(tmp_path, {"lib/fglib/__init__.py": textwrap.dedent(blocks),
                              "ws/model.py": "import torch\nfrom fglib import Block\n\ncompiled = torch.compile(Block())\n"})
    report = run(project, tmp_path, "model.py")
    named = named_in(report)
    assert not any("nonzero" in m for m in named), named


@pytest.mark.parametrize("made, runs", [
    ("Block(act_layer=Masked)", "x[x > 0]"), ("Block(4, Masked)", "x[x > 0]"), ("Mid(layer=Masked)", "x[x > 0]"),
    ("Block(dim=8)", "nonzero"), ("Block(act_layer=pick())", None), ("Block(**options)", None)])
def test_the_users_construction_gives_the_class_a_parameter_is_called_as(tmp_path, made, runs):
    """The user's `Block(act_layer=Masked)` (by keyword or position, or through `Mid`'s renamed
    `layer`) runs `Masked`, not the default; literals only leave the default; a value that names no
    class, or a `**` argument that may hold one, leaves it unknown: nothing is named."""
    library = {"lib/fglib/__init__.py": textwrap.dedent(BLOCKS) + "\n\n" + textwrap.dedent(SUBCLASSES)}
    user = ("import torch\nfrom fglib import Block, Masked, Mid\n\ndef pick():\n    return Masked\n\n"
            f"options = {{}}\ncompiled = torch.compile({made})\n")
    project = make(tmp_path, {**library, "ws/model.py": user})
    report = run(project, tmp_path, "model.py")
    named = named_in(report)
    for shape in ("x[x > 0]", "nonzero"):
        assert any(shape in m for m in named) is (shape == runs), named


def test_a_submodule_made_with_a_class_runs_that_class(tmp_path):
    """`self.block = Block(act_layer=Masked)` in a library module's `__init__`: its `self.act(x)`
    runs `Masked`, not `Block`'s default."""
    outer = """\

        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block(act_layer=Masked)

            def forward(self, x):
                return self.block(x)
        """
    project = make(tmp_path, {"lib/fglib/__init__.py": textwrap.dedent(BLOCKS) + textwrap.dedent(outer),
                              "ws/model.py": "import torch\nfrom fglib import Outer\n\ncompiled = torch.compile(Outer())\n"})
    report = run(project, tmp_path, "model.py")
    named = named_in(report)
    assert any("x[x > 0]" in m for m in named) and not any("nonzero" in m for m in named), named
