"""A module class without a `forward` of its own runs the methods its inherited `forward`
(a base class's, in this file or another) calls on `self`: the template-method shape of
augmentation and flow libraries, where the subclass only overrides `apply_transform`."""

import textwrap

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from workspace_files import workspace_findings
from fullgraph.engine import analyze, analyze_document

BASE = """
    import torch
    from torch import nn

    class Augmentation(nn.Module):
        def forward(self, x):
            params = self.generate(x)
            return self.apply_func(x, params)

        def generate(self, x):
            return {"p": torch.rand(x.shape[0])}

        def apply_func(self, x, params):
            return self.apply_transform(x, params)

        def apply_transform(self, x, params):
            raise NotImplementedError

        def inverse(self, x, params):
            return self.invert(x, params)
    """

SUBCLASS = """
    import torch
    from base import Augmentation

    class Rain(Augmentation):
        def apply_transform(self, x, params):
            drops = int(params["p"].sum().item())
            return x + drops

        def invert(self, x, params):
            return x - params["p"].max().item()

        def unused(self, x):
            return x.sum().item()
    """


def findings(tmp_path, files: dict[str, str], target: str, config=Config()):
    return sorted((f.line, f.code) for f in workspace_findings(tmp_path, files, target, config))


def test_a_method_the_inherited_forward_calls_through_another_files_base_is_checked(tmp_path):
    found = findings(tmp_path, {"base.py": BASE, "rain.py": SUBCLASS}, "rain.py")
    assert found == [(7, "FG201")]  # `invert` (reached only from `inverse`) and `unused` are not compiled


def test_a_method_the_inherited_forward_calls_in_the_same_file_is_checked(tmp_path):
    source = textwrap.dedent(BASE) + textwrap.dedent(SUBCLASS).replace("from base import Augmentation\n", "")
    found = findings(tmp_path, {"one.py": source}, "one.py")
    line = source.splitlines().index("        drops = int(params[\"p\"].sum().item())") + 1
    assert found == [(line, "FG201")]


def test_a_class_with_its_own_forward_runs_its_overrides_only_through_it(tmp_path):
    own = SUBCLASS.replace("    class Rain(Augmentation):\n",
                           "    class Rain(Augmentation):\n        def forward(self, x):\n            return x * 2\n\n")
    assert findings(tmp_path, {"base.py": BASE, "rain.py": own}, "rain.py") == []


def test_decorated_mode_does_not_take_module_methods(tmp_path):
    found = findings(tmp_path, {"base.py": BASE, "rain.py": SUBCLASS}, "rain.py", Config(assume_compiled="decorated"))
    assert found == []


def test_a_dispatched_method_is_inlined_into_the_inherited_forward(tmp_path):
    """Its epilogue would still run inside the base's frame, so no deferral; a generator is
    inlined by Dynamo, so no FG402."""
    logged = SUBCLASS.replace('            drops = int(params["p"].sum().item())\n',
                              '            print("raining", x.shape)\n            drops = 2\n')
    logged += "\n        def apply_func_steps(self, x):\n            yield x\n"
    base = BASE.replace("return self.apply_func(x, params)", "self.apply_func_steps(x)\n            return self.apply_func(x, params)")
    for name, text in {"base.py": base, "rain.py": logged}.items():
        (tmp_path / "ws").mkdir(exist_ok=True)
        (tmp_path / "ws" / name).write_text(textwrap.dedent(text))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    path = tmp_path / "ws" / "rain.py"
    report = analyze_document(path.read_text(), str(path), Config(), project=project)
    assert [(f.line, f.code) for f in report.findings] == [(7, "FG301")]
    assert "runs inside the frame of the inherited `forward`" in report.findings[0].fix_blocked


