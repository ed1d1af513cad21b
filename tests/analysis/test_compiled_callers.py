"""A helper module's function that compiled code in other workspace files calls is checked in its
own file too: opened alone in the editor, or given alone to `fullgraph check` (a pre-commit run on
the changed file), it shows the breaks the model's `forward` reaches in it."""

from fullgraph.config import Config

from workspace_files import workspace_findings

HELPER = """
    import torch

    def scale(x):
        if x.sum() > 0:
            return x * 2
        return x

    def report(x):
        print("mean", x.mean())
        return x
    """
MODEL = """
    import torch
    from torch import nn
    from helper import scale, report

    class Model(nn.Module):
        def forward(self, x: torch.Tensor):
            return report(scale(x.relu()))
    """


def test_a_helper_that_a_forward_in_another_file_calls_is_an_entry_there(tmp_path):
    found = workspace_findings(tmp_path, {"helper.py": HELPER, "model.py": MODEL}, "helper.py")
    assert [(f.line, f.code) for f in found] == [(5, "FG101"), (10, "FG301")]
    branch, output = found
    assert branch.fix_blocked is None and "a guess" not in branch.message  # `x` is what the forward passes
    assert [(r.path.rpartition("/")[2], r.line, r.message) for r in branch.related] == [
        ("model.py", 8, "compiled code (`Model.forward`) calls `scale` here")]
    # deferred to the end of `report`, the print would still break the forward's graph
    assert "runs inside the frame of the compiled code in other files that calls it (`Model.forward`)" \
        in output.fix_blocked


def test_through_a_function_of_a_third_file(tmp_path):
    middle = """
        from helper import scale

        def prepare(x):
            return scale(x) + 1
        """
    model = MODEL.replace("from helper import scale, report", "from middle import prepare") \
        .replace("report(scale(x.relu()))", "prepare(x)")
    found = workspace_findings(tmp_path, {"helper.py": HELPER, "middle.py": middle, "model.py": model}, "helper.py")
    assert [(f.line, f.code) for f in found] == [(5, "FG101")]


def test_not_when_only_uncompiled_code_calls_it(tmp_path):
    script = """
        import torch
        from helper import scale, report

        def main():
            report(scale(torch.randn(3)))
        """
    assert workspace_findings(tmp_path, {"helper.py": HELPER, "train.py": script}, "helper.py") == []


def test_the_files_own_region_first(tmp_path):
    """A function the file's own compiled code reaches is walked there, as its helper; one only its
    uncompiled code calls (the public function of a functional API) is still compiled elsewhere."""
    own = HELPER + "\n    class Local(torch.nn.Module):\n        def forward(self, x):\n            return scale(x)\n"
    found = workspace_findings(tmp_path, {"helper.py": own, "model.py": MODEL}, "helper.py")
    assert [(f.line, f.code) for f in found] == [(5, "FG101"), (10, "FG301")]
    assert not any("compiled code (`Model.forward`)" in r.message for r in found[0].related)
    api = HELPER + "\n    def public_scale(x):\n        return scale(x)\n"
    found = workspace_findings(tmp_path, {"helper.py": api, "model.py": MODEL}, "helper.py")
    assert [(f.line, f.code) for f in found] == [(5, "FG101"), (10, "FG301")]
    assert any("compiled code (`Model.forward`)" in r.message for r in found[0].related)


def test_only_compiled_calls_count_under_decorated(tmp_path):
    found = workspace_findings(tmp_path, {"helper.py": HELPER, "model.py": MODEL}, "helper.py",
                               Config(assume_compiled="decorated"))
    assert found == []


ANGLES = """
    import math
    import torch

    def rand_angles(*shape, requires_grad: bool = False, dtype=None):
        alpha = 2 * math.pi * torch.rand(shape, dtype=dtype)
        return alpha.detach().requires_grad_(requires_grad)

    def rand_matrix(*shape, dtype=None):
        return rand_angles(*shape, dtype=dtype).cos()
    """
ACTIVATION = """
    from torch import nn
    from angles import rand_angles

    class Act(nn.Module):
        def forward(self, x):
            return x * rand_angles(dtype=x.dtype)
    """


def test_a_flag_every_compiled_call_leaves_at_its_default_decides_its_tests(tmp_path):
    """`requires_grad_(requires_grad)` breaks only when the flag is true: no compiled call sets it
    (a keyword-only parameter keeps its default past a `*shape` too); one that does keeps the finding."""
    files = {"angles.py": ANGLES, "act.py": ACTIVATION}
    assert workspace_findings(tmp_path, files, "angles.py") == []
    files["act.py"] = ACTIVATION.replace("dtype=x.dtype)", "dtype=x.dtype, requires_grad=True)")
    assert [(f.line, f.code) for f in workspace_findings(tmp_path, files, "angles.py")] == [(7, "FG406")]


