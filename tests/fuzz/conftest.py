"""Fuzz budget and failure keeping.

``make test`` runs a small budget; ``make fuzz`` sets ``FULLGRAPH_FUZZ_EXAMPLES`` (inputs per
fuzz test) and ``FULLGRAPH_FUZZ_SAVE=1``, which writes each failing input (the smallest one
Hypothesis found per test and error) under ``regressions/``, where `test_regressions.py`
replays it in every later run. The number of inputs tried is printed at the end.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

HERE = Path(__file__).parent
REGRESSIONS = HERE / "regressions"
sys.path.insert(0, str(HERE.parent / "lsp"))  # raw_lsp, the bare JSON-RPC client

LONG = "FULLGRAPH_FUZZ_EXAMPLES" in os.environ
TRIED: Counter = Counter()


def budget(small: int) -> settings:
    """Hypothesis settings: ``small`` examples in the normal suite; in `make fuzz` the fuzz budget,
    without shrinking (it can take minutes per failure: the input is kept as found)."""
    examples = int(os.environ.get("FULLGRAPH_FUZZ_EXAMPLES", small))
    phases = [p for p in Phase if p != Phase.shrink] if LONG else list(Phase)
    return settings(max_examples=examples, deadline=None, database=None, print_blob=True, phases=phases,
                    suppress_health_check=list(HealthCheck))


def keep_failure(target: str, payload, error: BaseException) -> None:
    """Save a failing input under regressions/ (only in `make fuzz`): per target and error, the smallest."""
    if os.environ.get("FULLGRAPH_FUZZ_SAVE") != "1":
        return
    data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else json.dumps(payload).encode()
    kind = "src" if isinstance(payload, str) else "json"
    key = hashlib.sha1(f"{target}:{type(error).__name__}:{str(error)[:60]}".encode()).hexdigest()[:12]
    path = REGRESSIONS / f"{target}-{key}.{kind}"
    if not path.exists() or len(data) < path.stat().st_size:
        REGRESSIONS.mkdir(exist_ok=True)
        path.write_bytes(data)


def tried(target: str, count: int = 1) -> None:
    TRIED[target] += count


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand the counts to the controller
        session.config.workeroutput["fuzz_tried"] = json.dumps(TRIED)


def pytest_testnodedown(node, error):
    TRIED.update(json.loads(getattr(node, "workeroutput", {}).get("fuzz_tried", "{}")))


def pytest_terminal_summary(terminalreporter):
    if TRIED:
        terminalreporter.write_line("fuzz inputs tried: " + ", ".join(f"{k} {v:,}" for k, v in sorted(TRIED.items())))
