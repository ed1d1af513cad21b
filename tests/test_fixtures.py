"""The checker's findings on every fixture equal its ``.expected`` file (no torch)."""

from __future__ import annotations

import pytest

from fixture_files import fixture_id, fixture_sources, read_expected
from fullgraph.engine import analyze

FIXTURES = fixture_sources()


def _param(path):
    reason = read_expected(path).xfail
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(path, id=fixture_id(path), marks=marks)


def test_there_are_enough_fixtures():
    assert len([p for p in FIXTURES if p.name != "__init__.py"]) >= 14


@pytest.mark.parametrize("path", [_param(p) for p in FIXTURES])
def test_findings_match_expected(path):
    findings = analyze(path.read_bytes(), str(path))
    got = sorted((f.line, f.col, f.code) for f in findings)
    assert got == list(read_expected(path).findings), "\n".join(f"{f.line}:{f.col} {f.code} {f.message}" for f in findings)
