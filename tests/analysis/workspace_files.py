"""A workspace of small files written for one test, and one of them analysed with the project index."""

from __future__ import annotations

import textwrap

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze_document


def workspace_findings(tmp_path, files: dict[str, str], target: str, config: Config = Config()):
    """Write ``files`` (dedented) under ``tmp_path/ws`` and return the findings of ``target`` there."""
    for name, text in files.items():
        path = tmp_path / "ws" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    path = tmp_path / "ws" / target
    return analyze_document(path.read_text(), str(path), config, project=project).findings
