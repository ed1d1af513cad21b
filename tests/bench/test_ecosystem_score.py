"""The ecosystem scorer on a tiny package written here, with a hand-made ground truth."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ecosystem"

def bench_module(name: str):
    """A module of bench/ecosystem, imported with that folder on sys.path only meanwhile."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


MODEL = '''\
import torch
from torch import nn


def helper(x):
    return x + 1


class Model(nn.Module):
    def forward(self, x):
        if (x.sum()
                > 0):
            x = x * 2
        z = helper(x)
        print("value", z)
        if x.mean() > 1:
            x = x - 1
        return z


class Other(nn.Module):
    def forward(self, x):
        print("other", x)
        return x


class Unreached(nn.Module):
    def forward(self, x):
        print("never", x)
        return x
'''

FILE = "tinypkg/model.py"


def brk(line: int | None, gb_type: str) -> dict:
    return {"file": FILE if line else None, "line": line, "outer_file": FILE if line else None,
            "outer_line": 10 if line else None, "gb_type": gb_type, "gb_id": "GB0170", "skipped": False, "source": "hook"}


def run(model: str, variant: str, breaks: list[dict], reached: str = "", untraced: str = "") -> dict:
    return {"package": "tinypkg", "version": "1.0", "model": model, "variant": variant, "status": "ok",
            "graphs": len(breaks) + 1, "breaks": breaks,
            "reached": {FILE: reached} if reached else {}, "untraced": {FILE: untraced} if untraced else {}}


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """Score the tiny package once: (printed report, json results)."""
    score, truth_mod = bench_module("score"), bench_module("truth")
    tmp = tmp_path_factory.mktemp("eco")
    (tmp / "src" / "tinypkg").mkdir(parents=True)
    (tmp / "src" / "tinypkg" / "__init__.py").write_text("")
    (tmp / "src" / FILE).write_text(MODEL)
    runs = [
        # line 12 is the second line of the `if` at 11: the finding on 11 covers it
        run("m1", "base", [brk(12, "Data-dependent branching"), brk(6, "Unsupported method call")], reached="10-18"),
        run("m1", "fp16", [brk(14, "Unsupported method call"), brk(16, "Data-dependent branching"),
                           brk(16, "graph break in loop")], reached="10-18"),
        run("m2", "base", [brk(6, "Unsupported method call")], reached="5-6", untraced="22-24"),
        run("m3", "base", [brk(6, "Unsupported method call"), brk(None, "Attempt to trace generator")], reached="5-6"),
    ]
    truth_mod.save_runs(tmp / "truth" / "tinypkg.jsonl", {truth_mod.run_id(r): r for r in runs})
    out = tmp / "results.json"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        score.main(["--truth", str(tmp / "truth"), "--source", str(tmp / "src"), "--json", str(out), "--jobs", "1"])
    return buf.getvalue(), json.loads(out.read_text())["tinypkg"]


def test_recall_counts_sites_by_statement_and_splits_shared_infrastructure(scored):
    _, results = scored
    r = results["default"]
    assert r["recall"] == {"sites": 4, "found": 2, "model": {"sites": 3, "found": 2}, "shared": {"sites": 1, "found": 0}}
    assert r["recall_by_gb_type"] == {"Data-dependent branching": {"sites": 2, "found": 2},
                                      "Unsupported method call": {"sites": 2, "found": 0}}
    assert [(m["line"], m["shared"], m["only_in"]) for m in r["misses"]] == [(6, True, None), (14, False, "fp16")]
    assert r["unplaced_breaks"] == 1


def test_precision_tells_false_alarms_from_untraced_and_unknown(scored):
    _, results = scored
    r = results["default"]
    assert r["verdicts"] == {"true": 2, "false": 1, "untraced": 1, "unknown": 1}
    assert r["precision"] == pytest.approx(2 / 3, abs=1e-4)
    assert [(f["line"], f["code"], f["source"]) for f in r["false_alarms"]] == [(15, "FG301", 'print("value", z)')]
    assert r["true_only_in_variant"] == {"fp16": 1}
    assert set(results) == {"default", "all"}


