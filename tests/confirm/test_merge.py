"""Merging worker results with static findings (no torch: results are worker-shaped dicts)."""

from fullgraph.confirm.merge import NOT_REACHED, NO_BREAK, merge
from fullgraph.findings import Finding

PATH = "/project/model.py"
SOURCE = "\n".join([
    "import torch",
    "def forward(x):",
    "    y = helper(x)",
    "    if x.sum() > 0:",
    "        print('hi')",
    "    return y",
    "def helper(x):",
    "    return x.tolist()",
])


def static(line, code="FG101"):
    return Finding(PATH, line, 4, line, 18, code, f"static {code}", severity="warning")


def brk(gb_id, *frames, skipped=False):
    return {
        "gb_type": f"type {gb_id}", "gb_id": gb_id, "explanation": "why", "hints": ["do this"],
        "frame_skipped": skipped, "chained": [], "input_sets": [0],
        "frames": [{"file": PATH, "line": ln, "name": name, "col": None, "end_col": None} for ln, name in frames],
    }


def result(*breaks, reached=(2, 3, 4, 6, 7, 8), recompilations=()):
    return {"breaks": list(breaks), "reached": {PATH: list(reached)}, "recompilations": list(recompilations),
            "target_location": {"file": PATH, "line": 2, "name": "forward"}}


def test_confirmed_static_finding_is_marked_and_raised():
    (f,) = merge([static(4)], result(brk("GB0170", (4, "forward"))), PATH, SOURCE, severity="error")
    assert f.confirmed is True and f.severity == "error" and "confirmed by Dynamo" in f.message


def test_static_findings_not_reached_or_not_breaking_stay():
    out = merge([static(5, "FG301"), static(6, "FG999")], result(reached=(2, 3, 4, 6)), PATH, SOURCE)
    assert [(f.line, f.confirmed, f.data["reached"]) for f in out] == [(5, False, False), (6, False, True)]
    assert NOT_REACHED in out[0].message and NO_BREAK in out[1].message


def test_dynamo_only_break_in_helper_anchors_at_the_outer_call():
    (f,) = merge([], result(brk("GB0109", (3, "forward"), (8, "helper"), skipped=True)), PATH, SOURCE)
    assert (f.code, f.line, f.col, f.end_col, f.confirmed) == ("FG900", 3, 4, 17, True)
    assert "type GB0109" in f.message and "do this" in f.message and "skipped the whole function" in f.message
    assert [(r.line, r.message) for r in f.related] == [(8, "inside helper")]
    assert f.gb_ids == ("GB0109",)


def test_break_without_location_goes_to_the_target_def():
    (f,) = merge([], result(brk("GB0003")), PATH, SOURCE)
    assert (f.code, f.line) == ("FG900", 2)


def test_recompilation_becomes_info_finding():
    rc = {"function": "forward", "file": PATH, "line": 2, "guards": ["0/0: tensor 'x' size mismatch"], "input_set": 1}
    (f,) = merge([], result(recompilations=[rc]), PATH, SOURCE)
    assert f.code == "FG901" and f.severity == "info" and "input set 2" in f.message and "size mismatch" in f.message


def test_breaks_from_several_targets_are_all_kept():
    out = merge([static(4)], [result(brk("GB0170", (4, "forward"))), result(brk("GB0059", (5, "forward")))],
                PATH, SOURCE)
    assert [(f.line, f.code, f.confirmed) for f in out] == [(4, "FG101", True), (5, "FG900", True)]


def test_path_defaults_to_the_target_file():
    (f,) = merge([], result(brk("GB0003")), source=SOURCE)
    assert (f.path, f.line) == (PATH, 2)
