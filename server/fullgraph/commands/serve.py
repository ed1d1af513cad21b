"""`fullgraph serve`: the language server on stdio."""

from __future__ import annotations

import argparse
import gc
import logging

HELP = "start the language server on stdio"
GC_THRESHOLD = 50_000  # allocations between young-generation collections (CPython's default: 700)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--stdio`` is accepted (and is the only transport) because vscode-languageclient appends it."""
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="level of the log written to stderr")


class _KnownCancels(logging.Filter):
    """Drops pygls' warning about a cancel for a request that already finished: editors cancel
    hovers and lenses they no longer need all the time, and that is not worth a warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cancel notification for unknown message id")


def run(args: argparse.Namespace) -> int:
    """Serve until the client sends exit; returns the exit code."""
    # No timestamp: the editor's log (VS Code's output channel) stamps every line itself.
    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_KnownCancels())
    from fullgraph.lsp.features import create_server

    server = create_server()
    # A parse allocates hundreds of thousands of nodes: collect less often, and never re-scan
    # the long-lived objects of the server itself (pygls, lsprotocol, the rule catalog).
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 20)
    try:
        server.start_io()
    finally:  # on exit: the interpreter's last collections skip what the server holds (seconds for a large file)
        gc.freeze()
    return 0
