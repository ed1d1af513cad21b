"""Recall and false positives of the checker on the Dynamo-verified corpus (tests/corpus).

Every marked `(line, code)` of a breaking example is a real break (test_dynamo_verdicts.py
proves it); a finding anywhere else, including on any counter-example, is a false positive.
Usage: python bench/corpus_accuracy.py   (no torch needed)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "corpus"))

from corpus_format import load_examples, rule_of  # noqa: E402
from fullgraph.analysis.project import ProjectIndex  # noqa: E402
from fullgraph.engine import analyze  # noqa: E402


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "n/a"


def main() -> int:
    examples = load_examples()
    project = ProjectIndex([str(examples[0].path.parent)]) if examples else None  # as `fullgraph check` runs
    breaking, clean, expected, found, false_pos, clean_alarms = (Counter() for _ in range(6))
    for example in examples:
        rule = rule_of(example)
        (clean if example.clean else breaking)[rule] += 1
        want = example.expected_findings()
        got = {(f.line, f.code) for f in analyze(example.path.read_bytes(), str(example.path), project=project)}
        for _, code in want:
            expected[code] += 1
        for _, code in want & got:
            found[code] += 1
        for _, code in got - want:
            false_pos[code] += 1
        if example.clean and got:
            clean_alarms[rule] += 1
    rules = sorted(set(breaking) | set(clean) | set(false_pos))
    print(f"Corpus: {len(examples)} examples ({sum(breaking.values())} breaking, {sum(clean.values())} counter-examples)\n")
    print("| rule | breaking / clean examples | expected breaks | found | recall | false positives | flagged counter-examples |")
    print("|---|---|---|---|---|---|---|")
    for rule in rules:
        print(f"| {rule} | {breaking[rule]} / {clean[rule]} | {expected[rule]} | {found[rule]} | "
              f"{_percent(found[rule], expected[rule])} | {false_pos[rule]} | {clean_alarms[rule]} |")
    total_expected, total_found = sum(expected.values()), sum(found.values())
    print(f"| **all** | {sum(breaking.values())} / {sum(clean.values())} | {total_expected} | {total_found} | "
          f"**{_percent(total_found, total_expected)}** | **{sum(false_pos.values())}** | {sum(clean_alarms.values())} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
