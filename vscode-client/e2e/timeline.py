"""Where the packaged run's cold start went: events of its VS Code session, in ms from the click.

Reads the extension host's log and fullgraph's log of the first session (the screenshot run
with the packaged .vsix) and lines them up with the click the driver recorded. Negative
figures happened before the click.
"""

from __future__ import annotations

import glob
import os
import re
from datetime import datetime

STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$")
# (label, log file, start of the message): the first matching line of each.
EVENTS = [
    ("extension host started", "remoteexthost.log", "Extension host with pid"),
    ("fullgraph activated", "fullgraph.fullgraph/fullgraph.log", "Activated "),
    ("server running", "fullgraph.fullgraph/fullgraph.log", "Server running "),
    ("first diagnostics received", "fullgraph.fullgraph/fullgraph.log", "Received notification 'textDocument/publishDiagnostics'"),
]


def _first(path: str, prefix: str) -> float | None:
    """Wall time (local clock, as the logs write it) of the first line whose message starts with `prefix`."""
    try:
        with open(path, errors="replace") as f:
            for line in f:
                found = STAMP.match(line)
                if found and found.group(2).startswith(prefix):
                    return datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
    except OSError:
        return None
    return None


def shot_timeline(run: str, shot: dict) -> dict[str, int | None]:
    """Milliseconds from the click to each event of the packaged run (None: not in the logs)."""
    logs = sorted(glob.glob(f"{run}/ud/logs/*/exthost*/fullgraph.fullgraph/fullgraph.log"), key=os.path.getmtime)
    if not logs or not shot.get("openedAt"):
        return {}
    host = os.path.dirname(os.path.dirname(logs[0]))
    click = datetime.fromisoformat(shot["openedAt"].replace("Z", "+00:00")).timestamp()
    timeline: dict[str, int | None] = {}
    for label, name, prefix in EVENTS:
        at = _first(os.path.join(host, name), prefix)
        timeline[label] = None if at is None else round((at - click) * 1000)
    timeline["first squiggle"] = shot.get("openToSquiggleMs")
    return timeline
