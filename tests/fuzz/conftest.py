"""Fuzz budget and failure keeping.

``make test`` runs a small budget; ``make fuzz`` sets ``FULLGRAPH_FUZZ_EXAMPLES`` (inputs per
fuzz test) and ``FULLGRAPH_FUZZ_SAVE=1``, which writes each failing input under ``regressions/``, where `test_regressions.py`
replays it in every later run. The number of inputs tried is printed at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "lsp"))  # raw_lsp, the bare JSON-RPC client
from fuzz_budget import TRIED  # noqa: E402 - after the path it needs


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand the counts to the controller
        session.config.workeroutput["fuzz_tried"] = json.dumps(TRIED)


def pytest_testnodedown(node, error):
    TRIED.update(json.loads(getattr(node, "workeroutput", {}).get("fuzz_tried", "{}")))


def pytest_terminal_summary(terminalreporter):
    if TRIED:
        terminalreporter.write_line("fuzz inputs tried: " + ", ".join(f"{k} {v:,}" for k, v in sorted(TRIED.items())))
