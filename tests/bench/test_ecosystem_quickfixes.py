"""The quick-fix sweep (every quick fix of every finding, applied alone) on a tiny package."""

from __future__ import annotations

from collections import Counter

from test_ecosystem_score import bench_module
from test_ecosystem_sweep import tiny_package

from fullgraph.config import Config


def test_the_sweep_applies_each_quick_fix_and_finds_no_problem_in_a_sound_one(tmp_path):
    quickfixes, truth_mod = bench_module("quickfixes"), bench_module("truth")
    root = tiny_package(tmp_path / "src")
    row = {"package": "tinypkg", "model": "Model", "variant": "base", "breaks": [],
           "reached": {"tinypkg/model.py": "6-11"}}
    truth_mod.save_runs(tmp_path / "truth" / "tinypkg.jsonl", {truth_mod.run_id(row): row})
    r = quickfixes.sweep("tinypkg", root, "default", 5, tmp_path / "truth")
    counts = r["counts"]
    assert (counts["files"], counts["findings"]) == (1, 1)
    assert counts["fixes"] >= 2  # the predication and the suppression comment
    assert not any(counts.get(p) for p in quickfixes.PROBLEMS), r["examples"]


def test_a_fix_check_that_fails_inside_the_engine_is_counted(tmp_path, monkeypatch):
    import fullgraph.engine

    def broken(*args, **kwargs):
        raise KeyError("boom")

    quickfixes, truth_mod = bench_module("quickfixes"), bench_module("truth")
    root = tiny_package(tmp_path / "src")
    row = {"package": "tinypkg", "model": "Model", "variant": "base", "breaks": [],
           "reached": {"tinypkg/model.py": "6-11"}}
    truth_mod.save_runs(tmp_path / "truth" / "tinypkg.jsonl", {truth_mod.run_id(row): row})
    monkeypatch.setattr(fullgraph.engine, "fix_check", broken)
    r = quickfixes.sweep("tinypkg", root, "default", 5, tmp_path / "truth")
    assert r["counts"]["fix check failed"] == 1 and r["examples"] == ["tinypkg/model.py:8 FG101: fix check failed"]


def test_a_fix_that_breaks_the_code_or_drops_a_comment_is_reported():
    quickfixes = bench_module("quickfixes")
    text = "def f(x):\n    # keep me\n    return x  # and me\n"
    kept = quickfixes.comments(text)
    assert kept == Counter({"# keep me": 1, "# and me": 1})
    check = lambda fixed: quickfixes.problems_of(text, fixed, "m.py", Config(), kept)  # noqa: E731
    assert check("def f(x):\n    return x +\n") == ["does not compile"]
    assert check("def f(x):\n    return x  # and me\n") == ["drops a comment"]
    assert check("def f(x):\n    # keep me\n    y = x\n    return y  # and me\n") == []


def test_a_suppression_appended_to_a_comment_keeps_it():
    quickfixes = bench_module("quickfixes")
    text = "x = f(y)  # type: ignore[misc]\n"
    fixed = "x = f(y)  # type: ignore[misc]  # fullgraph: ignore[FG201]\n"
    assert quickfixes.problems_of(text, fixed, "m.py", Config(), quickfixes.comments(text)) == []
    assert not quickfixes.comments_kept(Counter({"# a": 2}), Counter({"# a  # b": 1}))


def test_fix_states_of_two_engines_are_compared_finding_by_finding():
    fixstates = bench_module("fixstates")
    old = {"p:default": [["a.py", 3, "FG101", "predicate", "not pure"], ["a.py", 9, "FG301", "defer", None]]}
    new = {"p:default": [["a.py", 3, "FG101", "predicate", None], ["b.py", 1, "FG201", "keep-tensor", None]]}
    assert fixstates.differences(old, new) == [
        "p:default: only before: a.py:9 FG301", "p:default: only after: b.py:1 FG201",
        "p:default: a.py:3 FG101\n    before: not pure\n    after:  fixable"]
    assert fixstates.differences(old, old) == []


def test_findings_another_truth_file_places_in_a_file_are_swept_there(tmp_path):
    """As the editor shows them: the helper's branch is a finding of `helpers.py` only through the
    model's `forward` in `model.py`, and its quick fixes are applied to the helper's text."""
    quickfixes, truth_mod = bench_module("quickfixes"), bench_module("truth")
    package = tmp_path / "src" / "tinypkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("import torch\n\n\ndef scale(x):\n    if x.sum() > 0:\n        y = x * 2\n"
                                        "    else:\n        y = -x\n    return y\n")
    (package / "model.py").write_text("import torch\nfrom torch import nn\n\nfrom tinypkg.helpers import scale\n\n\n"
                                      "class Model(nn.Module):\n    def forward(self, x: torch.Tensor):\n        return scale(x)\n")
    row = {"package": "tinypkg", "model": "Model", "variant": "base", "breaks": [],
           "reached": {"tinypkg/model.py": "9", "tinypkg/helpers.py": "5-9"}}
    truth_mod.save_runs(tmp_path / "truth" / "tinypkg.jsonl", {truth_mod.run_id(row): row})
    r = quickfixes.sweep("tinypkg", tmp_path / "src", "default", 5, tmp_path / "truth")
    assert (r["counts"]["files"], r["counts"]["findings"]) == (2, 1)
    assert r["counts"]["fixes"] == 2 and not any(r["counts"].get(p) for p in quickfixes.PROBLEMS), r["examples"]


def test_predication_deferral_and_trap_sites_are_counted_with_their_fix_states(tmp_path):
    """A break site counts when a predication, deferral or trap finding sits on its statement; it is
    fixable when fix-all applies one, else its first such finding's reason is counted."""
    fixstates, truth_mod = bench_module("fixstates"), bench_module("truth")
    root = tiny_package(tmp_path / "src")
    breaks = [{"file": "tinypkg/model.py", "line": 8, "gb_type": "Data-dependent branching"},
              {"file": "tinypkg/plain.py", "line": 2, "gb_type": "Data-dependent branching"}]
    row = {"package": "tinypkg", "model": "Model", "variant": "base", "breaks": breaks,
           "reached": {"tinypkg/model.py": "6-11"}}
    truth_mod.save_runs(tmp_path / "truth" / "tinypkg.jsonl", {truth_mod.run_id(row): row})
    found = {"tinypkg:default": [["tinypkg/model.py", 8, "FG101", "predicate", None],
                                 ["tinypkg/plain.py", 2, "FG201", "keep-tensor", None]],  # not a GraphMend class
             "tinypkg:all": [["tinypkg/model.py", 8, "FG101", "predicate", "not pure"]]}
    lines, reasons = fixstates.site_states(found, tmp_path / "truth", root)
    assert lines == ["tinypkg:all: 0 of 1 sites fixable", "tinypkg:default: 1 of 1 sites fixable",
                     "all, every package: 0 of 1 predication, deferral and trap sites have a fix fix-all applies",
                     "default, every package: 1 of 1 predication, deferral and trap sites have a fix fix-all applies"]
    assert reasons == Counter({"not pure": 1})
