"""`fullgraph check`'s per-file results cache (in the user's cache folder, like ruff's): a
file's findings are reused while the file, every file its analysis read through the project
index, the settings and fullgraph itself are unchanged; and, for an analysis that asked which
workspace files call a name (a file added anywhere may), while no workspace file changed."""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import cache
from pathlib import Path

from fullgraph.analysis.search_paths import cache_dir
from fullgraph.analysis.summary_store import write_pickle
from fullgraph.config import Config


@cache
def _code_stamp() -> tuple:
    """Sizes and mtimes of fullgraph's own modules: a changed checker invalidates every result."""
    package = Path(__file__).resolve().parents[1]
    return tuple(sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in package.rglob("*.py")))


def _stamps(paths) -> tuple | None:
    try:
        return tuple((p, os.stat(p).st_size, os.stat(p).st_mtime_ns) for p in sorted(paths))
    except OSError:
        return None


class ResultsCache:
    """`get(path, config, extra)` / `put(path, config, extra, deps, findings, whole)`; `workspace()`
    lists the workspace's files (stamped once per process, for the results that depend on all)."""

    def __init__(self, folder: Path | None = None, workspace=lambda: ()) -> None:
        self.folder = folder or cache_dir() / "results"
        self._workspace = workspace
        self._digest: str | None = None

    def _workspace_digest(self) -> str:
        """One digest of every workspace file's and folder's size and mtime."""
        if self._digest is None:
            files = list(self._workspace())
            stamps = _stamps({*files, *(os.path.dirname(f) for f in files)}) or ()
            self._digest = hashlib.sha1(repr(stamps).encode("utf-8", "surrogatepass")).hexdigest()
        return self._digest

    def _file(self, path: str, config: Config, extra) -> Path:
        key = repr((os.path.abspath(path), config, extra, _code_stamp()))
        return self.folder / f"{hashlib.sha1(key.encode('utf-8', 'surrogatepass')).hexdigest()}.pickle"

    def get(self, path: str, config: Config, extra):
        """The cached findings, or None when anything they depend on changed."""
        try:
            with open(self._file(path, config, extra), "rb") as f:
                deps, digest, findings = pickle.load(f)
        except Exception:  # noqa: BLE001 - missing, unreadable or of an older layout: a miss
            return None
        if digest is not None and digest != self._workspace_digest():
            return None
        paths = [d[0] for d in deps]
        return findings if _stamps(paths) == deps else None

    def put(self, path: str, config: Config, extra, deps, findings, whole: bool = False) -> None:
        """Keep `findings`, valid while `deps` are unchanged (and the whole workspace, when `whole`)."""
        stamps = _stamps({os.path.abspath(path), *deps})
        if stamps is not None:
            write_pickle(self._file(path, config, extra), (stamps, self._workspace_digest() if whole else None, findings))
