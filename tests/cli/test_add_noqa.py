"""`fullgraph check --add-noqa`, run as a subprocess on files with findings: every finding that can
take a comment is suppressed, the code and its comments stay, line ends too, and a second run adds
nothing; a line ending inside a multi-line string is left and named."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from fullgraph.commands.add_noqa import add_suppressions
from fullgraph.findings import Finding

MODEL = '''import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        if x.sum() > 0:  # keep me
            x = x * 2
        print(x.shape)  # fullgraph: ignore[FG1]
        n = x.nonzero(); print(n)
        return x.relu() + n.sum()
'''


def fullgraph(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fullgraph", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "XDG_CACHE_HOME": str(cwd / ".cache")})


def test_every_finding_is_suppressed_and_the_code_stays(tmp_path):
    model = tmp_path / "model.py"
    model.write_text(MODEL)
    assert fullgraph("check", "model.py", cwd=tmp_path).returncode == 1
    done = fullgraph("check", "--add-noqa", "model.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Added 4 suppression comments to 1 file." in done.stderr
    text = model.read_text()
    assert text.splitlines()[6:10] == [
        "        if x.sum() > 0:  # keep me  # fullgraph: ignore[FG101]",
        "            x = x * 2",
        "        print(x.shape)  # fullgraph: ignore[FG1,FG301]",
        "        n = x.nonzero(); print(n)  # fullgraph: ignore[FG301,FG451]",
    ]
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(MODEL))
    after = fullgraph("check", "--output-format", "concise", "model.py", cwd=tmp_path)
    assert after.returncode == 0 and after.stdout.strip() == "All checks passed!", after.stdout
    again = fullgraph("check", "--add-noqa", "model.py", cwd=tmp_path)
    assert "Added 0 suppression comments to 0 files." in again.stderr and model.read_text() == text


def test_line_ends_and_encoding_are_kept(tmp_path):
    model = tmp_path / "model.py"
    model.write_bytes(b"\xef\xbb\xbf" + MODEL.replace("\n", "\r\n").encode())
    assert fullgraph("check", "--add-noqa", "model.py", cwd=tmp_path).returncode == 0
    data = model.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\n") == MODEL.count("\n") and b"\n" not in data.replace(b"\r\n", b"")
    assert b"print(x.shape)  # fullgraph: ignore[FG1,FG301]\r\n" in data


def test_a_finding_in_a_multi_line_string_takes_the_comment_after_its_end(tmp_path):
    model = tmp_path / "model.py"
    source = MODEL.replace("        return x.relu()", '        s = """a\n        b""" if x.any() else ""\n        return x.relu()')
    model.write_text(source)
    assert fullgraph("check", "--add-noqa", "model.py", cwd=tmp_path).returncode == 0
    assert model.read_text().splitlines()[11] == '        b""" if x.any() else ""  # fullgraph: ignore[FG103]'
    assert fullgraph("check", "model.py", cwd=tmp_path).returncode == 0


def test_a_finding_no_comment_can_reach_is_left_and_named(tmp_path):
    model = tmp_path / "model.py"
    source = MODEL.replace("        return x.relu()",
                           '        s = ("""a\n        b""" if x.any() else "") + \\\n            ""\n        return x.relu()')
    model.write_text(source)
    done = fullgraph("check", "--add-noqa", "model.py", cwd=tmp_path)
    assert done.returncode == 1
    assert "model.py:11:14: FG103 left as it is: neither its first nor its last line can carry" in done.stderr
    assert ast.dump(ast.parse(model.read_text())) == ast.dump(ast.parse(source))
    assert fullgraph("check", "--output-format", "concise", "model.py", cwd=tmp_path).stdout.splitlines()[0] \
        .startswith("model.py:11:14: FG103")
    assert fullgraph("check", "--add-noqa", "--exit-zero", "model.py", cwd=tmp_path).returncode == 0


def test_a_file_that_does_not_parse_is_left_as_it_is(tmp_path):
    (tmp_path / "bad.py").write_text("def f(:\n    pass\n")
    done = fullgraph("check", "--add-noqa", "bad.py", cwd=tmp_path)
    assert done.returncode == 1 and "bad.py:1:7: FG000 left as it is: the file could not be analysed" in done.stderr
    assert (tmp_path / "bad.py").read_text() == "def f(:\n    pass\n"


def test_not_with_fix_or_stdin(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    for args in (("--add-noqa", "--fix", "model.py"), ("--add-noqa", "--diff", "model.py"), ("--add-noqa", "-")):
        done = fullgraph("check", *args, cwd=tmp_path)
        assert done.returncode == 2 and "--add-noqa edits files" in done.stderr
    assert (tmp_path / "model.py").read_text() == MODEL


def test_a_finding_whose_first_line_continues_takes_the_comment_on_its_last():
    source = "if x.sum() \\\n        > 0:\n    pass\n"
    new, added, left = add_suppressions(source, [Finding("m.py", 1, 0, 2, 11, "FG101", "branches")])
    assert (new.splitlines()[1], added, left) == ("        > 0:  # fullgraph: ignore[FG101]", 1, [])


def test_a_string_that_looks_like_an_ignore_is_left_as_it_is():
    source = 'x = "# fullgraph: ignore[FG1]"; y = 1\n'
    new, added, left = add_suppressions(source, [Finding("m.py", 1, 32, 1, 37, "FG301", "prints")])
    assert (new, added, left) == ('x = "# fullgraph: ignore[FG1]"; y = 1  # fullgraph: ignore[FG301]\n', 1, [])
