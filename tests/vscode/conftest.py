"""Shared setup for the VS Code client tests: the client's npm dependencies, installed once."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "vscode-client"


def _stale(client: Path) -> bool:
    marker = client / "node_modules" / ".package-lock.json"
    return not marker.exists() or marker.stat().st_mtime < (client / "package-lock.json").stat().st_mtime


@pytest.fixture(scope="session")
def client_dir() -> Path:
    """vscode-client/ with `npm ci` done (under a file lock, so parallel workers don't race)."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    lock_path = CLIENT.parent / ".cache" / "vscode-client-npm.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _stale(CLIENT):
            done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return CLIENT
