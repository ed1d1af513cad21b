"""`fullgraph fix`: in place, --diff, --select/--ignore, exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

from fullgraph.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "fixes"


def copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / "model.py"
    shutil.copy(FIXTURES / name, target)
    return target


def test_fix_in_place_then_nothing_left(tmp_path, capsys):
    path = copy(tmp_path, "predicate/if_else_assign.in.py")
    assert main(["fix", str(path)]) == 0  # as `ruff check --fix`: 0 when nothing is left
    assert path.read_text() == (FIXTURES / "predicate/if_else_assign.out.py").read_text()
    assert "fixed 1 finding in 1 file; 0 findings left." in capsys.readouterr().out
    assert main(["fix", str(path)]) == 0


def test_diff_prints_and_does_not_write(tmp_path, capsys):
    path = copy(tmp_path, "predicate/if_else_assign.in.py")
    before = path.read_text()
    assert main(["fix", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "torch.where(" in out and out.startswith("--- a/")
    assert path.read_text() == before


def test_select_and_ignore(tmp_path, capsys):
    path = copy(tmp_path, "defer/print_item.in.py")
    before = path.read_text()
    assert main(["fix", "--select", "FG1", str(path)]) == 0
    assert main(["fix", "--ignore", "FG3", str(path)]) == 1  # FG201 has no safe fix here: it is left
    assert "FG201" in capsys.readouterr().out
    assert path.read_text() == before
    assert main(["fix", "--select", "FG301", str(path)]) == 0  # the deferral of a module's forward: safe
    assert path.read_text() == (FIXTURES / "defer/print_item.out.py").read_text()
    branch = copy(tmp_path, "predicate/if_else_assign.in.py")
    original = branch.read_text()
    assert main(["fix", "--select", "FG3", str(branch)]) == 0 and branch.read_text() == original
    assert main(["fix", "--select", "FG101", str(branch)]) == 0 and branch.read_text() != original


def test_folder_and_missing_path(tmp_path, capsys):
    copy(tmp_path, "predicate/ternary.in.py")
    (tmp_path / "broken.py").write_text("def f(:\n")
    assert main(["fix", str(tmp_path)]) == 1
    assert main(["fix", str(tmp_path / "nope.py")]) == 2


def _fixture_folder(root: Path) -> Path:
    """Every predication fixture input (more files than `check` takes to start workers) and a clean file."""
    root.mkdir()
    for source in sorted((FIXTURES / "predicate").glob("*.in.py")):
        shutil.copy(source, root / source.name.replace(".in.py", ".py"))
    (root / "clean.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def test_a_folder_is_analysed_in_parallel_first_and_fixed_as_one_file_at_a_time(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    one, two = _fixture_folder(tmp_path / "one"), _fixture_folder(tmp_path / "two")
    main(["fix", "--jobs", "1", str(one)])
    serial = capsys.readouterr().out.replace(str(one), "<dir>")
    main(["fix", "--jobs", "2", str(two)])
    parallel = capsys.readouterr().out.replace(str(two), "<dir>")
    assert parallel == serial and "fixed " in parallel and " left." in parallel
    for path in sorted(one.iterdir()):
        assert (two / path.name).read_text() == path.read_text()
    changed = [p.name for p in one.iterdir() if p.name != "clean.py"
               and p.read_text() != (FIXTURES / "predicate" / p.name.replace(".py", ".in.py")).read_text()]
    assert len(changed) > 1
    # what it says is left is what `check` finds in the fixed files
    main(["check", "--output-format", "concise", "--exit-zero", str(two)])
    found = {line for line in capsys.readouterr().out.splitlines() if ": FG" in line}
    left = {line.split(" (not fixed: ")[0] for line in parallel.replace("<dir>", str(two)).splitlines() if " (not fixed: " in line}
    assert left == found and left
    main(["fix", "--jobs", "2", str(two)])  # nothing more to do, the same left
    again = capsys.readouterr().out
    assert "fixed 0 findings in 0 files" in again and again.count(" (not fixed: ") == len(left)


HELPER = '''import torch


def scale(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return y
'''
MODEL = '''import torch
from torch import nn

from helpers import scale


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        return scale(x) + 1
'''


def test_fix_fixes_what_check_reports_in_a_helper_another_file_calls(tmp_path, capsys, monkeypatch):
    """The branch is a finding of `helpers.py` only because `model.py`'s `forward` calls it: `check`
    reports it there as fixable, so `fix` fixes it, and reports what is left as `check` does."""
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "other.py").write_text(MODEL.replace("class M(", "class Other("))  # places the same finding
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--output-format", "concise", "."]) == 1
    assert "helpers.py:5:5: FG101 [*]" in capsys.readouterr().out
    assert main(["fix", "--diff", "."]) == 1
    assert "+    y = torch.where(x.sum() > 0, x * 2, -x)" in capsys.readouterr().out
    assert (tmp_path / "helpers.py").read_text() == HELPER
    assert main(["fix", "model.py"]) == 1  # only the paths given are written; the helper's finding is left
    assert "helpers.py:5:5: FG101 [*]" in capsys.readouterr().out and (tmp_path / "helpers.py").read_text() == HELPER
    assert main(["fix", "."]) == 0
    assert "y = torch.where(x.sum() > 0, x * 2, -x)" in (tmp_path / "helpers.py").read_text()
    assert "fixed 1 finding in 1 file; 0 findings left." in capsys.readouterr().out
    assert main(["check", "."]) == 0
