"""Quick fixes of one text (the editor asks diagnostic by diagnostic) parse it once, and each
request's fix is the one it gets alone (fresh names are not shared between requests)."""

from __future__ import annotations

import textwrap

from fullgraph.engine import analyze
from fullgraph.fixes import dispatch

SOURCE = textwrap.dedent('''\
    import torch
    from torch import nn


    class M(nn.Module):
        def forward(self, x: torch.Tensor):
            y = torch.relu(x)
            print("mean", y.mean())
            return y * 2


    class N(nn.Module):
        def forward(self, x: torch.Tensor):
            y = torch.tanh(x)
            print("mean", y.mean())
            return y + 1
    ''')


def test_one_parse_per_text_and_the_same_fixes_as_alone(monkeypatch):
    findings = [f for f in analyze(SOURCE, "m.py") if f.code == "FG301"]
    assert len(findings) == 2
    alone = []
    for found in findings:
        dispatch._last[0] = None
        alone.append(dispatch.fixes_for(SOURCE, found))
    parses = []
    real_parse = dispatch.parse
    monkeypatch.setattr(dispatch, "parse", lambda source: (parses.append(source), real_parse(source))[1])
    dispatch._last[0] = None
    together = [dispatch.fixes_for(SOURCE, found) for found in findings]
    assert len(parses) == 1 and together == alone and all(together)
    edited = SOURCE.replace("y * 2", "y * 3")
    dispatch.fixes_for(edited, analyze(edited, "m.py")[0])
    assert len(parses) == 2
