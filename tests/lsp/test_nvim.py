"""A real editor: headless Neovim attaches to `fullgraph serve`, shows diagnostics, applies a quick fix."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lsp_texts import MODEL

NVIM = shutil.which("nvim")
DRIVER = Path(__file__).with_name("nvim") / "quickfix.lua"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(NVIM is None, reason="nvim not installed (Debian package `neovim`)")]


def test_neovim_receives_diagnostics_and_applies_a_quick_fix(tmp_path):
    model = tmp_path / "model.py"
    model.write_text(MODEL)
    out = tmp_path / "result.json"
    env = {**os.environ, "OUT": str(out), "TEST_FILE": str(model), "FIX_CODE": "FG101",
           "LSP_CMD_JSON": json.dumps([sys.executable, "-m", "fullgraph", "serve"])}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    proc = subprocess.run([NVIM, "--headless", "--clean", "-u", str(DRIVER)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180)
    result = json.loads(out.read_text())
    assert proc.returncode == 0 and result["ok"], (result.get("error"), proc.stderr[-2000:])
    ranges = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                     d["range"]["end"]["character"]) for d in result["diagnostics"])
    assert ranges == [("FG101", 6, 4, 18), ("FG301", 5, 4, 26)]
    assert sorted((d["code"], d["lnum"], d["col"]) for d in result["nvim_diagnostics"]) == [
        ("FG101", 6, 4), ("FG301", 5, 4)]
    assert "fullgraph (FG101): disable for this line" in result["titles"]
    assert result["lines_after_fix"] != MODEL.splitlines()
    assert result["version_after_fix"] > 0
    moved = [(d["code"], d["range"]["start"]["line"]) for d in result["diagnostics_after_fix"]]
    assert "FG101" not in [c for c, _ in moved] and model.read_text() == MODEL  # fixed in the buffer, file untouched
