"""`assume_compiled = "api"`: the functions a package's `__init__.py` exports are what its users
call from their compiled code (`torchdiffeq.odeint`, `e3nn.o3.matrix_to_angles`), so they are entries,
with the export as related information; private helpers stay unchecked unless the API reaches them."""

from fullgraph.config import Config

from workspace_files import workspace_findings

API = Config(assume_compiled="api")
OPS = """
    import torch

    def angles(R):
        if R.det() < 0:
            R = -R
        return torch.atan2(R[..., 1, 0], R[..., 0, 0])

    def _private(R):
        return R.nonzero()

    def seed(n):
        torch.manual_seed(n)

    def uses_private(R):
        return _private(R) + 1
    """


def _codes(found):
    return [(f.line, f.code) for f in found]


def test_an_exported_function_is_an_entry_with_its_export_as_related_information(tmp_path):
    files = {"pkg/__init__.py": "from .ops import angles\n", "pkg/ops.py": OPS}
    found = workspace_findings(tmp_path, files, "pkg/ops.py", API)
    assert _codes(found) == [(5, "FG101")]
    [finding] = found
    assert "a guess" in finding.message  # `R` is a parameter no call of the workspace passes
    assert [(r.path.rpartition("/")[2], r.line, r.message) for r in finding.related] == [
        ("__init__.py", 1, "`angles` is exported here: the package's users call it from their compiled code")]
    assert finding.data.get("exported") is True


def test_not_under_the_default(tmp_path):
    files = {"pkg/__init__.py": "from .ops import angles\n", "pkg/ops.py": OPS}
    assert workspace_findings(tmp_path, files, "pkg/ops.py") == []


def test_through_a_subpackage_and_all(tmp_path):
    files = {
        "pkg/__init__.py": "from .sub import *\n",
        "pkg/sub/__init__.py": "from .ops import angles, uses_private, _private\n__all__ = ['angles', 'uses_private']\n",
        "pkg/sub/ops.py": OPS,
    }
    found = workspace_findings(tmp_path, files, "pkg/sub/ops.py", API)
    # `_private` is reached through `uses_private` (the API's own call), not as an export
    assert _codes(found) == [(5, "FG101"), (10, "FG451")]
    nonzero = found[1]
    assert [r.message for r in nonzero.related][-1] == \
        "`uses_private` is exported here: the package's users call it from their compiled code"


def test_a_function_run_for_its_effects_or_not_exported_is_no_entry(tmp_path):
    files = {"pkg/__init__.py": "from .ops import seed as set_seed\nfrom . import ops\n", "pkg/ops.py": OPS}
    # `seed` returns nothing (it is called around compiled code, not in it); `ops.angles` is reached
    # only through the submodule, which is no name of the package's own
    assert workspace_findings(tmp_path, files, "pkg/ops.py", API) == []


def test_a_file_outside_any_package_exports_nothing(tmp_path):
    assert workspace_findings(tmp_path, {"ops.py": OPS}, "ops.py", API) == []


def test_a_print_in_an_exported_function_is_not_deferred(tmp_path):
    ops = """
        import torch

        def normalize(x: torch.Tensor) -> torch.Tensor:
            print("norm", x.norm())
            return x / x.norm()
        """
    files = {"pkg/__init__.py": "from .ops import normalize\n", "pkg/ops.py": ops}
    [found] = workspace_findings(tmp_path, files, "pkg/ops.py", API)
    assert found.code == "FG301"
    # its epilogue would run at the end of `normalize`, inside the user's graph, which it still breaks
    assert "`normalize` is an entry as its package exports it" in found.fix_blocked


FLOW = """
    import torch
    from torch import nn

    class Flow(nn.Module):
        def forward(self, z: torch.Tensor):
            return z * 2

        def sample(self, n: int):
            z = torch.randn(n, 2)
            return z[z[:, 0] > 0]

        def reset(self):
            self.scale = torch.randn(2).item()

        @property
        def width(self):
            return torch.randn(2).nonzero()

        def _helper(self, z):
            return z.nonzero()
    """


def test_the_public_methods_of_an_exported_class_are_entries(tmp_path):
    files = {"flows/__init__.py": "from .base import Flow\n", "flows/base.py": FLOW}
    found = workspace_findings(tmp_path, files, "flows/base.py", API)
    # `sample` (a public method that returns a value); not `reset` (run for its effect), the
    # property, nor `_helper`
    assert _codes(found) == [(11, "FG453")]
    assert [r.message for r in found[0].related] == [
        "`Flow` is exported here: the package's users call it from their compiled code"]
    assert workspace_findings(tmp_path, files, "flows/base.py") == []  # the default: `forward` only


def test_callers_in_other_files_give_an_exported_function_its_facts(tmp_path):
    ops = """
        import torch

        def to_int(x):
            return int(x)
        """
    caller = """
        import torch
        from pkg.ops import to_int

        def rows(t: torch.Tensor):
            return to_int(t.shape[0])
        """
    files = {"pkg/__init__.py": "from .ops import to_int\n", "pkg/ops.py": ops}
    [guessed] = workspace_findings(tmp_path / "a", files, "pkg/ops.py", API)  # no caller: `x` guessed a tensor
    assert guessed.code == "FG204" and "a guess" in guessed.message
    # the workspace's own call passes a size: `x` is no tensor
    assert workspace_findings(tmp_path / "b", {**files, "caller.py": caller}, "pkg/ops.py", API) == []


def test_an_exported_autograd_function_is_called_through_apply_not_as_api(tmp_path):
    ops = """
        import torch

        class Matern(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, nu):
                if nu == 0.5:
                    return x.exp()
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad, None
        """
    files = {"pkg/__init__.py": "from .ops import Matern\n", "pkg/ops.py": ops}
    # `nu` would be guessed a tensor; what runs `forward` is `Matern.apply(x, self.nu)` in a caller
    assert workspace_findings(tmp_path, files, "pkg/ops.py", API) == []
