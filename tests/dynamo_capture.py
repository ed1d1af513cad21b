"""Run a corpus example or fixture under TorchDynamo (default config, an eager backend that
counts graphs) and collect every graph break it really takes, with its line and registry id.

Sources, per the torch 2.13 notes: the ``graph_breaks`` log records (locations and ids) and
``torch._dynamo.utils.counters["unimplemented"]`` (the only place frames rejected before
tracing, such as generators, show up).
"""

from __future__ import annotations

import importlib.util
import logging
import re
from dataclasses import dataclass
from pathlib import Path

import torch
from torch._dynamo.utils import counters

_BREAK_LOGGERS = (
    "torch._dynamo.symbolic_convert.__graph_breaks",
    "torch._dynamo.convert_frame.__graph_breaks",
    "torch._dynamo.exc.__graph_breaks",
)
_GB_ID = re.compile(r"/gb/(gb\d{4})\.html")
_AT = re.compile(r"in user code at (.+):(\d+)$", re.MULTILINE)
_FRAME = re.compile(r'^\s*File "(.+)", line (\d+)', re.MULTILINE)


@dataclass(frozen=True)
class Break:
    """A break Dynamo took: line in the example file (None when it gives no location) and ids."""

    line: int | None
    gb_ids: tuple[str, ...]


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def load_module(path: Path):
    """Import an example file as a fresh module."""
    spec = importlib.util.spec_from_file_location(f"corpus_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _line_in(message: str, filename: str) -> int | None:
    """The innermost line of ``filename`` that a break record points at."""
    at = _AT.search(message)
    if at and at.group(1) == filename:
        return int(at.group(2))
    frames = [int(line) for file, line in _FRAME.findall(message) if file == filename]
    return frames[-1] if frames else None


def _ids(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i.upper() for i in _GB_ID.findall(text)))


def examples_of(module) -> list[tuple]:
    """``fullgraph_example()`` as a list of ``(callable, args, kwargs)`` (it may return one)."""
    made = module.fullgraph_example()
    return made if isinstance(made, list) else [made]


def eager(target):
    """The plain function behind ``@torch.compile`` (anything else unchanged)."""
    return getattr(target, "_torchdynamo_orig_callable", target)


@dataclass(frozen=True)
class Verdict:
    """What Dynamo did with a file's examples: its breaks, graphs compiled, calls made."""

    breaks: list[Break]
    graphs: int
    calls: int


def run_example(path: Path) -> Verdict:
    """Compile each ``fullgraph_example()`` target of a file with a graph-counting eager
    backend, call it, and return what Dynamo did."""
    module = load_module(path)
    calls = examples_of(module)
    graphs = []

    def counting_backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    handler = _Records()
    loggers = [logging.getLogger(name) for name in _BREAK_LOGGERS]
    saved = [(lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.propagate = False
        lg.addHandler(handler)
    counters.clear()
    try:
        for target, args, kwargs in calls:
            torch._dynamo.reset()
            result = torch.compile(eager(target), backend=counting_backend)(*args, **kwargs)
            if hasattr(result, "__next__"):
                list(result)  # a generator's frame only runs when iterated
    finally:
        for lg, (level, propagate) in zip(loggers, saved):
            lg.removeHandler(handler)
            lg.setLevel(level)
            lg.propagate = propagate
        torch._dynamo.reset()
    breaks = [Break(_line_in(m, str(path)), _ids(m)) for m in handler.messages]
    logged = {i for b in breaks for i in b.gb_ids}
    for key in counters["unimplemented"]:
        ids = _ids(key)
        if ids and not logged.intersection(ids):
            breaks.append(Break(None, ids))
    return Verdict(breaks, len(graphs), len(calls))
