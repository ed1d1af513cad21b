"""Each corpus example breaks under TorchDynamo exactly where its markers say, with the
registry ids they name; each counter-example compiles to one graph with no break."""

from __future__ import annotations

import pytest

from corpus_format import load_examples
from dynamo_capture import run_example  # imports torch

pytestmark = pytest.mark.torch

EXAMPLES = load_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_dynamo_verdict(example):
    verdict = run_example(example.path)
    breaks = verdict.breaks
    if example.clean:
        assert breaks == [], f"expected no graph break, Dynamo broke: {breaks}"
        assert verdict.graphs == verdict.calls, f"expected one graph per call, got {verdict.graphs}"
        return
    for marker in example.markers:
        seen = {
            gb
            for b in breaks
            if b.line == marker.line or (b.line is None and marker.gb_ids.intersection(b.gb_ids))
            for gb in b.gb_ids
        }
        assert seen, f"line {marker.line}: expected a break, Dynamo broke at {breaks}"
        assert marker.gb_ids <= seen, f"line {marker.line}: expected {sorted(marker.gb_ids)}, got {sorted(seen)}"
    marked = {m.line for m in example.markers}
    stray = [b for b in breaks if b.line is not None and b.line not in marked]
    assert not stray, f"breaks at unmarked lines: {stray}"
