"""The project index a front end builds for a set of paths: roots, interpreter, disk cache."""

from __future__ import annotations

import os

from fullgraph.analysis.project import LIBRARY_MARKERS, ProjectIndex
from fullgraph.analysis.summary_store import SummaryStore
from fullgraph.config import Config


def interpreter(config: Config) -> str | None:
    """The target interpreter: `python` in [tool.fullgraph] or in its confirm table (None: ours)."""
    confirm = config.extra.get("confirm")
    value = config.extra.get("python") or (confirm.get("python") if isinstance(confirm, dict) else None)
    if not isinstance(value, str) or not value:
        return None
    return value if os.path.isabs(value) or not config.root else os.path.join(config.root, value)


def roots_for(config: Config, paths: list[str]) -> list[str]:
    """The workspace: the folder of the pyproject.toml, else the folder holding every path
    given (unless that is a file-system root or the home folder: then each path's folder); a
    folder inside a package (an `__init__.py`) gives the folder its top package sits in, where
    the package's own imports (`from pkg import splines`) resolve."""
    if config.root:
        return [config.root]
    folders = sorted({_package_root(os.path.abspath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))))
                      for p in paths})
    common = os.path.commonpath(folders) if folders else os.getcwd()
    if os.path.dirname(common) == common or common == os.path.expanduser("~"):
        return folders
    return [common]


def _package_root(folder: str) -> str:
    if any(marker in folder + os.sep for marker in LIBRARY_MARKERS):
        return folder  # an installed package: its imports resolve through the interpreter's paths
    while os.path.isfile(os.path.join(folder, "__init__.py")) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder


def project_for(config: Config, paths: list[str], disk_cache: bool = True) -> ProjectIndex:
    """A project index over the workspace of `paths`, summaries cached on disk when asked."""
    return ProjectIndex(roots_for(config, paths), interpreter(config), store=SummaryStore() if disk_cache else None)
