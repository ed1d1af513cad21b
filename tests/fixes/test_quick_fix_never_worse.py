"""A single quick fix leaves the file no worse: over every quick fix of every fixture, no new
finding appears, and the main fix removes its own finding."""

from __future__ import annotations

import pytest
from fixture_files import fixture_sources

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fixes_for, suppression_fix


def _key(finding) -> tuple:
    return finding.code, finding.message


def _cases():
    for path in fixture_sources():
        source = path.read_text()
        for finding in analyze(source, str(path)):
            if finding.code != "FG000":
                yield pytest.param(path, finding, id=f"{path.name}:{finding.line}:{finding.code}")


@pytest.mark.parametrize(("path", "finding"), list(_cases()))
def test_every_quick_fix_leaves_the_file_no_worse(path, finding):
    source = path.read_text()
    before = analyze(source, str(path))
    fixes = fixes_for(source, finding) if finding.fix and not finding.fix_blocked else []
    for fix in [*fixes, suppression_fix(source, finding)]:
        after = analyze(apply_edits(source, fix.edits), str(path))
        assert len(after) <= len(before), fix.title
        new = sorted({_key(f) for f in after} - {_key(f) for f in before})
        assert not new, f"{fix.title} created {new}"
    if fixes:
        main = analyze(apply_edits(source, fixes[0].edits), str(path))
        assert len(main) < len(before), f"{fixes[0].title} did not remove {finding.code}"