def test_an_override_an_inherited_helper_calls_from_the_own_forward_is_checked(tmp_path):
    """The message-passing shape: `forward` calls the base's `propagate`, which calls `self.message`."""
    base = """
        from torch import nn

        class MessagePassing(nn.Module):
            def propagate(self, x):
                return self.message(x)

            def message(self, x):
                return x
        """
    conv = """
        from base import MessagePassing

        class Conv(MessagePassing):
            def forward(self, x):
                return self.propagate(x)

            def message(self, x):
                return x * x.max().item()
        """
    assert findings(tmp_path, {"base.py": base, "conv.py": conv}, "conv.py") == [(9, "FG201")]


WRAPPING_BASE = """
    from torch import nn

    class Metric(nn.Module):
        def __init__(self):
            super().__init__()
            self.update = self._wrap(self.update)

        def _wrap(self, update):
            return update

        def forward(self, *args):
            return self._forward_state(*args)

        def _forward_state(self, *args):
            self.update(*args)
            return self.compute()

        def update(self, *args):
            raise NotImplementedError

        def compute(self):
            raise NotImplementedError
    """

WRAPPED_SUBCLASS = """
    import torch
    from base import Metric

    class Confusion(Metric):
        def update(self, preds, target):
            self.classes = torch.unique(target)

        def compute(self):
            return self.classes.max().item()
    """


def test_a_method_the_base_re_assigns_wrapped_still_runs_the_override(tmp_path):
    # torchmetrics' `Metric`: `self.update = self._wrap_update(self.update)` in `__init__`, and the
    # inherited `forward` calls it two methods down: the subclass's `update` and `compute` run.
    found = findings(tmp_path, {"base.py": WRAPPING_BASE, "metric.py": WRAPPED_SUBCLASS}, "metric.py")
    assert found == [(7, "FG452"), (10, "FG201")]


BOUND_BASE = """
    from torch import nn

    class PairLoss(nn.Module):
        def __init__(self, mat_based=False):
            super().__init__()
            self.loss_method = self.mat_based_loss if mat_based else self.pair_based_loss

        def forward(self, x):
            return self.loss_method(x)

        def mat_based_loss(self, x):
            return self._compute_loss(x)

        def pair_based_loss(self, x):
            return self._compute_loss(x * 2)

        def _compute_loss(self, x):
            raise NotImplementedError
    """

BOUND_SUBCLASS = """
    from base import PairLoss

    class TupletLoss(PairLoss):
        def _compute_loss(self, x):
            self.mean_angle = x.mean().item()
            return x
    """


def test_a_method_the_base_holds_in_an_attribute_runs_the_override(tmp_path):
    # pytorch-metric-learning's `GenericPairLoss`: `self.loss_method = self.mat_based_loss if ... else
    # self.pair_based_loss`, called from the inherited `compute_loss`; both call `self._compute_loss`.
    found = findings(tmp_path, {"base.py": BOUND_BASE, "loss.py": BOUND_SUBCLASS}, "loss.py")
    assert found == [(6, "FG201")]
    one = textwrap.dedent(BOUND_BASE) + textwrap.dedent(BOUND_SUBCLASS).replace("from base import PairLoss\n", "")
    line = one.splitlines().index("        self.mean_angle = x.mean().item()") + 1
    assert findings(tmp_path, {"one.py": one}, "one.py") == [(line, "FG201")]


def test_calling_an_attribute_that_holds_methods_walks_them(tmp_path):
    source = textwrap.dedent(BOUND_BASE).replace("return self._compute_loss(x * 2)",
                                                 "return self._compute_loss(x * x.sum().item())")
    line = source.splitlines().index("        return self._compute_loss(x * x.sum().item())") + 1
    assert findings(tmp_path, {"base.py": source}, "base.py") == [(line, "FG201")]


NAMED_BASE = """
    from torch import nn

    class BaseReducer(nn.Module):
        def forward(self, losses, kind):
            return self.get_reduction_func(kind)(losses)

        def get_reduction_func(self, kind):
            return getattr(self, "{}_reduction".format(kind))
    """

NAMED_SUBCLASS = """
    from base import BaseReducer

    class ThresholdReducer(BaseReducer):
        def element_reduction(self, losses):
            return losses[losses > 0].mean()

        def count(self, losses):
            return losses[losses > 0].numel()
    """


