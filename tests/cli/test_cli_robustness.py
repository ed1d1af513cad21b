"""What a user tries on the command line beyond the happy path (found by probing): bad settings are
usage errors with a message, other encodings round-trip, an unwritable file is reported, the
results cache follows new compile calls and new files, paths and positions are portable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MODEL = """import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        print(x.shape)
        return x * 2
"""


def fullgraph(*args: str, cwd: Path, stdin: bytes | None = None, env: dict | None = None):
    return subprocess.run([sys.executable, "-m", "fullgraph", *args], cwd=cwd, input=stdin, capture_output=True,
                          timeout=120, env=env)


@pytest.mark.parametrize("setting, message", [
    ("select = 5", "select must be a list of rule codes"),
    ('ignore = ["FG999"]', "unknown rule code or prefix 'FG999'"),
    ('selct = ["FG"]', "unknown setting 'selct'"),
    ('severity = { FG3 = "critical" }', "severity must be one of error, warning, info, hint"),
    ("exclude = 5", "exclude must be a list of glob patterns"),
])
def test_a_bad_setting_is_a_usage_error_with_its_reason(tmp_path, setting, message):
    (tmp_path / "pyproject.toml").write_text(f"[tool.fullgraph]\n{setting}\n")
    (tmp_path / "m.py").write_text(MODEL)
    out = fullgraph("check", "m.py", cwd=tmp_path)
    assert out.returncode == 2 and message in out.stderr.decode() and "Traceback" not in out.stderr.decode()


def test_a_missing_config_file_and_an_unknown_code_on_the_command_line_are_usage_errors(tmp_path):
    (tmp_path / "m.py").write_text(MODEL)
    assert fullgraph("check", "--config", "other.toml", "m.py", cwd=tmp_path).returncode == 2
    assert fullgraph("check", "--select", "FG999", "m.py", cwd=tmp_path).returncode == 2
    assert fullgraph("check", "--jobs", "-1", "m.py", cwd=tmp_path).returncode == 2
    assert fullgraph("check", "--select", "ALL", "m.py", cwd=tmp_path).returncode == 1  # as ruff's ALL


def test_a_config_file_of_its_own_has_its_keys_at_the_top_level(tmp_path):
    (tmp_path / "fullgraph.toml").write_text('ignore = ["FG301"]\n')
    (tmp_path / "m.py").write_text(MODEL)
    assert fullgraph("check", "--config", "fullgraph.toml", "m.py", cwd=tmp_path).returncode == 0


def test_a_pyproject_without_the_table_does_not_hide_the_project_settings(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.fullgraph]\nignore = ["FG3"]\n')
    (tmp_path / "libs").mkdir()
    (tmp_path / "libs" / "pyproject.toml").write_text('[project]\nname = "lib"\n')
    (tmp_path / "libs" / "m.py").write_text(MODEL)
    assert fullgraph("check", "libs", cwd=tmp_path).returncode == 0


def test_exclude_globs_hold_wherever_fullgraph_runs(tmp_path):
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.fullgraph]\nexclude = ["tests/*"]\n')
    (project / "tests" / "m.py").write_text(MODEL)
    assert fullgraph("check", "proj", cwd=tmp_path).returncode == 0


def test_fix_keeps_a_files_encoding_and_echoes_undecodable_stdin(tmp_path):
    latin = b"# -*- coding: latin-1 -*-\n" + MODEL.replace('print(x.shape)', 'print("\xe9", x.shape)').encode("latin-1")
    (tmp_path / "m.py").write_bytes(latin)
    out = fullgraph("fix", "m.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    fixed = (tmp_path / "m.py").read_bytes()
    assert b"_fullgraph_defer" in fixed and b'"\xe9"' in fixed  # written back in latin-1
    raw = b'x = "\xe9"\n'  # no coding line: not UTF-8
    out = fullgraph("fix", "-", cwd=tmp_path, stdin=raw)
    assert out.stdout == raw and b"FG000" in out.stderr and out.returncode == 1


def test_fix_keeps_a_byte_order_mark(tmp_path):
    (tmp_path / "m.py").write_bytes(b"\xef\xbb\xbf" + MODEL.encode())
    assert fullgraph("fix", "m.py", cwd=tmp_path).returncode == 0
    fixed = (tmp_path / "m.py").read_bytes()
    assert fixed.startswith(b"\xef\xbb\xbf") and b"_fullgraph_defer" in fixed


def test_an_unwritable_file_is_reported_and_the_next_one_fixed(tmp_path, monkeypatch, capsys):
    from fullgraph.commands import fix
    from fullgraph.config import Config

    (tmp_path / "a.py").write_text(MODEL)
    real_open = open

    def refusing(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).endswith("a.py"):
            raise PermissionError(13, "Operation not permitted", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    count, left = fix.fix_file(str(tmp_path / "a.py"), Config(), diff=False)
    assert count == 0 and [f.code for f in left] == ["FG301"]
    assert "could not write" in capsys.readouterr().err


def test_the_results_cache_follows_a_new_compile_call_and_a_new_file(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "plain.py").write_text(
        "import torch\n\n\nclass Plain:\n    def run(self, x):\n        if x.sum() > 0:\n            x = x * 2\n"
        "        return x\n")
    (tmp_path / "train.py").write_text("import torch\nfrom pkg.plain import Plain\n\np = Plain()\n")
    env = {**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert fullgraph("check", ".", cwd=tmp_path, env=env).returncode == 0
    with open(tmp_path / "train.py", "a") as handle:
        handle.write("step = torch.compile(p.run)\n")
    out = fullgraph("check", ".", cwd=tmp_path, env=env)
    assert out.returncode == 1 and b"pkg/plain.py:6:9: FG101" in out.stdout


def test_noqa_in_a_string_is_no_suppression(tmp_path):
    (tmp_path / "m.py").write_text(MODEL.replace("print(x.shape)", 'print("# noqa", x.shape)'))
    assert b"FG301" in fullgraph("check", "m.py", cwd=tmp_path).stdout


def test_sarif_says_how_it_counts_columns_and_encodes_paths(tmp_path):
    (tmp_path / "a dir").mkdir()
    (tmp_path / "a dir" / "m,1.py").write_text(MODEL)
    out = fullgraph("check", "--output-format", "sarif", "a dir", cwd=tmp_path)
    run = json.loads(out.stdout)["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a%20dir/m%2C1.py"


def test_snippets_of_stdin_come_from_stdin(tmp_path):
    out = fullgraph("check", "-", "--stdin-filename", "elsewhere.py", cwd=tmp_path, stdin=MODEL.encode())
    assert b"print(x.shape)" in out.stdout


def test_an_empty_folder_says_no_files_were_found_and_statistics_need_a_table_format(tmp_path):
    (tmp_path / "empty").mkdir()
    out = fullgraph("check", "empty", cwd=tmp_path)
    assert out.returncode == 0 and b"no Python files found" in out.stderr
    (tmp_path / "m.py").write_text(MODEL)
    assert fullgraph("check", "--statistics", "--output-format", "sarif", "m.py", cwd=tmp_path).returncode == 2
    assert fullgraph("check", "--statistics", "--output-format", "json", "m.py", cwd=tmp_path).returncode == 1


def test_extend_select_and_extend_ignore_add_to_the_selection(tmp_path):
    """As ruff's: the file's `extend-select` adds to its `select` (whatever their order), and the
    command line's `--extend-ignore` adds to the file's `ignore`."""
    (tmp_path / "pyproject.toml").write_text('[tool.fullgraph]\nextend-select = ["FG301"]\nselect = ["FG1"]\n')
    (tmp_path / "m.py").write_text(MODEL)
    assert b"FG301" in fullgraph("check", "m.py", cwd=tmp_path).stdout
    assert fullgraph("check", "--extend-ignore", "FG301", "m.py", cwd=tmp_path).returncode == 0