def test_printed_table_carries_the_same_figures(scored):
    text, _ = scored
    assert "| default | 4 | 2 | 50.0% | 2/3 | 0/1 | 5 | 2 | 1 | 66.7% | 1 | 1 |" in text
    assert "`tinypkg/model.py:15` FG301: `print(\"value\", z)`" in text


def test_a_package_missing_from_the_source_is_refused_not_scored_as_nothing_found(tmp_path):
    score, truth_mod = bench_module("score"), bench_module("truth")
    (tmp_path / "src").mkdir()
    runs = [run("m1", "base", [brk(12, "Data-dependent branching")], reached="10-18")]
    truth_mod.save_runs(tmp_path / "truth" / "tinypkg.jsonl", {truth_mod.run_id(r): r for r in runs})
    with pytest.raises(SystemExit, match="not under .*first: tinypkg/model.py.*make ecosystem-venv"):
        score.main(["--truth", str(tmp_path / "truth"), "--source", str(tmp_path / "src"), "--jobs", "1"])


def test_line_ranges_round_trip():
    truth_mod = bench_module("truth")
    lines = {1, 2, 3, 7, 9, 10}
    assert truth_mod.encode_lines(lines) == "1-3,7,9-10"
    assert truth_mod.decode_lines("1-3,7,9-10") == lines


def test_fix_mode_maps_fixed_lines_back_to_the_original():
    fixmode = bench_module("fixmode")
    before = "a\nif t:\n    y = 1\nelse:\n    y = 2\nb\n"
    after = "a\ny = torch.where(t, 1, 2)\nb\n"
    # the rewritten statement stands for every line it replaced, unchanged lines for themselves
    assert fixmode.line_map(before, after) == {1: (1, 1), 2: (2, 5), 3: (6, 6)}
    # two stores rewritten in one block: a break left in the block may be either's
    before = "a\nself.x = t.item()\nself.y = u.item()\nb\n"
    after = "a\ndefer(lambda: t.item())\ndefer(lambda: u.item())\nmore()\nb\n"
    assert fixmode.line_map(before, after) == {1: (1, 1), 2: (2, 3), 3: (2, 3), 4: (2, 3), 5: (4, 4)}


@pytest.mark.parametrize("still, flagged_after, changed, expected", [
    (False, False, True, "fixed"),  # declined at first, fixed in a later round of fix-all
    (False, True, True, "declined"),  # the fixed file still flags it: something else removed the break
    (True, False, True, "declined"),  # the re-run still breaks there
    (False, False, False, "declined"),  # its file did not change
])
def test_fix_mode_counts_a_site_fixed_in_a_later_round_of_fix_all(still, flagged_after, changed, expected):
    fixmode = bench_module("fixmode")
    assert fixmode.site_outcome(True, False, False, True, still, changed, flagged_after) == expected
    assert fixmode.site_outcome(True, True, False, True, still, changed, flagged_after) == \
        ("flagged, still breaks" if still else "fixed")


def test_fix_mode_counts_a_rerun_that_timed_out_apart(capsys):
    fixmode = bench_module("fixmode")
    run = {"model": "m", "variant": "train", "status_before": "ok", "status_after": "timeout", "graphs": [3, None],
           "sites": [1, 0], "identical": {}, "error_after": "timeout (exit -9): "}
    result = {"runs": [run], "not_idempotent": [], "import_errors": [], "site_files": 1, "changed_files": ["a.py"],
              "site_outcomes": {}, "sites": [], "decline_reasons": {}}
    fixmode.print_report("pkg", {"default": result})
    assert "| 1 (1 timed out) |" in capsys.readouterr().out


def test_builders_turn_on_options_that_default_to_off():
    builders = bench_module("builders")
    params = [("causal", False), ("dropout", 0.0), ("scale", 1.0), ("steps", 0), ("name", None), ("on", True)]
    spelled = builders.off_options(params)
    assert spelled == ["causal", f"dropout={builders.RATE}"]
    assert [builders.turned_on(o) for o in spelled] == [("causal", True), ("dropout", builders.RATE)]


