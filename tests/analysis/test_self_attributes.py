"""Facts of `self.<attr>` beyond plain assignments: an attribute a setter method makes
(`self.add_state("total", default=torch.tensor(0))`, whose body does `setattr(self, name, default)`:
torchmetrics' states) holds the value `__init__` passed for it; `getattr(self, name + "_suffix")`
holds what every attribute of the class with that suffix holds (vector-quantize-pytorch's flags)."""


from workspace_files import workspace_findings

BASE = """
    import torch
    from torch import nn

    class Metric(nn.Module):
        def add_state(self, name, default, reduce=None):
            if isinstance(default, torch.Tensor):
                default = default.contiguous()
            setattr(self, name, default)

        def remember(self, name, value):
            self.notes = {name: value}
    """

METRIC = """
    import torch
    from torch import tensor
    from base import Metric

    class Ratio(Metric):
        def __init__(self):
            super().__init__()
            self.add_state("total", default=tensor(0), reduce="sum")
            self.add_state("seen", [])
            self.remember("kept", torch.zeros(2))

        def forward(self, x):
            if self.seen:
                x = x + 1
            if self.kept:
                x = x + 2
            self.total += x.numel()
            if self.total < 2:
                raise ValueError("needs two samples")
            return x / self.total
    """


def findings(tmp_path, files: dict[str, str], target: str) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in workspace_findings(tmp_path, files, target))


def test_a_state_a_base_class_setter_makes_from_a_tensor_is_a_tensor(tmp_path):
    found = findings(tmp_path, {"base.py": BASE, "metric.py": METRIC}, "metric.py")
    assert (19, "FG107") in found  # `if self.total < 2: raise`
    assert found == [(19, "FG107")], found  # a list state, and a method that does not set `name`


def test_the_setter_in_the_same_file(tmp_path):
    text = BASE + METRIC.replace("from base import Metric\n", "")
    found = findings(tmp_path, {"one.py": text}, "one.py")
    assert [code for _, code in found] == ["FG107"]


COMPUTED = """
    import torch
    from torch import nn, tensor

    class Affine(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean_needs_init", tensor(True))
            self.register_buffer("var_needs_init", tensor(True))
            self.mean_label = "mean"
            self.var_label = "var"

        def update(self, name, value):
            needs_init = getattr(self, name + "_needs_init", False)
            if needs_init:
                value = value * 2
            label = getattr(self, f"{name}_label")
            if label:
                value = value + 1
            if getattr(self, "mean_needs_init"):
                value = value - 1
            return value

        def forward(self, x):
            return self.update("mean", x.mean())
    """


def test_an_attribute_by_a_computed_name_has_the_fact_its_namesakes_share(tmp_path):
    found = findings(tmp_path, {"affine.py": COMPUTED}, "affine.py")
    assert found == [(15, "FG101"), (20, "FG101")], found  # the `_label` attributes are strings


TORCH_VALUES = """
    import torch
    from torch import nn

    class Masked(nn.Module):
        def __init__(self, row_mask, col_mask):
            super().__init__()
            self.same = torch.equal(row_mask, col_mask)
            self.where = torch.device("cpu")
            self.scale = torch.ones(2)

        def forward(self, x):
            if not self.same:
                raise NotImplementedError()
            if self.scale.sum() > 1:
                x = x * 2
            return x.to(self.where)
    """


def test_a_torch_function_that_returns_a_python_value_makes_no_tensor_attribute(tmp_path):
    found = findings(tmp_path, {"masked.py": TORCH_VALUES}, "masked.py")
    assert found == [(15, "FG101")], found  # `torch.equal` gives a bool: no FG107 at 13


ANNOTATED = """
    import torch
    from torch import nn

    class Ragged:
        def __init__(self, values: torch.Tensor, offset: "torch.Tensor", count: int, lengths: torch.Tensor,
                     scale: torch.Tensor = 1.0):
            self.values = values
            self.offset = offset
            self.count = count
            lengths = list(lengths)
            self.lengths = lengths
            self.scale = scale

        def check(self):
            if self.offset.sum() > 0:
                return self.values
            if self.count > 0 and self.lengths and self.scale:
                return self.offset
            return self.values

    class Head(nn.Module):
        def forward(self, feat: Ragged):
            return feat.check()
    """


def test_an_attribute_set_from_an_annotated_parameter_has_the_fact_the_annotation_declares(tmp_path):
    """A type checker's reading: `self.offset = offset` with `offset: Tensor` holds a tensor, however
    the object was made; a parameter `__init__` rebinds, or whose default contradicts its annotation,
    declares nothing."""
    found = findings(tmp_path, {"ragged.py": ANNOTATED}, "ragged.py")
    assert found == [(16, "FG101")], found

