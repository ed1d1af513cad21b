"""Fuzz budget, failure keeping and the count of inputs tried (see conftest.py)."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

REGRESSIONS = Path(__file__).parent / "regressions"
LONG = "FULLGRAPH_FUZZ_EXAMPLES" in os.environ
TRIED: Counter = Counter()


def budget(small: int) -> settings:
    """Hypothesis settings: ``small`` examples in the normal suite; in `make fuzz` the fuzz budget
    (``FULLGRAPH_FUZZ_EXAMPLES`` for the analysis, the slower targets in proportion to ``small``),
    without shrinking (it can take minutes per failure: the input is kept as found)."""
    examples = int(os.environ["FULLGRAPH_FUZZ_EXAMPLES"]) * small // 60 if LONG else small
    phases = [p for p in Phase if p != Phase.shrink] if LONG else list(Phase)
    return settings(max_examples=examples, deadline=None, database=None, print_blob=True, phases=phases,
                    suppress_health_check=list(HealthCheck))


def keep_failure(target: str, payload, error: BaseException) -> None:
    """Save a failing input under regressions/ (only in `make fuzz`, where a fuzz test stops at its first failure)."""
    if os.environ.get("FULLGRAPH_FUZZ_SAVE") != "1":
        return
    data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else json.dumps(payload).encode()
    kind = "src" if isinstance(payload, str) else "json"
    REGRESSIONS.mkdir(exist_ok=True)
    (REGRESSIONS / f"{target}-{hashlib.sha1(data).hexdigest()[:12]}.{kind}").write_bytes(data)


def tried(target: str, count: int = 1) -> None:
    TRIED[target] += count


def fuzz(target: str, check, text: str) -> None:
    """Count ``text`` as tried for ``target`` and run ``check`` on it, keeping it when it fails."""
    tried(target)
    try:
        check(text)
    except BaseException as error:
        keep_failure(target, text, error)
        raise