def test_called_through_a_name_bound_to_it(tmp_path):
    """`fn = helper.scale` (or another function, by branch) then `fn(x)`: a call of each function
    the name is bound to, with what the call passes."""
    model = """
        import torch
        from torch import nn
        import helper

        class Model(nn.Module):
            def __init__(self, fast: bool):
                super().__init__()
                self.fast = fast

            def forward(self, x: torch.Tensor):
                if self.fast:
                    fn = helper.report
                else:
                    fn = helper.scale
                return fn(x)
        """
    found = workspace_findings(tmp_path, {"helper.py": HELPER, "model.py": model}, "helper.py")
    assert [(f.line, f.code) for f in found] == [(5, "FG101"), (10, "FG301")]
    assert "a guess" not in found[0].message
    rebound = model.replace("return fn(x)", "fn = fn if x.dim() else torch.relu\n                return fn(x)")
    assert workspace_findings(tmp_path, {"helper.py": HELPER, "model.py": rebound}, "helper.py") == []


BASES = """
    import torch
    from torch import nn

    class Kernel(nn.Module):
        def distance(self, a, b):
            if (a - b).abs().sum() == 0:
                return torch.zeros(a.shape[0], b.shape[0])
            return torch.cdist(a, b)

        def forward(self, a, b):
            raise NotImplementedError

    class Grid:
        def snap(self, x):
            if x.max() > 1:
                x = x.clamp(max=1)
            return x
    """
KERNELS = """
    import torch
    from bases import Kernel, Grid

    class RBF(Kernel):
        def forward(self, a: torch.Tensor, b: torch.Tensor):
            return torch.exp(-self.distance(Grid().snap(a), b))
    """


def test_methods_that_compiled_code_elsewhere_calls(tmp_path):
    """A base class's method that a subclass's `forward` in another file calls on `self`, and a
    method of a plain class that compiled code calls on an instance it makes: entries of their file."""
    found = workspace_findings(tmp_path, {"bases.py": BASES, "kernels.py": KERNELS}, "bases.py")
    assert [(f.line, f.code) for f in found] == [(7, "FG101"), (16, "FG101")]
    assert all("a guess" not in f.message for f in found)
    assert [r.message for r in found[0].related] == ["compiled code (`RBF.forward`) calls `distance` here"]


DECORATORS = """
    import functools
    import torch

    def dynamic_update(rope_forward):
        def refresh(self, position_ids):
            seq_len = torch.max(position_ids) + 1
            if seq_len > self.cached:
                self.cached = seq_len

        @functools.wraps(rope_forward)
        def wrapper(self, x, position_ids):
            refresh(self, position_ids)
            return rope_forward(self, x, position_ids)

        return wrapper

    def logged(message, verbose=False):
        def apply(fn):
            def quiet(*args):
                return fn(*args)

            def loud(*args):
                print(message)
                return fn(*args)

            return loud if verbose else quiet
        return apply
    """
ROTARY = """
    from torch import nn
    from decorators import dynamic_update, logged

    class Rotary(nn.Module):
        def __init__(self):
            super().__init__()
            self.cached = 0

        @dynamic_update
        @logged("rotary")
        def forward(self, x, position_ids):
            return x * 2
    """


def test_a_decorator_of_a_forward_in_another_file_runs_its_wrapper_there(tmp_path):
    """The wrapper a decorator leaves on a compiled `forward` elsewhere is compiled code of the
    decorator's file, and so is what it calls; a factory's wrapper is the one its arguments pick."""
    found = workspace_findings(tmp_path, {"decorators.py": DECORATORS, "rotary.py": ROTARY}, "decorators.py")
    assert [(f.line, f.code) for f in found] == [(8, "FG101")]  # `loud` (verbose=True only): no FG301
    assert [(r.path.rpartition("/")[2], r.line, r.message) for r in found[0].related][-1] == (
        "rotary.py", 10, "compiled code (`Rotary.forward`) is decorated with `dynamic_update` here")
    loud = ROTARY.replace('@logged("rotary")', '@logged("rotary", verbose=True)')
    found = workspace_findings(tmp_path, {"decorators.py": DECORATORS, "rotary.py": loud}, "decorators.py")
    assert [(f.line, f.code) for f in found] == [(8, "FG101"), (24, "FG301")]


def test_not_when_the_decorated_function_is_not_compiled(tmp_path):
    script = """
        from decorators import dynamic_update

        class Plain:
            @dynamic_update
            def forward(self, x, position_ids):
                return x
        """
    assert workspace_findings(tmp_path, {"decorators.py": DECORATORS, "plain.py": script}, "decorators.py") == []
