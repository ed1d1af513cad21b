"""`fullgraph confirm` for CI: GitHub annotations, exit codes, synthesized inputs written as a factory."""

import shutil

import pytest

from fullgraph.cli import main
from fullgraph.commands.github import annotation

from .conftest import fixture, line_of

pytestmark = pytest.mark.torch


def test_github_annotations_and_exit_codes(capsys, tmp_path):
    xlm, tower = fixture("tinyhf/models/xlm/modeling_xlm.py"), fixture("plain_defaults.py")
    assert main(["confirm", "--output-format", "github", f"{xlm}::XLMModel"]) == 1
    out = capsys.readouterr().out.splitlines()
    line = line_of(xlm, ".item()")
    (item,) = [ln for ln in out if f"line={line}," in ln]
    assert item.startswith(f"::warning file={xlm},line={line},endLine={line},col=")
    assert ",title=fullgraph (FG" in item and "Tensor.item()" in item
    assert "modeling_xlm.py::XLMModel: inputs synthesized: input_ids (2, 16) int64, attention_mask (2, 16) int64" in out
    assert main(["confirm", "--output-format", "github", f"{tower}::Tower"]) == 0
    assert main(["confirm", "--output-format", "github", f"{tower}::NeedsArgs"]) == 2
    (error,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::error")]
    assert error.startswith("::error title=fullgraph confirm::plain_defaults.py::NeedsArgs: no factory for NeedsArgs")


def test_write_example_adds_the_factory_once(tmp_path, capsys):
    path = tmp_path / "plain_defaults.py"
    shutil.copy(fixture("plain_defaults.py"), path)
    assert main(["confirm", "--write-example", f"{path}::Tower"]) == 0
    text = path.read_text()
    assert text.count("def fullgraph_example_Tower():") == 1 and "    x = torch.randn(2, 8)\n" in text
    assert "wrote fullgraph_example_Tower()" in capsys.readouterr().err
    assert main(["confirm", "--write-example", f"{path}::Tower"]) == 0
    assert path.read_text() == text  # the second run used the written factory and wrote nothing
    assert "inputs synthesized" not in capsys.readouterr().out


def test_annotation_escapes_messages_and_properties():
    text = annotation("info", "50% done\nnext", "a: b, c", "dir/x,y.py", 3, 0, 3, 4)
    assert text == "::notice file=dir/x%2Cy.py,line=3,endLine=3,col=1,endColumn=5,title=a%3A b%2C c::50%25 done%0Anext"