def test_a_method_the_base_fetches_by_a_computed_name_runs_the_override(tmp_path):
    # pytorch-metric-learning's `BaseReducer`: `getattr(self, "{}_reduction".format(reduction_type))`
    found = findings(tmp_path, {"base.py": NAMED_BASE, "reducer.py": NAMED_SUBCLASS}, "reducer.py")
    assert found == [(6, "FG453")]  # `count` matches no name the base computes


PLAIN_BASE = """
    import torch

    class Table:
        def __init__(self, values: torch.Tensor):
            self.values = values

        def row(self, i):
            return self.select(i)

        def select(self, i):
            print("select", i)
            return self.values[i]

    class Ragged(Table):
        def select(self, i):
            n = int(self.values.sum())
            return self.values[:n]
    """


def test_a_base_method_called_on_an_object_of_a_subclass_runs_its_overrides(tmp_path):
    """`ragged.row(i)` runs the `row` `Table` defines, whose `self.select(i)` is `Ragged.select`,
    as Dynamo dispatches it, in this file or in the library the class comes from."""
    here = findings(tmp_path, {"m.py": PLAIN_BASE + "\n    @torch.compile\n    def step(x):\n"
                               "        return Ragged(x).row(0)\n"}, "m.py")
    assert here == [(17, "FG204")]  # the override's `int(...)`, not the base's print
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(textwrap.dedent(PLAIN_BASE))
    model = tmp_path / "ws" / "model.py"
    model.write_text("import torch\nfrom fglib import Ragged\n\n@torch.compile\ndef step(x):\n"
                     "    return Ragged(x).row(0)\n")
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    found = analyze_document(model.read_text(), str(model), project=project).findings
    assert [(f.line, f.code) for f in found] == [(6, "FG204")]
    assert "fglib/__init__.py:17" in found[0].message


def test_calls_on_objects_of_different_classes_run_the_base_method_as_written(tmp_path):
    """The object a method runs on is taken only when every call passes the same one: called on a
    `Table` too, `row` is walked as its class defines it (and `Ragged.select` is not reached)."""
    source = PLAIN_BASE + """
    @torch.compile
    def step(x):
        return Ragged(x).row(0) + Table(x).row(1)
    """
    assert findings(tmp_path, {"m.py": source}, "m.py") == [(12, "FG301")]


OVERRIDE = """
    import torch
    from torch import nn

    class Decomposition(nn.Module):
        def forward(self, x, idx):
            adj = torch.sparse_coo_tensor(idx, torch.ones(idx.shape[1]), (4, 4))
            steps = 3
            return self.propagate(x, adj, steps)

        def propagate(self, x, adj, steps):
            raise NotImplementedError

    class Bases(Decomposition):
        def propagate(self, x: torch.Tensor, adj: torch.Tensor, steps):
            if steps > 1:
                x = x * 2
            return torch.spmm(adj, x)
    """


def test_an_override_takes_the_facts_of_the_base_call_that_dispatches_to_it(tmp_path):
    """The base's `self.propagate(x, adj, steps)` runs `Bases.propagate` (Dynamo breaks at both
    lines): `adj` is sparse there, though annotated `torch.Tensor` (FG420), and `steps` a Python
    int (no FG101)."""
    found = findings(tmp_path, {"layers.py": OVERRIDE}, "layers.py")
    assert found == [(7, "FG414"), (9, "FG420"), (18, "FG420")]


def test_an_override_with_other_parameters_takes_no_facts_from_the_base_call(tmp_path):
    renamed = OVERRIDE.replace("propagate(self, x: torch.Tensor, adj: torch.Tensor, steps):",
                               "propagate(self, x: torch.Tensor, a: torch.Tensor, steps):") \
        .replace("torch.spmm(adj, x)", "torch.spmm(a, x)")
    assert (18, "FG420") not in findings(tmp_path, {"layers.py": renamed}, "layers.py")


