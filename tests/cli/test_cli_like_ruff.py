"""The CLI details users compare with ruff, run as subprocesses: noqa, --exit-zero, output formats,
stdin, the default folder, colour, fixable markers, statistics, `fix` exit codes, rules by name."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

MODEL = """import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        if x.sum() > 0:
            x = x * 2
        print(x.shape)
        n = x.nonzero()
        return x.relu() + n.sum()
"""


def fullgraph(*args: str, cwd: Path, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fullgraph", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(MODEL)
    return tmp_path


def test_noqa_suppresses_like_other_linters(project):
    model = project / "pkg" / "model.py"
    model.write_text(MODEL.replace("if x.sum() > 0:", "if x.sum() > 0:  # noqa: FG101")
                     .replace("print(x.shape)", "print(x.shape)  # noqa")
                     .replace("n = x.nonzero()", "n = x.nonzero()  # noqa: E501"))
    done = fullgraph("check", "--output-format", "concise", "pkg", cwd=project)
    assert [line.split()[1] for line in done.stdout.splitlines()[:-1]] == ["FG451"]  # another linter's code
    model.write_text(MODEL.replace("print(x.shape)", "print(x.shape)  # fullgraph: ignore[FG3]"))
    assert "FG301" not in fullgraph("check", "pkg", cwd=project).stdout


def test_exit_zero_and_summary_lines(project):
    done = fullgraph("check", "--output-format", "concise", "pkg", cwd=project)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "pkg/model.py:7:9: FG101 [*] `if` branches on tensor value `x.sum() > 0`",
        "pkg/model.py:9:9: FG301 [*] `print(x.shape)` prints from compiled code",  # deferred to the module's hooks
        "pkg/model.py:10:13: FG451 `x.nonzero()` has a data-dependent output shape",
        "Found 3 findings (2 fixable with `fullgraph fix`).",
    ]
    assert fullgraph("check", "--exit-zero", "pkg", cwd=project).returncode == 0
    (project / "clean.py").write_text("x = 1\n")
    clean = fullgraph("check", "clean.py", cwd=project)
    assert clean.returncode == 0 and clean.stdout == "All checks passed!\n"


def test_full_format_shows_the_source_and_the_fix(project):
    out = fullgraph("check", "pkg", cwd=project).stdout  # full is the default
    assert "pkg/model.py:7:9: FG101 [*] `if` branches on tensor value `x.sum() > 0`\n" in out
    assert "7 |         if x.sum() > 0:\n  |         ^^^^^^^^^^^^^^\n" in out
    assert "= help: Predicate with torch.where" in out
    assert out.endswith("Found 3 findings (2 fixable with `fullgraph fix`).\n")


def test_machine_formats(project):
    (project / "pyproject.toml").write_text('[tool.fullgraph]\nseverity = { FG451 = "info" }\n')
    github = fullgraph("check", "--output-format", "github", "pkg", cwd=project).stdout.splitlines()
    assert github[0] == ("::warning file=pkg/model.py,line=7,endLine=7,col=9,endColumn=23,title=fullgraph (FG101)::"
                         "pkg/model.py:7:9: FG101 `if` branches on tensor value `x.sum() > 0`")
    assert len(github) == 3 and github[2].startswith("::notice ")  # FG451 set to information
    gitlab = json.loads(fullgraph("check", "--output-format", "gitlab", "pkg", cwd=project).stdout)
    assert [(g["check_name"], g["location"]) for g in gitlab][0] == ("FG101", {"path": "pkg/model.py", "lines": {"begin": 7, "end": 7}})
    assert len({g["fingerprint"] for g in gitlab}) == 3 and gitlab[0]["severity"] == "minor"
    sarif = json.loads(fullgraph("check", "--output-format", "sarif", "pkg", cwd=project).stdout)
    assert sarif["version"] == "2.1.0"
    as_json = fullgraph("check", "--format", "json", "pkg", cwd=project)  # --format stays as an alias
    assert [f["code"] for f in json.loads(as_json.stdout)] == ["FG101", "FG301", "FG451"]


def test_stdin_and_default_folder(project):
    done = fullgraph("check", "-", "--stdin-filename", "pkg/model.py", "--output-format", "concise",
                     cwd=project, stdin=MODEL)
    assert done.returncode == 1 and done.stdout.splitlines()[0].startswith("pkg/model.py:7:9: FG101")
    anonymous = fullgraph("check", "-", "--output-format", "concise", cwd=project, stdin=MODEL)
    assert anonymous.stdout.splitlines()[0].startswith("-:7:9: FG101")
    here = fullgraph("check", "--output-format", "concise", cwd=project)
    assert here.stdout.splitlines()[0].startswith("pkg/model.py:7:9: FG101")  # no path: the current folder
    fixed = fullgraph("fix", "-", "--stdin-filename", "pkg/model.py", cwd=project, stdin=MODEL)
    assert "torch.where(" in fixed.stdout and fixed.returncode == 1  # FG451 is left
    assert "not fixed: the rule has no automatic fix" in fixed.stderr


def _on_a_terminal(cwd: Path, *args: str, env: dict | None = None) -> str:
    """Run with stdout on a pseudo-terminal; returns what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fullgraph", *args], cwd=cwd, stdout=follower, stderr=subprocess.DEVNULL,
                            env={k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None})
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode()


