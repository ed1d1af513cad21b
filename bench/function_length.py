"""Analysis time against the length of one function: it must grow linearly.

Builds one compiled `forward` of repeated `if x.sum() > i: x = x * i` / `print(x.item(), i)`
blocks (every block gives findings that carry fix preconditions) at 500, 2,000 and 8,000 lines
and prints the median time of `analyze` for each and its ratio to the 500-line one. Linear
time gives 4x and 16x; the target is at most 20x at 8,000 lines. Also prints what happens to a
15,000-term expression (`y = x + x + ... + x`) and to a 2,000-deep unary chain in an `if`.
"""

from __future__ import annotations

import statistics
import sys
import time

from fullgraph.engine import analyze

LENGTHS = (500, 2_000, 8_000)
BLOCK = "    if x.sum() > {i}:\n        x = x * {i}\n    print(x.item(), {i})\n"  # three lines


def forward(lines: int) -> str:
    """A module holding one compiled function of about ``lines`` lines."""
    body = "".join(BLOCK.format(i=i) for i in range(lines // 3))
    return f"import torch\n\n\n@torch.compile\ndef forward(x):\n{body}    return x\n"


def timed(source: str, repeat: int) -> tuple[float, int]:
    """Median seconds of ``analyze(source)`` and its number of findings."""
    times, found = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        found = len(analyze(source))
        times.append(time.perf_counter() - start)
    return statistics.median(times), found


def main() -> None:
    analyze(forward(30))  # warm imports and caches
    print("| function lines | findings | analyze (s) | ratio to 500 lines |")
    print("|---:|---:|---:|---:|")
    anchor = None
    for lines in LENGTHS:
        seconds, found = timed(forward(lines), repeat=5 if lines < 8_000 else 3)
        anchor = anchor or seconds
        print(f"| {lines:,} | {found:,} | {seconds:.3f} | {seconds / anchor:.1f}x |")
    terms = "import torch\n\n@torch.compile\ndef f(x):\n    print(x.item())\n    y = " + " + ".join(["x"] * 15_000) + "\n    return y\n"
    seconds, _ = timed(terms, repeat=1)
    print(f"\n15,000-term sum: {seconds:.3f} s, findings: {', '.join(f.code for f in analyze(terms)) or 'none'}")
    unary = "import torch\n\n@torch.compile\ndef f(x):\n    if " + "-" * 2_000 + "x.sum():\n        x = x + 1\n    return x\n"
    seconds, _ = timed(unary, repeat=1)
    print(f"2,000-deep unary chain in an if: {seconds:.3f} s, findings: {', '.join(f.code for f in analyze(unary)) or 'none'}")
    print(f"\nPython {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