INHERITED = textwrap.dedent("""
    import torch
    from torch import nn

    class Identity(nn.Module):
        def forward(self, x):
            return x, None

    class Base(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = Identity()
            self.scale = 2.0

        def forward(self, x: torch.Tensor):
            x, _ = self.rnn(x)
            if self.scale > 1:
                x = x * self.scale
            if x.sum() > 0:
                x = x + 1
            return self.rescale(x)

        def rescale(self, x):
            if self.scale < 0:
                return -x
            return x

    class Recurrent(Base):
        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTM(4, 4, batch_first=True)
            self.scale = torch.ones(())

    class Plain(Base):
        pass
    """)


def test_an_inherited_forward_is_walked_as_each_subclass_that_sets_attributes_runs_it():
    """`Base.forward` calls an identity module and tests a Python float, itself and through a method
    of `Base` it calls; as `Recurrent` runs it, the module is an LSTM and the float a tensor. Those findings name the subclass and offer no rewrite
    (the rewrite would run for `Base` too); one `Base` has on its own keeps its checked fix."""
    found = {(f.line, f.code): f for f in analyze(INHERITED, "m.py", Config())}
    assert sorted(found) == [(16, "FG408"), (17, "FG101"), (19, "FG101"), (24, "FG101")]
    assert found[24, "FG101"].data["inherited_by"] == "Recurrent"  # a base method the inherited code calls
    lstm, scale, own = found[16, "FG408"], found[17, "FG101"], found[19, "FG101"]
    assert lstm.data["inherited_by"] == "Recurrent" and lstm.data["entry"] == "Recurrent.forward"
    assert lstm.message.endswith("(as the subclass `Recurrent` runs it)")
    assert scale.fix_blocked.startswith("`Base.forward` breaks here as the subclass `Recurrent` runs it")
    assert "inherited_by" not in own.data and own.fix_blocked is None


LEAF = textwrap.dedent("""
    import torch
    from torch import nn

    class Base(nn.Module):
        def __init__(self):
            super().__init__()
            self.width = 2

        def forward(self, x: torch.Tensor):
            return self.step(x)

        def step(self, x):
            return self.leaf(x)

        def leaf(self, x):
            return x

    class Loud(Base):
        def __init__(self):
            super().__init__()
            self.width = 3

        def leaf(self, x):
            print("leaf", self.width)
            return x
    """)


def test_a_subclass_method_reached_through_the_inherited_code_offers_no_deferral():
    """`Loud.leaf` runs inside `Base.forward` (through `Base.step`, as `Loud` runs it): its print is
    found, and a deferral, whose replay would go into the base's `forward`, is declined."""
    found = [f for f in analyze(LEAF, "m.py", Config()) if f.code == "FG301"]
    assert [f.line for f in found] == [25]
    assert "inherited_by" not in found[0].data  # `Loud`'s own code
    assert found[0].fix_blocked.startswith("it runs inside `Base.forward` as the subclass `Loud` runs it")


def test_a_compiled_object_of_a_subclass_that_defines_nothing_runs_its_base_s_forward_as_is():
    """`torch.compile(Mine())` where `Mine(Base)` only inherits: `Base.forward` is compiled as it is
    (its own finding, whose rewrite is checked); a subclass overriding a method runs it as itself."""
    source = textwrap.dedent("""
        import torch
        from torch import nn

        class Base(nn.Module):
            def forward(self, x: torch.Tensor):
                if x.sum() > 0:
                    x = x * 2
                else:
                    x = x - 1
                return self.scale(x)

            def scale(self, x):
                return x

        class Mine(Base):
            pass

        class Loud(Base):
            def scale(self, x):
                print(x.shape)
                return x

        model = torch.compile(Mine())
        loud = torch.compile(Loud())
        """)
    found = {(f.line, f.code): f for f in analyze(source, "m.py", Config(assume_compiled="decorated"))}
    branch = found[7, "FG101"]
    assert branch.data["entry"] == "Base.forward" and "inherited_by" not in branch.data
    assert branch.fix_blocked is None
    assert found[21, "FG301"].data["entry"] == "Loud.forward"
