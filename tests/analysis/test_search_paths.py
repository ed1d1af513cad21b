"""The target interpreter's `sys.path`: asked of that interpreter, told apart by its path."""

import os
import subprocess
import sys

from fullgraph.analysis import search_paths


def test_a_virtual_environment_made_from_our_python_has_its_own_path(tmp_path, monkeypatch):
    """Every virtual environment made from one Python links to the same executable; each still has
    its own site-packages, which is where its imports resolve."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(search_paths, "_memory", {})
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "env")], check=True)
    python = tmp_path / "env" / "bin" / "python"
    assert os.path.realpath(python) == os.path.realpath(sys.executable)  # the case that matters
    theirs = search_paths.interpreter_paths(str(python))
    site = str(tmp_path / "env" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages")
    assert site in theirs and site not in search_paths.interpreter_paths()
    assert search_paths.interpreter_paths(str(python)) == theirs  # asked once: from memory, then from disk
    monkeypatch.setattr(search_paths, "_memory", {})
    assert search_paths.interpreter_paths(str(python)) == theirs
