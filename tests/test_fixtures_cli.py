"""`fullgraph check fixtures/` end to end, in a subprocess: exit code 1 (findings), JSON
output that parses, and per fixture the same findings as its `.expected` file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict

from fixture_files import FIXTURES_DIR, fixture_sources, read_expected

REPO = FIXTURES_DIR.parent
FIELDS = {"path", "line", "col", "end_line", "end_col", "code", "message", "severity", "confidence", "gb_ids", "fix"}


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fullgraph", "check", *args],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )


def test_check_fixtures_json():
    proc = _check("fixtures/", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)
    assert findings and all(FIELDS <= set(f) for f in findings)
    assert not [f for f in findings if f["code"] == "FG000"], "a fixture failed to parse"
    by_path = defaultdict(list)
    for f in findings:
        by_path[(REPO / f["path"]).resolve()].append((f["line"], f["col"], f["code"]))
    for path in fixture_sources():
        expected = read_expected(path)
        if not expected.xfail:
            assert sorted(by_path[path]) == list(expected.findings), path.name


def test_check_clean_fixture_exits_zero():
    proc = _check("fixtures/clean_mlp.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not re.search(r":\d+:\d+: FG\d{3}", proc.stdout), proc.stdout
