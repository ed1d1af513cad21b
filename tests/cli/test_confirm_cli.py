"""`fullgraph confirm` on folders and its one-verdict-per-line text (a subprocess; Dynamo runs for real)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fullgraph.commands.confirm import print_text
from fullgraph.findings import Finding

CLIP = Path(__file__).resolve().parents[1] / "confirm" / "fixtures" / "clip.py"


def test_the_verdict_is_said_once(capsys):
    confirmed = Finding("m.py", 3, 4, 3, 9, "FG101", "`if` branches on tensor value `h.sum() > 0` "
                        "[confirmed by Dynamo: Data-dependent branching (GB0170)]", confirmed=True)
    missed = Finding("m.py", 5, 4, 5, 9, "FG301", "`print(x)` prints from compiled code "
                     "[not reached by the sample inputs]", confirmed=False)
    print_text([confirmed, missed], [], [])
    assert capsys.readouterr().out.splitlines() == [
        "m.py:3:5: FG101 `if` branches on tensor value `h.sum() > 0` (confirmed)",
        "m.py:5:5: FG301 `print(x)` prints from compiled code (not confirmed)",
    ]


@pytest.mark.torch
def test_confirm_takes_a_folder(tmp_path):
    (tmp_path / "models").mkdir()
    shutil.copy(CLIP, tmp_path / "models" / "clip.py")
    (tmp_path / "models" / "helpers.py").write_text("def add(a, b):\n    return a + b\n")  # no sample inputs: skipped
    done = subprocess.run([sys.executable, "-m", "fullgraph", "confirm", "models"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr  # confirmed breaks
    lines = done.stdout.splitlines()
    assert [line.split()[1] for line in lines[:2]] == ["FG101", "FG301"]
    assert all(line.count("confirmed") == 1 and line.endswith("(confirmed)") for line in lines[:2])
    assert lines[2].startswith("clip.py: graphs per input set: 3, 3, 3, 2")
    assert "helpers.py" not in done.stdout + done.stderr
