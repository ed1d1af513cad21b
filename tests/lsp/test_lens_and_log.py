"""Without a client: what the lens counts, and what the server writes to its log (stderr)."""

from __future__ import annotations

import logging
import subprocess
import sys

from lsprotocol import types

from fullgraph.findings import Finding, Location
from fullgraph.lsp.documents import Analysis
from fullgraph.lsp.lens import breaks_lenses, lens_counts


def test_recompilation_notes_and_syntax_errors_are_not_breaks():
    entry = Location("m.py", 4, 0, 8, 0, "step")
    findings = [Finding("m.py", 6, 4, 6, 9, code, "x", fix=fix, data={"entry": "step"})
                for code, fix in (("FG101", "predicate"), ("FG901", None), ("FG301", "defer"))]
    findings.append(Finding("m.py", 7, 4, 7, 9, "FG000", "syntax error"))
    analysis = Analysis(3, "", [""] * 9, findings, [entry], [])
    assert [(n, m) for _, n, m in lens_counts(analysis)] == [(2, 2)]
    (lens,) = breaks_lenses("file:///m.py", analysis, types.PositionEncodingKind.Utf16, "fullgraph.applyFixAll")
    assert lens.command.title == "2 likely graph breaks · 2 fixable" and lens.command.arguments == ["file:///m.py", 3]


def test_log_has_no_timestamps_and_no_warnings_for_late_cancels():
    code = ("import logging, sys\n"
            "sys.argv = ['fullgraph', 'serve']\n"
            "from fullgraph.commands import serve\n"
            "from fullgraph.lsp import features\n"
            "class Stop(Exception): pass\n"
            "def create_server():\n"
            "    logging.getLogger('pygls.protocol.json_rpc').warning('Cancel notification for unknown message id \"7\"')\n"
            "    logging.getLogger('fullgraph').warning('kept')\n"
            "    raise Stop\n"
            "features.create_server = create_server\n"
            "import argparse\n"
            "try:\n"
            "    serve.run(argparse.Namespace(log_level='WARNING', stdio=True))\n"
            "except Stop:\n"
            "    pass\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr == "WARNING fullgraph: kept\n"
    assert logging.getLogger("pygls.protocol.json_rpc").filters == []  # only the server process filters
