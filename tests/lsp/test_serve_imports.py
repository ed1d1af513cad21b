"""The server process never imports torch, and defers libcst and confirmation until after the first publish."""

import subprocess
import sys

CHECK = """
import sys
from fullgraph.cli import build_parser
build_parser(["serve", "--stdio"]).parse_args(["serve", "--stdio"])
from fullgraph.lsp.features import create_server
create_server()
print(sorted(m for m in ("torch", "libcst", "numpy") if m in sys.modules))
print(sorted(m for m in ("fullgraph.confirm.document", "fullgraph.confirm.verify", "fullgraph.fixes.dispatch")
             if m in sys.modules))
"""


def test_server_start_imports_neither_torch_nor_libcst():
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.splitlines() == ["[]", "[]"], out.stderr  # the 2nd: warmed after the first publish
