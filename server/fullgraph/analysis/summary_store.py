"""The on-disk cache of file summaries (for the CLI): one pickle per source file, in the
user's cache folder, valid while the file's size and mtime and the summary layout match."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from fullgraph import __version__
from fullgraph.analysis.search_paths import cache_dir
from fullgraph.analysis.summary import SCHEMA, FileSummary

_KEY = (SCHEMA, __version__)


class SummaryStore:
    """`get(path, stamp)` / `put(path, stamp, summary)`; every failure is a cache miss."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or cache_dir() / "summaries"

    def _file(self, path: str) -> Path:
        digest = hashlib.sha1(os.path.abspath(path).encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / digest[:2] / f"{digest}.pickle"

    def get(self, path: str, stamp: tuple[int, int]) -> FileSummary | None:
        try:
            with open(self._file(path), "rb") as f:
                key, stored_stamp, summary = pickle.load(f)
        except Exception:  # noqa: BLE001 - missing, truncated or from another version: a miss
            return None
        return summary if key == _KEY and tuple(stored_stamp) == stamp else None

    def put(self, path: str, stamp: tuple[int, int], summary: FileSummary) -> None:
        write_pickle(self._file(path), (_KEY, stamp, summary))

    def _marks_file(self, roots: tuple[str, ...]) -> Path:
        digest = hashlib.sha1("\0".join(roots).encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / "marks" / f"{digest}.pickle"

    def get_marks(self, roots: tuple[str, ...]) -> dict[str, tuple]:
        """path -> (stamp, whether its text calls `compile(`), for the workspace of `roots`."""
        try:
            with open(self._marks_file(roots), "rb") as f:
                key, marks = pickle.load(f)
        except Exception:  # noqa: BLE001 - a miss
            return {}
        return marks if key == _KEY and isinstance(marks, dict) else {}

    def put_marks(self, roots: tuple[str, ...], marks: dict[str, tuple]) -> None:
        write_pickle(self._marks_file(roots), (_KEY, marks))


def write_pickle(file: Path, data) -> None:
    """Write a pickle atomically; a read-only cache folder only costs speed."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, file)
    except OSError:
        pass
