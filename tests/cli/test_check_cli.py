"""`fullgraph check|rules|rule`: output formats, statistics, exit codes, bad input."""

import json

import pytest
from fullgraph.cli import main

MODEL = """import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        if x.sum() > 0:
            x = x * 2
        print(x.shape)
        return x.relu()
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(MODEL)
    (tmp_path / "pkg" / "clean.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_and_exit_codes(project, capsys):
    code, out, err = run(capsys, "check", "pkg", "--output-format", "concise")
    assert code == 1
    assert out.splitlines() == [
        "pkg/model.py:7:9: FG101 [*] `if` branches on tensor value `x.sum() > 0`",
        "pkg/model.py:9:9: FG301 [*] `print(x.shape)` prints from compiled code",  # deferred to the module's hooks
        "Found 2 findings (2 fixable with `fullgraph fix`).",
    ]
    assert run(capsys, "check", "pkg/clean.py")[0] == 0


def test_usage_errors_exit_2(project, capsys):
    assert run(capsys, "check", "missing.py")[0] == 2
    with pytest.raises(SystemExit) as exc:
        main(["check", "pkg", "--format", "xml"])
    assert exc.value.code == 2
    (project / "pyproject.toml").write_text("[tool.fullgraph]\nassume_compiled = 'never'\n")
    code, _, err = run(capsys, "check", "pkg")
    assert code == 2 and "assume_compiled" in err


def test_json_format(project, capsys):
    code, out, _ = run(capsys, "check", "pkg/model.py", "--format", "json")
    data = json.loads(out)
    assert code == 1 and [d["code"] for d in data] == ["FG101", "FG301"]
    first = data[0]
    for key in ("path", "line", "col", "end_line", "end_col", "code", "message", "severity", "confidence",
                "gb_ids", "fix"):
        assert key in first
    assert (first["line"], first["col"], first["gb_ids"], first["fix"]) == (7, 8, ["GB0170"], "predicate")


def test_sarif_format(project, capsys):
    _, out, _ = run(capsys, "check", "pkg", "--format", "sarif")
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    [sarif_run] = log["runs"]
    assert [r["id"] for r in sarif_run["tool"]["driver"]["rules"]] == ["FG101", "FG301"]
    result = sarif_run["results"][0]
    assert result["ruleId"] == "FG101" and result["level"] == "warning"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (7, 9)


def test_statistics_and_options(project, capsys):
    code, out, _ = run(capsys, "check", "pkg", "--statistics", "--select", "FG1")
    assert code == 1 and out.splitlines() == ["count  code   fixable  rule", "    1  FG101        1  tensor-condition-if"]
    assert run(capsys, "check", "pkg", "--ignore", "FG1,FG3")[0] == 0
    assert run(capsys, "check", "pkg", "--assume-compiled", "decorated")[0] == 0


def test_config_exclude_and_bad_files(project, capsys):
    (project / "pyproject.toml").write_text('[tool.fullgraph]\nexclude = ["pkg/model.py"]\nignore = ["FG3"]\n')
    (project / "pkg" / "broken.py").write_bytes(b"def f(:\n")
    (project / "pkg" / "latin.py").write_bytes(b"s = '\xe9'\n")
    (project / "pkg" / "empty.py").write_text("")
    code, out, _ = run(capsys, "check", "pkg", "--format", "text")
    assert code == 1
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()[:-1]] == ["FG000", "FG000"]
    assert "model.py" not in out
    code, out, _ = run(capsys, "check", "pkg/model.py", "--config", str(project / "pyproject.toml"), "--format", "text")
    assert [line.split()[1] for line in out.splitlines()[:-1]] == ["FG101"]  # explicit file, FG3 ignored


def test_many_files_run_in_parallel_with_the_same_result(project, capsys):
    for i in range(40):
        (project / "pkg" / f"m{i:02d}.py").write_text(MODEL)
    _, serial, _ = run(capsys, "check", "pkg", "--jobs", "1")
    _, parallel, _ = run(capsys, "check", "pkg", "--jobs", "2")
    assert serial == parallel and serial.count("FG101") == 41


def test_rules_and_rule(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0 and out.splitlines()[1].startswith("FG001  not-analyzed")
    assert out.splitlines()[2].startswith("FG101  tensor-condition-if")
    code, out, _ = run(capsys, "rules", "--format", "json")
    by_code = {r["code"]: r for r in json.loads(out)}
    assert by_code["FG301"]["name"] == "print" and by_code["FG101"]["doc_url"].endswith("/docs/rules/FG101.md")
    code, out, _ = run(capsys, "rule", "fg101")
    assert code == 0 and out.startswith("# tensor-condition-if (FG101)")
    assert "gb0170.html" in out and "## Example" in out
    assert run(capsys, "rule", "FG999")[0] == 2
    code, out, _ = run(capsys, "rule", "tensor-condition-if")
    assert code == 0 and out.startswith("# tensor-condition-if (FG101)")


def test_api_setting_checks_what_a_package_exports(project, capsys):
    (project / "pkg" / "__init__.py").write_text("from .ops import clip\n")
    (project / "pkg" / "ops.py").write_text("import torch\n\n\ndef clip(x):\n    return x[x > 0]\n")
    assert run(capsys, "check", "pkg/ops.py")[0] == 0  # the default checks modules only
    code, out, _ = run(capsys, "check", "pkg/ops.py", "--assume-compiled", "api", "--output-format", "concise")
    assert code == 1 and out.splitlines()[0].startswith("pkg/ops.py:5:12: FG453 ")
    (project / "pyproject.toml").write_text('[tool.fullgraph]\nassume_compiled = "api"\n')
    assert run(capsys, "check", "pkg/ops.py")[0] == 1
