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
