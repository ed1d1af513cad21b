"""A method that module code calls on an element of a module container (`self.flows[i].inverse(z)`
in a flow's `log_prob`, run from its `forward`) may run on an instance of any module class of the
workspace that defines it: such a method is checked as a compiled entry, in whichever file it is
defined, with the calling method as related information."""

import textwrap

from fullgraph.analysis.summary import summarize
from fullgraph.config import Config
from workspace_files import workspace_findings

MODEL = """
    import torch
    from torch import nn

    class Flow(nn.Module):
        def __init__(self, flows):
            super().__init__()
            self.flows = nn.ModuleList(flows)
            self.extra = {}

        def forward(self, x):
            return -self.log_prob(x)

        def log_prob(self, x):
            for i in range(len(self.flows) - 1, -1, -1):
                x = self.flows[i].inverse(x)
            return x.sum()

        def sample(self, n):
            z = torch.randn(n, 2)
            for flow in self.flows:
                z = flow.draw(z)
            return z

        def unmerge(self):
            return self.extra["a"].undo()
    """

LAYER = """
    import torch
    from torch import nn

    class ActNorm(nn.Module):
        def forward(self, x):
            return x * 2

        def inverse(self, x):
            if x.sum() > 0:
                x = x - 1
            return x

        def draw(self, z):
            return z.max().item()

        def undo(self):
            return self.w.sum().item()
    """


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


def findings(tmp_path, files: dict[str, str], target: str, config=Config()):
    return workspace_findings(tmp_path, files, target, config)


def test_a_method_called_on_a_module_list_element_from_a_forward_is_checked_in_another_file(tmp_path):
    found = findings(tmp_path, {"model.py": MODEL, "layer.py": LAYER}, "layer.py")
    # `inverse` runs from `Flow.forward` through `log_prob`; `draw` only from `sample`, which no
    # forward reaches; `undo` is called on a dict's element, not a module container's
    assert [(f.line, f.code) for f in found] == [(line_of(LAYER, "if x.sum() > 0"), "FG101")]
    related = [(r.path.rsplit("/", 1)[-1], r.line, r.message) for r in found[0].related]
    assert related == [("model.py", line_of(MODEL, "self.flows[i].inverse"),
                        "`Flow.log_prob` calls `inverse` on a module it holds")]


def test_a_loop_over_the_container_counts_when_a_forward_reaches_it(tmp_path):
    model = MODEL.replace("return -self.log_prob(x)", "return -self.log_prob(x) + self.sample(2).sum()")
    found = findings(tmp_path, {"model.py": model, "layer.py": LAYER}, "layer.py")
    assert [(f.line, f.code) for f in found] == [(line_of(LAYER, "if x.sum() > 0"), "FG101"),
                                                 (line_of(LAYER, "z.max().item()"), "FG201")]


def test_without_the_index_or_in_decorated_mode_nothing_is_added(tmp_path):
    found = findings(tmp_path, {"model.py": MODEL, "layer.py": LAYER}, "layer.py", Config(assume_compiled="decorated"))
    assert found == []


def test_the_summary_records_calls_on_container_elements_only():
    summary = summarize(__import__("ast").parse(textwrap.dedent(MODEL)))
    methods = summary.classes["Flow"].methods
    assert methods["log_prob"].element_calls == (("inverse", line_of(MODEL, "self.flows[i].inverse")),)
    assert methods["sample"].element_calls == (("draw", line_of(MODEL, "flow.draw")),)
    assert methods["unmerge"].element_calls == ()  # `self.extra` is a dict
    assert methods["forward"].element_calls == ()


def test_a_container_filled_by_appends_holds_the_class_appended(tmp_path):
    """`self.convs = nn.ModuleList()` then `self.convs.append(Conv())` in a loop of `__init__`:
    each element is a `Conv`, so `for conv in self.convs: conv(x)` runs its `forward`; a base whose
    `__init__` appends `self.make()` holds what the subclass's override of `make` returns.
    Appends of two classes leave the element unknown (neither is claimed). Only compiled code is
    checked here, so each `forward` is reported only where it is reached."""
    source = """
        import torch
        from torch import nn

        class Conv(nn.Module):
            def forward(self, x):
                return x[x > 0]

        class Made(nn.Module):
            def forward(self, x):
                return x.nonzero()

        class Odd(nn.Module):
            def forward(self, x):
                return x.sum().item()

        class Stack(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.convs = nn.ModuleList()
                for _ in range(n):
                    self.convs.append(Conv())

            def forward(self, x):
                for conv in self.convs:
                    x = conv(x)
                return x

        class Base(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.convs = nn.ModuleList()
                for _ in range(n):
                    self.convs.append(self.make())

            def make(self):
                raise NotImplementedError

            def forward(self, x):
                for i, conv in enumerate(self.convs):
                    x = conv(x)
                return x

        class Mine(Base):
            def make(self):
                return Made()

        class Mixed(nn.Module):
            def __init__(self):
                super().__init__()
                self.convs = nn.ModuleList()
                self.convs.append(Odd())
                self.convs.append(nn.Linear(2, 2))

            def forward(self, x):
                for conv in self.convs:
                    x = conv(x)
                return x

        stack = torch.compile(Stack(2))
        mine = torch.compile(Mine(2))
        mixed = torch.compile(Mixed())
        """
    found = findings(tmp_path, {"model.py": source}, "model.py", Config(assume_compiled="decorated"))
    assert [(f.line, f.code) for f in found] == [(line_of(source, "x[x > 0]"), "FG453"),
                                                 (line_of(source, "x.nonzero()"), "FG451")]
