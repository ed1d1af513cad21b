"""Replay every input a fuzz run kept (regressions/): each must now satisfy its invariants."""

from pathlib import Path

import pytest
from invariants import check_add_noqa, check_analysis, check_fix_all

HERE = Path(__file__).parent
KEPT = sorted((HERE / "regressions").glob("*.*"))


def _id(path: Path) -> str:
    return path.name


@pytest.mark.parametrize("path", [p for p in KEPT if p.suffix == ".src"], ids=_id)
def test_kept_source(path):
    text = path.read_bytes().decode("utf-8", "surrogatepass")
    if path.name.startswith("bytes-"):
        from fullgraph.engine import analyze

        analyze(text.encode("latin-1"), "fuzz.py")
    elif path.name.startswith("fix-all-"):
        check_fix_all(text)
    elif path.name.startswith("add-noqa-"):
        check_add_noqa(text)
    else:
        check_analysis(text)


@pytest.mark.parametrize("path", [p for p in KEPT if p.suffix == ".json"], ids=_id)
def test_kept_server_session(path):
    import json

    from raw_lsp import RawServer
    from server_session import run_session

    server = RawServer({"debounce": 0})
    try:
        server.initialize()
        run_session(server, "untitled:kept.py", json.loads(path.read_text()))
        assert server.alive()
    finally:
        server.close()
