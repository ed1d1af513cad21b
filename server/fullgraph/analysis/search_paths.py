"""Where imports are looked up: the target interpreter's `sys.path`, and the user's cache folder.

The interpreter is asked once (``python -c "import sys, json; print(json.dumps(sys.path))"``:
no user code runs) and the answer is kept in memory and on disk, keyed by the interpreter's
path (as given: a virtual environment's, not the executable it links to) and mtime, so later
runs do not start a process.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

QUERY = "import sys, json; print(json.dumps(sys.path))"
TIMEOUT_S = 20
_memory: dict[tuple[str, int], tuple[str, ...]] = {}


def cache_dir() -> Path:
    """fullgraph's folder in the user's cache (XDG_CACHE_HOME, LOCALAPPDATA or ~/Library/Caches)."""
    if os.environ.get("XDG_CACHE_HOME"):
        base = Path(os.environ["XDG_CACHE_HOME"])
    elif sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path.home() / ".cache"
    return base / "fullgraph"


def interpreter_paths(python: str | None = None, disk: bool = True) -> tuple[str, ...]:
    """The existing folders of `python`'s `sys.path` (default: this interpreter's, no process).
    Interpreters are told apart by their path as given, not the file it links to: every virtual
    environment made from one Python links to the same executable, and each has its own `sys.path`."""
    if not python or os.path.abspath(python) == os.path.abspath(sys.executable):
        return _existing(sys.path)
    try:
        key = (os.path.abspath(python), os.stat(python).st_mtime_ns)
    except OSError:
        return ()
    if key in _memory:
        return _memory[key]
    stored = _disk_file(key) if disk else None
    paths = _read(stored) if stored is not None else None
    if paths is None:
        paths = _ask(python)
        if paths is not None and stored is not None:
            _write(stored, paths)
    _memory[key] = _existing(paths or ())
    return _memory[key]


def _existing(paths) -> tuple[str, ...]:
    """Absolute existing folders, in order, without duplicates (the script folder '' dropped)."""
    seen: dict[str, None] = {}
    for p in paths:
        if p and os.path.isdir(p):
            seen.setdefault(os.path.abspath(p), None)
    return tuple(seen)


def _ask(python: str) -> list[str] | None:
    try:
        proc = subprocess.run([python, "-c", QUERY], capture_output=True, text=True, timeout=TIMEOUT_S,
                              check=False)
        paths = json.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else None


def _disk_file(key: tuple[str, int]) -> Path | None:
    name = f"{hashlib.sha1(key[0].encode()).hexdigest()[:16]}-{key[1]}.json"
    return cache_dir() / "interpreters" / name


def _read(file: Path) -> list[str] | None:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, list) else None


def _write(file: Path, paths: list[str]) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(paths), encoding="utf-8")
        os.replace(tmp, file)
    except OSError:
        pass  # a read-only cache folder costs one process start per run, nothing else
