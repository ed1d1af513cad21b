"""Epilogue shapes: the checker's verdict and what Dynamo does with each (one table, two tests).

Each shape is the body of ``f(x, flag=True)``. ``ONE_GRAPH`` shapes are not reported (the call
is in epilogue position); the others are, with the Dynamo outcome that justifies it.
"""

import textwrap

PRELUDE = '''\
import logging
import sys
import warnings

import torch

logger = logging.getLogger("epilogue")


def f(x, flag=True):
'''

ONE_GRAPH = "one graph"  # not reported: Dynamo breaks at the call, but no graph follows it
SPLIT = "split"  # reported: a second graph is traced after the call
SKIPPED = "skipped"  # reported: a break inside a loop makes Dynamo skip the whole frame
FIRST = "before the first op"  # reported: Dynamo breaks first and traces the function in a resume frame

SHAPES = {
    "print_before_return": ('y = x.relu()\nprint("y", y.sum())\nreturn y', ONE_GRAPH),
    "print_item_fstring": ('h = x.relu()\nprint(f"mean={h.mean().item():.3f}")\nreturn h', ONE_GRAPH),
    "pending_flag": (("pending = False\ny = x + 1\nif flag:\n    s = y.sum()\n    pending = True\n"
                      'if pending:\n    print("s", s)\nreturn y'), ONE_GRAPH),
    "python_condition": ('y = x + 1\nif flag:\n    print("y total", y.sum())\nreturn y', ONE_GRAPH),
    "early_return": (('h = x.tanh()\ns = h.sum()\nif flag:\n    r = h * 2\n    print("h", s)\n    return r\n'
                      'r = h + x\nprint("h", s)\nreturn r'), ONE_GRAPH),
    "replay_function": (("calls = []\ndef replay(rows):\n    for (a,) in rows:\n        print(a.item())\n"
                         "for i in range(2):\n    x = x * 2\n    calls.append((x.sum(),))\nreplay(calls)\nreturn x"),
                        ONE_GRAPH),
    "logging_percent": (('y = x.sum(dim=0)\nn = y.norm()\nr = y + 1\nlogger.warning("sum %s, norm %.2f", y, float(n))\n'
                         "return r"), ONE_GRAPH),
    "warnings_warn": ('y = x * 3\nwarnings.warn("scaling by 3")\nreturn y', ONE_GRAPH),
    "stream_write": ('y = x.relu()\nsys.stdout.write("done\\n")\nreturn y', ONE_GRAPH),
    "stream_write_op_after": ('y = x.relu()\nsys.stderr.write("y\\n")\nreturn y * 2', SPLIT),
    "several_calls": ('y = x.relu()\nprint("y", y.sum())\nlogger.info("shape %s", y.shape)\nreturn y, x', ONE_GRAPH),
    "falls_off_end": ('y = x.relu()\nx.copy_(y)\nprint("done", y.sum())', ONE_GRAPH),
    "op_after": ('y = x.relu()\nprint("y")\nreturn y * 2', SPLIT),
    "tensor_attribute_returned": ('y = x.relu()\nprint("y")\nreturn y.T', SPLIT),
    "op_in_a_later_call": ('y = x.relu()\nprint("a")\nprint("y", y.sum())\nreturn y', SPLIT),
    "op_after_item_in_call": ("y = x.relu()\nprint(y.sum().item(), y.max())\nreturn y", SPLIT),
    "tensor_condition_after": ('y = x.relu()\nprint("y")\nif y.sum() > 0:\n    y = y + 1\nreturn y', SPLIT),
    "in_loop": ("for i in range(2):\n    x = x * 2\n    print(i)\nreturn x", SKIPPED),
    "for_loop_epilogue": ("y = x.relu()\ncalls = [(y.sum(),)]\nfor (a,) in calls:\n    print(a.item())\nreturn y",
                          SKIPPED),
    "at_start": ('print("start")\ny = x.relu()\nreturn y * 2', FIRST),
    "before_any_op": ('print("x", x.shape)\nreturn x', FIRST),
}
# The line of the flagged call in each reported shape (1-based in the body).
FLAGGED_LINE = {"op_after": 2, "stream_write_op_after": 2, "tensor_attribute_returned": 2, "op_in_a_later_call": 2, "op_after_item_in_call": 2,
                "tensor_condition_after": 2, "in_loop": 3, "for_loop_epilogue": 4, "at_start": 1, "before_any_op": 1}


def shape_source(name: str) -> str:
    """The module holding shape ``name`` as ``f``."""
    return PRELUDE + textwrap.indent(SHAPES[name][0], "    ") + "\n"


def body_line(line: int) -> int:
    """The module line of body line ``line``."""
    return PRELUDE.count("\n") + line
