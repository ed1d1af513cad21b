"""`fullgraph confirm` and `fullgraph fix --verify` end to end (the worker runs Dynamo for real)."""

import json
import shutil

import pytest

from fullgraph.cli import main
from fullgraph.confirm.verify import verify_fix_all
from fullgraph.fixes import FixAllResult

from .conftest import fixture, line_of

pytestmark = pytest.mark.torch


def test_confirm_json_marks_findings_and_counts_graphs(capsys):
    path, branchy = fixture("clip.py"), fixture("branchy.py")
    assert main(["confirm", "--format", "json", path, f"{branchy}::reached", fixture("factory_raises.py")]) == 1
    out = json.loads(capsys.readouterr().out)
    by_place = {(f["path"], f["line"]): f for f in out["findings"]}
    assert by_place[path, line_of(path, "if h.sum() > 0")]["confirmed"] is True
    assert by_place[path, line_of(path, 'print("clipped")')]["confirmed"] is True
    dynamo_only = by_place[branchy, line_of(branchy, "if y.sum() > 0")]
    assert dynamo_only["code"] == "FG900" and dynamo_only["gb_ids"] == ["GB0170"]
    assert "Data-dependent branching" in dynamo_only["message"]
    clip, reached, raising = out["targets"]
    assert clip["graphs"] == [3, 3, 3, 2]  # the last input set is all negative: the branch is not taken
    assert reached["target"] == "branchy.py::reached" and reached["graphs"] == [2, 2]
    assert raising["error"]["kind"] == "factory" and "checkpoint not found" in out["errors"][0]


def test_a_run_that_raises_is_an_error_not_a_break(capsys):
    path = fixture("raises_on_none.py")
    assert main(["confirm", f"{path}::Broken"]) == 2
    out, err = capsys.readouterr()
    assert "Observed exception" not in out and "0 distinct breaks" in out  # Dynamo met the run's own error
    assert "running the target raised AttributeError: 'NoneType' object has no attribute 'exp'" in err
    assert "these inputs were synthesized (x (2, 4)): write them into the file as fullgraph_example_Broken()" in err


def test_fix_verify_applies_when_outputs_match(tmp_path, capsys):
    path = tmp_path / "clip.py"
    shutil.copy(fixture("clip.py"), path)
    assert main(["fix", "--verify", str(path)]) == 0  # the branch predicated, the constant print in the graph
    assert "graphs 3 → 1, outputs identical on 4 input sets" in capsys.readouterr().err
    assert "torch.where" in path.read_text() and 'torch._higher_order_ops.print("clipped")' in path.read_text()


def test_verify_refuses_a_fix_that_changes_outputs(tmp_path, client):
    path = tmp_path / "clip.py"
    shutil.copy(fixture("clip.py"), path)
    wrong = FixAllResult(open(fixture("wrong/clip.py")).read(), (), 1)
    result = verify_fix_all(client, str(path), path.read_text(), fixed=wrong)
    assert not result.ok and result.source == path.read_text()
    assert "outputs differ (input set 1: output differs" in result.message
    assert result.message.endswith("clip.py: nothing applied")
