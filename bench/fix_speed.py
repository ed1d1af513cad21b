"""Speed of the rewrites on a large file: one quick fix, the precondition checks, and fix-all.

Builds a ~4,300-line module from the `fixtures/fixes/*.in.py` models (classes renamed so
they stay distinct) and prints the figures as a markdown table.
"""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import fullgraph.engine as engine
from fullgraph.fixes import fix_all, fixes_for

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "fixes"
TARGET_LINES = 4300


def big_module() -> str:
    """The fixture models repeated until the module has about ``TARGET_LINES`` lines."""
    bodies = []
    for path in sorted(ROOT.glob("*/*.in.py")):
        text = path.read_text()
        bodies.append(text[text.index("\nclass "):text.index("\ndef fullgraph_example")])
    header = "import logging\nimport warnings\n\nimport torch\nfrom torch import nn\n\nlogger = logging.getLogger(__name__)\n"
    parts, copy = [header], 0
    while sum(p.count("\n") for p in parts) < TARGET_LINES:
        for body in bodies:
            parts.append(re.sub(r"^class (\w+)", lambda m, n=copy: f"class {m.group(1)}{n}", body.strip("\n"), flags=re.M) + "\n\n")
        copy += 1
    return "\n".join(parts)


def timed(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    source = big_module()
    findings = engine.analyze(source, "big.py")
    fixable = [f for f in findings if f.fix and not f.fix_blocked]
    last = fixable[-1]
    with_checks = timed(lambda: engine.analyze(source, "big.py"))
    real = engine.decline_reason
    engine.decline_reason = lambda *args, **kwargs: None
    try:
        without_checks = timed(lambda: engine.analyze(source, "big.py"))
    finally:
        engine.decline_reason = real
    one_fix = timed(lambda: fixes_for(source, last))
    all_result = []
    whole = timed(lambda: all_result.append(fix_all(source, "big.py")), repeat=1)
    print(f"module: {source.count(chr(10))} lines, {len(findings)} findings, {len(fixable)} with a safe fix\n")
    print("| measure | time |")
    print("|---|---|")
    print(f"| analyze (with fix preconditions) | {with_checks:.0f} ms |")
    print(f"| analyze (preconditions stubbed out) | {without_checks:.0f} ms |")
    print(f"| preconditions per finding | {(with_checks - without_checks) / max(len(findings), 1):.2f} ms |")
    print(f"| one quick fix (`fixes_for`, last finding, line {last.line}) | {one_fix:.0f} ms |")
    print(f"| fix-all to fixpoint ({all_result[0].applied} fixes) | {whole:.0f} ms |")


if __name__ == "__main__":
    main()