def test_readme_table_rows_carry_both_runs_figures():
    table = bench_module("readme_table")

    def result(found, true, false):
        return {"recall": {"sites": 4, "found": found, "model": {"sites": 3, "found": found - 1},
                           "shared": {"sites": 1, "found": 1}}, "verdicts": {"true": true, "false": false, "unknown": 7}}

    after = {"x_transformers": {"default": result(4, 3, 1)}, "newpkg": {"all": result(2, 2, 0)}}
    before = {"x_transformers": {"default": result(2, 1, 1)}}
    assert table.rows(after, before) == [
        "| x-transformers | default | 4 (3 / 1) | 4 | 100.0% (50.0%) | 3/3 | 3 | 1 | 75.0% (50.0%) | 7 |",
        "| newpkg | all | 4 (3 / 1) | 2 | 50.0% (n/a) | 1/3 | 2 | 0 | 100.0% (n/a) | 7 |",
    ]


def test_readme_fix_rows_sum_the_runs_that_ran_both_times():
    table = bench_module("readme_table")

    def run(before, after, graphs, sites, same=True):
        return {"status_before": before, "status_after": after, "graphs": graphs, "sites": sites,
                "identical": {"eager": same, "compiled": same}}

    fixed = {"site_outcomes": {"fixed": 2, "declined": 3, "not flagged": 1}, "site_files": 4,
             "changed_files": ["a.py"], "not_idempotent": [], "import_errors": [],
             "runs": [run("ok", "ok", [5, 1], [2, 0]), run("ok", "ok", [3, 2], [1, 1], same=False),
                      run("ok", "compile-error", [2, 0], [1, 0])]}
    untouched = {"site_outcomes": {"declined": 1}, "site_files": 1, "changed_files": [], "not_idempotent": ["b.py"],
                 "import_errors": [], "runs": []}
    assert table.fix_rows({"kornia": {"default": fixed}, "diffusers": {"all": untouched}}) == [
        "| diffusers | all | 1 | 0 | 0 | 1 | 0 | 0 | no run re-run |  |  |  | no, ok |",
        "| kornia | default | 4 | 1 | 2 | 3 | 0 | 1 | 8 → 3 (3) | 3 → 1 | 1/2 / 1/2 | 1 | yes, ok |",
    ]


@pytest.mark.parametrize("itself, expected", [("output 0 differs", "nondeterministic"), (True, "output 0 differs")])
def test_fix_mode_tells_a_nondeterministic_model_from_a_changed_output(tmp_path, monkeypatch, itself, expected):
    """A difference is re-checked against a second run of the original: if the original differs
    from itself, the row says so instead of blaming the fix."""
    fixmode = bench_module("fixmode")
    table = bench_module("readme_table")

    def rerun(package, model, variants, outdir, pythonpath, timeout):
        outdir.mkdir(parents=True)
        for v in variants:
            (outdir / f"{model}.{v}.pt").write_bytes(b"")

    monkeypatch.setattr(fixmode, "rerun", rerun)
    monkeypatch.setattr(fixmode, "compare", lambda a, b: {"eager": itself, "compiled": True})
    rows = [{"model": "m", "variant": "base", "status_before": "ok", "status_after": "ok", "graphs": [2, 1],
             "sites": [1, 0], "identical": {"eager": "output 0 differs", "compiled": True}}]
    fixmode.settle_differences(rows, "pkg", tmp_path, 60)
    assert expected in rows[0]["identical"]["eager"] and rows[0]["identical"]["compiled"] is True
    result = {"site_outcomes": {"fixed": 1}, "site_files": 1, "changed_files": ["a.py"], "not_idempotent": [],
              "import_errors": [], "runs": rows}
    row = table.fix_rows({"pkg": {"default": result}})[0]
    assert ("0/1 / 1/1 (1 nondeterministic)" in row) == (expected == "nondeterministic")
