"""A module-level dictionary of plain classes (`SOLVERS = {"euler": Euler, "rk4": RK4}`) called by
key (`SOLVERS[method](...)`) makes an object of one of them: a method called on it runs the method
of whichever class it is, so each class's is walked, and a base's method called that way runs each
class's overrides of what it calls on `self`."""

import textwrap

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document

SOLVERS = """
    import torch
    from torch import nn

    class Solver:
        def __init__(self, y0):
            self.y0 = y0

        def integrate(self, t):
            return self._step(self.y0, t)

        def _step(self, y, t):
            raise NotImplementedError

    class Euler(Solver):
        def _step(self, y, t):
            return y + t

    class Adaptive(Solver):
        def _step(self, y, t):
            while (t > 0).any():
                t = t - 1
            return y * t

    SOLVERS = {"euler": Euler, "adaptive": Adaptive}

    class ODE(nn.Module):
        def forward(self, y0: torch.Tensor, t: torch.Tensor, method: str = "euler"):
            solver = SOLVERS[method](y0)
            return solver.integrate(t)
    """


def _codes(text, config=Config()):
    return [(f.line, f.code) for f in analyze(textwrap.dedent(text), "<s>", config)]


def test_a_method_called_on_a_registry_object_runs_each_classs_override():
    # the loop on a tensor is in `Adaptive._step`, which `Solver.integrate` runs on `self`
    assert _codes(SOLVERS) == [(21, "FG102")]


def test_not_when_a_value_is_not_a_class():
    text = SOLVERS.replace('SOLVERS = {"euler": Euler, "adaptive": Adaptive}',
                           'SOLVERS = {"euler": Euler, "adaptive": Adaptive, "none": None}')
    assert _codes(text) == []


def test_the_classes_may_live_in_another_file(tmp_path):
    solvers, model = textwrap.dedent(SOLVERS).split("SOLVERS =")
    (tmp_path / "solvers.py").write_text(solvers)
    (tmp_path / "model.py").write_text("from solvers import Euler, Adaptive\n\nSOLVERS =" + model)
    report = analyze_document((tmp_path / "model.py").read_text(), str(tmp_path / "model.py"), Config(),
                              project=ProjectIndex(roots=[tmp_path], search_paths=()))
    # the model file's `forward` reaches the loop in the other file, where the finding goes
    assert report.findings == []
    assert [(f.path.rpartition("/")[2], f.line, f.code) for f in report.elsewhere] == [("solvers.py", 21, "FG102")]


def test_not_a_registry_too_large_to_walk():
    classes = "".join(f"    class S{i}(Solver):\n        pass\n\n" for i in range(40))
    table = ", ".join(f'"s{i}": S{i}' for i in range(40))
    text = SOLVERS.replace('    SOLVERS = {"euler": Euler, "adaptive": Adaptive}',
                           classes + '    SOLVERS = {"euler": Euler, "adaptive": Adaptive, ' + table + "}")
    assert _codes(text) == []
