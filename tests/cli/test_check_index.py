"""`fullgraph check` with the project index: across files, its disk caches, `--no-index`."""

import json

import pytest
from fullgraph.cli import main

BASE = "import torch\nfrom torch import nn\nclass Base(nn.Module):\n    pass\n"
PLAIN = "class Base:\n    pass\n"
MODEL = ("from base import Base\nclass Net(Base):\n    def forward(self, x, y):\n"
         "        if x.sum() > 0:\n            x = x * 2\n        return x\n")
HELPERS = "def clip(x):\n    if x.max() > 1:\n        return x / 2\n    return x\n"
USER = "from torch import nn\nfrom helpers import clip\nclass User(nn.Module):\n    def forward(self, x):\n" \
       "        return clip(x)\n"


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "base.py").write_text(PLAIN)
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def check(capsys, *argv):
    code = main(["check", "--format", "json", "--jobs", "1", *argv])
    return code, [(f["path"], f["line"], f["code"]) for f in json.loads(capsys.readouterr().out)]


def test_results_follow_changes_in_the_files_an_analysis_read(workspace, capsys):
    # `Net(Base)` with a plain imported base: without the index a guess makes it a module.
    assert check(capsys, "model.py", "--no-index")[1] == [("model.py", 4, "FG101")]
    assert check(capsys, "model.py") == (0, [])
    assert check(capsys, "model.py") == (0, [])  # from the results cache
    (workspace / "base.py").write_text(BASE)  # a file the analysis read changed: not reused
    assert check(capsys, "model.py") == (1, [("model.py", 4, "FG101")])
    assert list((workspace / "cache" / "fullgraph").iterdir())


def test_helper_findings_are_reported_in_their_file_once(workspace, capsys):
    (workspace / "helpers.py").write_text(HELPERS)
    (workspace / "user.py").write_text(USER)
    code, found = check(capsys, "user.py", "helpers.py")
    assert code == 1 and found == [("helpers.py", 2, "FG101")]


def test_a_helper_checked_alone_shows_what_compiled_code_elsewhere_reaches_in_it(workspace, capsys):
    """As a pre-commit run does with the one file changed: `user.py`'s module calls `clip`."""
    (workspace / "helpers.py").write_text(HELPERS)
    (workspace / "user.py").write_text(USER)
    assert check(capsys, "helpers.py") == (1, [("helpers.py", 2, "FG101")])
    (workspace / "user.py").write_text(USER.replace("(nn.Module)", ""))  # no longer compiled code
    assert check(capsys, "helpers.py") == (0, [])
    (workspace / "sub").mkdir()  # a new file anywhere may call it: the cached result no longer holds
    (workspace / "sub" / "other.py").write_text(USER)
    assert check(capsys, "helpers.py") == (1, [("helpers.py", 2, "FG101")])


def test_fix_finds_what_check_finds(workspace, capsys):
    """`fix` analyses with the same project index as `check`: a class whose imported base is a
    plain class is not compiled code, so it is left alone (without the index a guess would make
    it a module and rewrite it)."""
    source = MODEL.replace("from base", "import torch\nfrom base").replace("(self, x, y)", "(self, x: torch.Tensor, y)")
    (workspace / "model.py").write_text(source)
    assert main(["fix", "model.py"]) == 0
    assert (workspace / "model.py").read_text() == source
    assert "0 findings left" in capsys.readouterr().out
    assert main(["fix", "--no-index", "model.py"]) == 0
    assert "torch.where" in (workspace / "model.py").read_text()


SPLINES = "def bounded(x):\n    inside = x.abs() <= 1\n    return x[inside]\n\n\ndef unbounded(x):\n    return x * 2\n"
COUPLING = ("from torch import nn\nfrom flows import splines\n\n\nclass Coupling(nn.Module):\n"
            "    def __init__(self, tails=None):\n        super().__init__()\n        self.tails = tails\n\n"
            "    def forward(self, x):\n        if self.tails is None:\n            spline_fn = splines.bounded\n"
            "        else:\n            spline_fn = splines.unbounded\n        return spline_fn(x)\n")


def test_a_package_folder_resolves_its_own_imports_and_a_name_holding_functions_runs_them(tmp_path, monkeypatch, capsys):
    """`fullgraph check flows` with no pyproject: `from flows import splines` resolves from the
    folder `flows` sits in, and `spline_fn(x)` runs whichever function the branches bound."""
    package = tmp_path / "flows"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "splines.py").write_text(SPLINES)
    (package / "coupling.py").write_text(COUPLING)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert check(capsys, "flows") == (1, [("flows/splines.py", 3, "FG453")])