def test_colour_only_on_a_terminal(project):
    env = {"NO_COLOR": None}
    assert "\x1b[" in _on_a_terminal(project, "check", "pkg", env=env)
    assert "\x1b[" not in _on_a_terminal(project, "check", "pkg", env={"NO_COLOR": "1"})
    assert "\x1b[" not in fullgraph("check", "pkg", cwd=project, env={"NO_COLOR": ""}).stdout  # piped


def test_statistics_prints_only_the_table(project):
    done = fullgraph("check", "--statistics", "pkg", cwd=project)
    assert done.stdout.splitlines() == [
        "count  code   fixable  rule",
        "    1  FG101        1  tensor-condition-if",
        "    1  FG301        1  print",
        "    1  FG451        0  nonzero",
    ]
    rows = json.loads(fullgraph("check", "--statistics", "--output-format", "json", "pkg", cwd=project).stdout)
    assert rows[0] == {"code": "FG101", "name": "tensor-condition-if", "count": 1, "fixable": 1}


def test_fix_lists_what_it_could_not_fix_and_exits_like_ruff(project):
    model = project / "pkg" / "model.py"
    done = fullgraph("fix", "pkg", cwd=project)
    assert done.returncode == 1  # FG451 remains (the print is deferred, its replay defined above the class)
    fixed = model.read_text()
    line = fixed.splitlines().index("        n = x.nonzero()") + 1
    assert done.stdout.splitlines() == [
        f"pkg/model.py:{line}:13: FG451 `x.nonzero()` has a data-dependent output shape "
        "(not fixed: the rule has no automatic fix)",
        "fullgraph fix: fixed 2 findings in 1 file; 1 finding left.",
    ]
    assert "torch.where(" in fixed and "_fullgraph_defer('M', lambda" in fixed
    model.write_text(MODEL.replace("        n = x.nonzero()\n", "        n = x\n").replace("        print(x.shape)\n", ""))
    done = fullgraph("fix", "pkg", cwd=project)
    assert done.returncode == 0 and done.stdout.endswith("fixed 1 finding in 1 file; 0 findings left.\n")
    again = fullgraph("fix", "pkg", cwd=project)
    assert again.returncode == 0 and "fixed 0 findings in 0 files; 0 findings left." in again.stdout
    assert fullgraph("fix", "--diff", "pkg", cwd=project).returncode == 0


def test_rule_by_name(project):
    by_name = fullgraph("rule", "tensor-condition-if", cwd=project)
    assert by_name.returncode == 0 and by_name.stdout == fullgraph("rule", "FG101", cwd=project).stdout
    assert fullgraph("rule", "no-such-rule", cwd=project).returncode == 2


