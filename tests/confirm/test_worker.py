"""The worker on real fixtures: each break at the line Dynamo reports, including the ones explain misses."""

import pytest

from fullgraph.confirm.targets import targets_for

from .conftest import fixture, line_of

pytestmark = pytest.mark.torch


def confirm(client, name, target=None):
    path = fixture(name)
    return path, client.request(targets_for(path, name=target, explicit=target is not None)[0].payload())


def only(result, gb_id):
    found = [b for b in result["breaks"] if b["gb_id"] == gb_id or any(c["gb_id"] == gb_id for c in b["chained"])]
    assert len(found) == 1, result["breaks"]
    return found[0]


def test_print_before_first_tensor_op_is_reported(client):
    path, result = confirm(client, "print_first.py")
    brk = only(result, "GB0059")
    assert (brk["frames"][-1]["file"], brk["frames"][-1]["line"]) == (path, line_of(path, 'print("scaling"'))
    assert result["input_sets"][0]["graphs"] == 1
    assert result["output"].startswith("scaling 3\n")


def test_break_in_loop_skips_the_frame(client):
    path, result = confirm(client, "loop_break.py")
    brk = only(result, "GB7000")
    assert brk["gb_id"] == "GB0059" and brk["frame_skipped"]
    assert brk["frames"][-1]["line"] == line_of(path, 'print("norm"')
    assert result["input_sets"][0]["graphs"] == 0


def test_generator_entry_is_reported(client):
    _, result = confirm(client, "generator_entry.py")
    brk = only(result, "GB0003")
    assert brk["gb_type"] == "Attempt to trace generator" and brk["hints"]


def test_helper_break_has_outer_and_inner_frames(client):
    path, result = confirm(client, "helper_break.py")
    brk = only(result, "GB0170")
    outer, inner = brk["frames"]
    assert outer["line"] == line_of(path, "h = clamp_big(h)") and outer["name"] == "forward"
    assert inner["line"] == line_of(path, "if h.abs().max() > 100") and inner["name"] == "clamp_big"
    source = open(path).read().splitlines()[inner["line"] - 1]
    assert source[inner["col"] : inner["end_col"]] == "h.abs().max() > 100"


def test_recompilation_reports_the_failed_guard(client):
    path, result = confirm(client, "branchy.py")
    assert result["breaks"] == []
    (rc,) = result["recompilations"]
    assert rc["function"] == "route" and rc["input_set"] == 1
    assert "size mismatch" in rc["guards"][0]
    assert line_of(path, "if y.sum() > 0") not in result["reached"][path]


def test_named_target_reaches_the_branch(client):
    path, result = confirm(client, "branchy.py", "reached")
    brk = only(result, "GB0170")
    assert brk["frames"][0]["line"] == line_of(path, "if y.sum() > 0")
    assert brk["input_sets"] == [0, 1]


def test_verify_compares_outputs_and_graphs(client):
    from fullgraph.confirm.verify import describe

    path = fixture("clip.py")
    target = targets_for(path)[0]
    good = client.request(target.payload("verify", fixed_path=fixture("verify/clip.py")))
    assert describe("clip.py", good) == (True, "clip.py: graphs 3 → 1, outputs identical on 4 input sets")
    bad = client.request(target.payload("verify", fixed_path=fixture("wrong/clip.py")))
    ok, line = describe("clip.py", bad)
    assert not ok and "input set 1: output differs" in line


def test_compiled_target_runs_uncompiled_and_recompiles_only_for_real(client):
    path, result = confirm(client, "compiled_step.py")
    assert "user backend compiled" not in result["output"]  # neither the eager run nor ours uses it
    assert result["output"].count("step 1\n") == 2  # the eager run (lines reached) and the compiled one
    brk = only(result, "GB0059")
    assert brk["frames"][-1]["line"] == line_of(path, 'print("step"') and brk["input_sets"] == [0, 1]
    (rc,) = result["recompilations"]  # shared inputs stay alive: no guard fails on a freed copy
    assert rc["input_set"] == 1 and any("scale" in g for g in rc["guards"]), rc


def test_verify_imports_both_copies_with_the_same_seed(client):
    from fullgraph.confirm.verify import describe

    target = targets_for(fixture("shifted.py"))[0]
    result = client.request(target.payload("verify", fixed_path=fixture("verify/shifted.py")))
    assert describe("shifted.py", result) == (True, "shifted.py: graphs 2 → 1, outputs identical on 2 input sets")


def test_inputs_that_cannot_be_copied_are_used_as_they_are(client):
    path, result = confirm(client, "uncopyable.py")
    assert result["input_sets"][0]["error"] is None
    assert only(result, "GB0142")["frames"][-1]["line"] == line_of(path, "with lock:")


def test_a_break_in_a_resumed_function_is_at_its_own_line(client):
    """Torch 2.13 on Python 3.11 writes the line table of the function it resumes after a break with
    every step to a new line taken twice at a long instruction (`.mul(2)` on its own line): the
    `if` below read three lines too far down until the worker corrected Dynamo's writer."""
    path, result = confirm(client, "resumed_chain.py")
    brk = only(result, "GB0170")
    assert brk["frames"][-1]["line"] == line_of(path, "if z > 0:")
    assert only(result, "GB0059")["frames"][-1]["line"] == line_of(path, 'print("start")')  # the first break
