"""Analysis work grows linearly with a function's length and a condition's depth.

Work is counted, not timed: the number of Python function calls `analyze` makes (deterministic
for a given input), at two sizes. Linear work gives a ratio near the size ratio; the checks that
walked the whole function per finding, or re-walked every sub-condition, gave its square.
Wall-clock figures come from `bench/function_length.py`.
"""

from __future__ import annotations

import gc
import sys

from fullgraph.engine import analyze

BLOCK = "    if x.sum() > {i}:\n        x = x * {i}\n    print(x.item(), {i})\n"


def calls(source: str) -> int:
    """Python function calls made while analysing ``source``."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    analyze(source)  # imports and caches out of the count
    gc.collect()  # no earlier test's garbage collected inside the count (its weak-reference callbacks are calls)
    gc.disable()
    sys.setprofile(profile)
    try:
        analyze(source)
    finally:
        sys.setprofile(None)
        gc.enable()
    return count


def forward(blocks: int) -> str:
    body = "".join(BLOCK.format(i=i) for i in range(blocks))
    return f"import torch\n\n\n@torch.compile\ndef forward(x):\n{body}    return x\n"


def test_work_is_linear_in_the_length_of_one_function():
    small, large = calls(forward(50)), calls(forward(400))
    assert large < 10 * small, (small, large)  # 8x the length


def test_work_is_linear_in_the_depth_of_a_condition():
    def chain(depth: int) -> str:
        return f"import torch\n\n@torch.compile\ndef f(x):\n    if {'-' * depth}x.sum():\n        x = x + 1\n    return x\n"
    small, large = calls(chain(100)), calls(chain(800))
    assert large < 10 * small, (small, large)  # 8x the depth
    assert [f.code for f in analyze(chain(2_000))] == ["FG101"]


def test_an_expression_too_deep_to_analyse_is_reported_not_dropped():
    source = ("import torch\n\n@torch.compile\ndef f(x):\n    print(x.item())\n    y = " + " + ".join(["x"] * 15_000)
              + "\n    return y\n\n@torch.compile\ndef g(x):\n    return x.item()\n")
    found = analyze(source, "deep.py")
    assert [(f.code, f.line) for f in found] == [("FG001", 4), ("FG201", 11)]
    assert "`f` was not analysed: an expression in it is nested too deeply" in found[0].message
    assert (found[0].col, found[0].end_col) == (0, len("def f(x):"))


def test_work_is_linear_in_the_number_of_module_classes():
    # Each class has a tensor branch and a print before more tensor work: the deferral's checks
    # once scanned every class of the file for each print, so the work grew with the square of the
    # number of classes (15.9x for 8x the classes).
    block = ("class Block{i}(nn.Module):\n    def forward(self, x):\n        if x.sum() > 0:\n"
             "            x = x * 2\n        print(x.shape)\n        return torch.relu(x) + {i}\n\n\n")

    def model(classes: int) -> str:
        return "import torch\nimport torch.nn as nn\n\n\n" + "".join(block.format(i=i) for i in range(classes))
    assert [f.code for f in analyze(model(1))] == ["FG101", "FG301"]
    small, large = calls(model(40)), calls(model(320))
    assert large < 10 * small, (small, large)  # 8x the classes


def test_work_is_linear_in_the_number_of_helpers_that_print():
    # Each class calls its own helper, which prints: the deferral's check of the helper's callers
    # once walked the whole file for each helper (37.7x the calls for 8x the classes).
    block = ("def helper{i}(x):\n    print(x.sum())\n    return x * 2\n\n\nclass Block{i}(nn.Module):\n"
             "    def forward(self, x):\n        x = helper{i}(x)\n        return torch.relu(x)\n\n\n")

    def model(classes: int) -> str:
        return "import torch\nimport torch.nn as nn\n\n\n" + "".join(block.format(i=i) for i in range(classes))
    assert [f.code for f in analyze(model(1))] == ["FG301"]
    small, large = calls(model(40)), calls(model(320))
    assert large < 10 * small, (small, large)  # 8x the classes


def test_work_on_a_chain_of_nested_modules_that_print_grows_slower_than_its_cube():
    # Each module makes the one before and prints before calling it, so every module of the chain
    # replays each print: the order check once paired every replaying module with every other
    # print (11.4x the calls for twice the chain); it stops, declining, past MAX_CHECKS pairs.
    block = ("class Block{i}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             "        self.inner = Block{j}()\n\n    def forward(self, x):\n        print(x)\n"
             "        return self.inner(x) * 2\n\n\n")

    def chain(length: int) -> str:
        return ("import torch\nimport torch.nn as nn\n\n\nclass Block0(nn.Module):\n    def forward(self, x):\n"
                "        return x\n\n\n" + "".join(block.format(i=i, j=i - 1) for i in range(1, length + 1)))
    assert [f.code for f in analyze(chain(2))] == ["FG301", "FG301"]
    small, large = calls(chain(15)), calls(chain(30))
    assert large < 8 * small, (small, large)  # twice the chain


def test_work_is_linear_in_the_number_of_ternaries_calling_helper_methods():
    # Each ternary's fix check reads the class: its 0-d buffers, the attributes it assigns, its
    # parameters. Read per finding, those walks made the work grow with the square of the class.
    def model(n: int) -> str:
        helpers = "".join(f"    def h{i}(self, x):\n        return x * {i}\n\n" for i in range(n))
        lines = "".join(f"        y = y + (self.h{i}(x).mean() if self.training and self.w > 0 else x.mean())\n"
                        for i in range(n))
        return ("import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.register_buffer('w', torch.tensor(0.5))\n\n" + helpers
                + "    def forward(self, x):\n        y = x.mean()\n" + lines + "        return y\n")
    assert [f.code for f in analyze(model(1))] == ["FG103"]
    small, large = calls(model(40)), calls(model(320))
    assert large < 10 * small, (small, large)  # 8x the ternaries and helpers