def test_summary_counts_the_fixes_only_unsafe_fixes_apply(tmp_path):
    """As ruff says how many hidden fixes `--unsafe-fixes` enables: a print the print operator carries
    (in a compiled function, whose deferral is unsafe too)."""
    model = tmp_path / "m.py"
    model.write_text("import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x * 2\n"
                     "    print('y', y.sum())\n    return y + 1\n")
    done = fullgraph("check", "m.py", "--output-format", "concise", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.endswith("Found 1 finding (1 fixable with `fullgraph fix --unsafe-fixes`).\n")
    (tmp_path / "both.py").write_text(model.read_text().replace("    y = x * 2\n", "    y = x * 2\n    if x.sum() > 0:\n"
                                                                "        y = y + 1\n"))
    done = fullgraph("check", "both.py", "--output-format", "concise", cwd=tmp_path)
    assert done.stdout.endswith("Found 2 findings (1 fixable with `fullgraph fix`, 1 more with `fullgraph fix "
                                "--unsafe-fixes`).\n")
    assert fullgraph("fix", "--unsafe-fixes", "m.py", cwd=tmp_path).returncode == 0
    assert "_higher_order_ops.print(\"y {!s}\", y.sum())" in model.read_text()


def test_unsafe_fixes_in_pyproject_is_the_flag(tmp_path):
    """As ruff's `unsafe-fixes = true`: fix-all applies the unsafe fixes without the flag; a value
    that is not a boolean is a configuration error."""
    model = tmp_path / "m.py"
    model.write_text("import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x * 2\n"
                     "    print('y', y.sum())\n    return y + 1\n")
    (tmp_path / "pyproject.toml").write_text("[tool.fullgraph]\nunsafe-fixes = true\n")
    done = fullgraph("check", "m.py", "--output-format", "concise", cwd=tmp_path)
    assert done.stdout.endswith("Found 1 finding (1 fixable with `fullgraph fix`).\n")
    assert fullgraph("fix", "m.py", cwd=tmp_path).returncode == 0
    assert "_higher_order_ops.print(\"y {!s}\", y.sum())" in model.read_text()
    (tmp_path / "pyproject.toml").write_text("[tool.fullgraph]\nunsafe-fixes = \"yes\"\n")
    bad = fullgraph("fix", "m.py", cwd=tmp_path)
    assert bad.returncode == 2 and "unsafe-fixes must be true or false" in bad.stderr


def test_check_fix_applies_the_safe_fixes_then_reports_what_is_left(project):
    """As `ruff check --fix`: the safe rewrites go in, the findings left are reported, with how many
    were fixed; exit 1 while some are left, 0 once none is."""
    model = project / "pkg" / "model.py"
    done = fullgraph("check", "--fix", "--output-format", "concise", "pkg", cwd=project)
    assert done.returncode == 1
    assert [line.split()[1] for line in done.stdout.splitlines()[:-1]] == ["FG451"]
    assert done.stdout.endswith("Found 3 findings (2 fixed, 1 remaining).\n")
    assert "torch.where(" in model.read_text()
    model.write_text(MODEL.replace("        n = x.nonzero()\n", "        n = x\n"))
    done = fullgraph("check", "--fix", "pkg", cwd=project)
    assert done.returncode == 0 and done.stdout.endswith("Found 2 findings (2 fixed, 0 remaining).\n")
    assert fullgraph("check", "--fix", "pkg", cwd=project).stdout.endswith("All checks passed!\n")
    piped = fullgraph("check", "--fix", "-", "--stdin-filename", "m.py", cwd=project,
                      stdin=MODEL.replace("        n = x.nonzero()\n", "        n = x\n"))
    assert "torch.where(" in piped.stdout and "fixed 2 findings" in piped.stderr
    model.write_text(MODEL)
    diff = fullgraph("check", "--diff", "pkg", cwd=project)  # as `ruff check --diff`: nothing written
    assert diff.returncode == 1 and "+        x = torch.where(" in diff.stdout and model.read_text() == MODEL


def test_unsafe_fixes_flags_override_the_setting(tmp_path):
    """`--unsafe-fixes` counts and applies the unsafe fixes, `--no-unsafe-fixes` leaves them out even
    when `unsafe-fixes = true` says otherwise (as ruff's pair)."""
    model = tmp_path / "m.py"
    source = "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x * 2\n" \
             "    print('y', y.sum())\n    return y + 1\n"
    model.write_text(source)
    done = fullgraph("check", "--unsafe-fixes", "m.py", "--output-format", "concise", cwd=tmp_path)
    assert done.stdout.endswith("Found 1 finding (1 fixable with `fullgraph fix`).\n")
    done = fullgraph("check", "--fix", "m.py", "--output-format", "concise", cwd=tmp_path)
    assert done.stdout.endswith("Found 1 finding (1 fixable with `fullgraph fix --unsafe-fixes`).\n")
    assert model.read_text() == source
    (tmp_path / "pyproject.toml").write_text("[tool.fullgraph]\nunsafe-fixes = true\n")
    done = fullgraph("fix", "--no-unsafe-fixes", "m.py", cwd=tmp_path)
    assert done.returncode == 1 and model.read_text() == source
    done = fullgraph("check", "--fix", "m.py", "--output-format", "concise", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.endswith("Found 1 finding (1 fixed, 0 remaining).\n")
    assert "_higher_order_ops.print(" in model.read_text()


def test_unsafe_fixes_marks_them_fixable_in_every_text_format(tmp_path):
    """With `--unsafe-fixes`, as ruff: `[*]` on the findings it would fix, their help line (marked
    unsafe), and the statistics count them."""
    (tmp_path / "m.py").write_text("import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x * 2\n"
                                   "    print('y', y.sum())\n    return y + 1\n")
    plain = fullgraph("check", "m.py", "--output-format", "concise", cwd=tmp_path).stdout
    assert "FG301 `print" in plain and "[*]" not in plain
    marked = fullgraph("check", "--unsafe-fixes", "m.py", "--output-format", "concise", cwd=tmp_path).stdout
    assert "FG301 [*] `print" in marked
    full = fullgraph("check", "--unsafe-fixes", "m.py", cwd=tmp_path).stdout
    assert "print with torch's print operator (unsafe)\n" in full
    table = fullgraph("check", "--unsafe-fixes", "--statistics", "m.py", cwd=tmp_path).stdout.splitlines()
    assert table[1].split()[:3] == ["1", "FG301", "1"]


def test_per_file_ignores_like_ruff(project):
    """`per-file-ignores`: globs relative to the pyproject.toml (a name alone matches in any folder),
    each with the codes or prefixes it ignores there; `check` and `fix` both leave those findings."""
    (project / "scripts").mkdir()
    (project / "scripts" / "run.py").write_text(MODEL)
    (project / "pyproject.toml").write_text(
        '[tool.fullgraph]\nper-file-ignores = { "scripts/*" = ["FG3", "FG45"], "model.py" = ["FG101"] }\n')
    out = fullgraph("check", "--format", "json", ".", cwd=project)
    found = sorted((f["path"], f["code"]) for f in json.loads(out.stdout))
    assert found == [("pkg/model.py", "FG301"), ("pkg/model.py", "FG451"), ("scripts/run.py", "FG101")]
    fixed = fullgraph("fix", "scripts", cwd=project)
    assert "print(" in (project / "scripts" / "run.py").read_text(), fixed.stdout  # FG301 ignored there: no deferral
    (project / "pyproject.toml").write_text('[tool.fullgraph]\nper-file-ignores = { "scripts/*" = ["FG8"] }\n')
    bad = fullgraph("check", ".", cwd=project)
    assert bad.returncode == 2 and "per-file-ignores.scripts/*: unknown rule code or prefix 'FG8'" in bad.stderr
