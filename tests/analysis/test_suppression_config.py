"""Suppression comments and [tool.fullgraph] configuration."""

import pytest
from fullgraph.config import Config, load_config
from fullgraph.engine import analyze
from fullgraph.suppression import suppressed

SRC = """import torch
@torch.compile
def f(x: torch.Tensor):
    print(x){c1}
    if x.sum() > 0:{c2}
        x = x * x.item()
    return x
"""


def codes(c1="", c2="", config=None):
    return [f.code for f in analyze(SRC.format(c1=c1, c2=c2), "s.py", config)]


def test_comments():
    assert codes() == ["FG301", "FG101", "FG201"]
    assert codes("  # fullgraph: ignore") == ["FG101", "FG201"]
    assert codes("  # fullgraph: ignore[FG301]") == ["FG101", "FG201"]
    assert codes("  # fullgraph: ignore[FG1]") == ["FG301", "FG101", "FG201"]
    assert codes(c2="  # fullgraph: ignore[FG3, fg1]") == ["FG301", "FG201"]
    assert codes("  # noqa: FG301") == ["FG101", "FG201"]  # as for every other linter
    assert codes("  # noqa") == ["FG101", "FG201"]
    assert codes("  # noqa: E501") == ["FG301", "FG101", "FG201"]  # another linter's code


def test_comment_on_the_last_line_of_a_multiline_statement():
    src = "import torch\n@torch.compile\ndef f(x):\n    print(\n        x,\n    )  # fullgraph: ignore[FG301]\n"
    assert analyze(src) == []


@pytest.mark.parametrize("line, code, expected", [
    ("x  # fullgraph: ignore", "FG101", True),
    ("x  #fullgraph:ignore[FG101]", "FG101", True),
    ("x  # fullgraph: ignore[FG2,FG30]", "FG301", True),
    ("x  # fullgraph: ignore[FG2]", "FG301", False),
    ("x  # other tool", "FG301", False),
    ("x  # noqa: FG301, E501", "FG301", True),
    ("x  # NOQA:FG3", "FG301", True),
    ("x  # noqa: F", "FG301", False),  # only FG prefixes widen a noqa list
])
def test_suppressed(line, code, expected):
    assert suppressed(line, code) is expected


def test_select_ignore_and_severity():
    assert codes(config=Config(select=("FG1",))) == ["FG101"]
    assert codes(config=Config(ignore=("FG2", "FG301"))) == ["FG101"]
    assert codes(config=Config(select=("FG",), ignore=("FG1",))) == ["FG301", "FG201"]
    assert codes(config=Config(select=("FG101",), ignore=("FG1",))) == ["FG101"]  # most specific wins
    sev = analyze(SRC.format(c1="", c2=""), "s.py", Config(severity={"FG3": "error", "FG301": "hint"}))
    assert [f.severity for f in sev] == ["hint", "warning", "warning"]


def test_load_config_from_nearest_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text("""
[tool.fullgraph]
select = ["FG1", "FG3"]
ignore = ["FG302"]
assume-compiled = "decorated"
exclude = ["generated/", "*_pb2.py"]
run = "onSave"

[tool.fullgraph.severity]
FG101 = "error"

[tool.fullgraph.confirm]
"model.py::Model" = "tests/factories.py:make_model"
""")
    sub = tmp_path / "pkg" / "models"
    sub.mkdir(parents=True)
    config = load_config(sub)
    assert config.select == ("FG1", "FG3") and config.ignore == ("FG302",)
    assert config.assume_compiled == "decorated"
    assert config.severity_for("FG101", "warning") == "error"
    assert config.severity_for("FG102", "warning") == "warning"
    assert config.extra["run"] == "onSave"
    assert config.extra["confirm"] == {"model.py::Model": "tests/factories.py:make_model"}
    assert config.excludes(str(tmp_path / "generated" / "a.py"))
    assert config.excludes("pkg/foo_pb2.py")
    assert not config.excludes(str(sub / "model.py"))
    assert config.selects("FG101") and not config.selects("FG302") and not config.selects("FG201")


def test_merged_and_errors(tmp_path):
    config = Config().merged({"assume_compiled": "all", "select": "FG1, FG2", "debounce": 300})
    assert config.assume_compiled == "all" and config.select == ("FG1", "FG2")
    assert config.extra == {"debounce": 300}
    with pytest.raises(ValueError):
        Config().merged({"assume-compiled": "sometimes"})
    (tmp_path / "pyproject.toml").write_text("[tool.fullgraph\n")
    with pytest.raises(ValueError):
        load_config(tmp_path)


def test_defaults_without_pyproject(tmp_path):
    assert load_config(tmp_path) == Config()


def test_a_linked_folder_takes_the_config_of_the_project_that_links_it(tmp_path):
    """A package linked into a project (a symlink) is checked with that project's settings, not
    with whatever pyproject.toml lies above the link's target."""
    outside = tmp_path / "outside"
    (outside / "lib").mkdir(parents=True)
    (outside / "pyproject.toml").write_text("[tool.fullgraph]\nassume_compiled = 'all'\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.fullgraph]\nassume_compiled = 'decorated'\n")
    (project / "lib").symlink_to(outside / "lib", target_is_directory=True)
    config = load_config(project / "lib" / "m.py")
    assert config.assume_compiled == "decorated" and config.root == str(project)
