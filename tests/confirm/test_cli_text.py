"""The text report of `fullgraph confirm` (no torch)."""

from fullgraph.commands.confirm import print_text
from fullgraph.findings import Finding


def test_text_report_lines(capsys):
    finding = Finding("m.py", 3, 4, 3, 9, "FG900", "Dynamo graph break: x", confirmed=True)
    print_text([finding], [{"target": "m.py", "graphs": [2, 1], "breaks": 1, "recompilations": 0, "seconds": 0.5}],
               ["m.py::B: factory raised"])
    out, err = capsys.readouterr()
    assert out.splitlines() == ["m.py:3:5: FG900 Dynamo graph break: x (confirmed)",
                                "m.py: graphs per input set: 2, 1; 1 distinct breaks, 0 recompilations (0.5 s)"]
    assert err == "error: m.py::B: factory raised\n"
