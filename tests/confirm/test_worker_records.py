"""The worker's reading of Dynamo's recompile records and its merging of breaks across input sets."""

from fullgraph.confirm.merge import describe_break
from fullgraph.confirm.capture import parse_break, parse_recompile
from fullgraph.confirm.worker import merge_breaks

RESUMED_RECORD = """Recompiling function torch_dynamo_resume_in_train_step_at_26 in /p/training_step.py:26
    triggered by the following guard failure(s):
    - 7/0: step == 10                                               # if step % 10 == 0:  # p/training_step.py:27 in torch_dynamo_resume_in_train_step_at_26
    - User stack trace:
    -   File "/p/training_step.py", line 27, in torch_dynamo_resume_in_train_step_at_26
    -     if step % 10 == 0:"""


def test_recompile_names_the_guard_and_its_line():
    rc = parse_recompile(RESUMED_RECORD)
    assert rc == {"function": "train_step (resumed after the graph break at line 26)",
                  "file": "/p/training_step.py", "line": 27, "guards": ["step == 10"]}


def test_recompile_without_a_guard_location_stays_at_the_function():
    record = ("Recompiling function route in /p/branchy.py:5\n    triggered by the following guard failure(s):\n"
              "    - 0/0: tensor 'x' size mismatch at index 0. expected 2, actual 5")
    rc = parse_recompile(record)
    assert (rc["function"], rc["line"]) == ("route", 5)
    assert rc["guards"] == ["tensor 'x' size mismatch at index 0. expected 2, actual 5"]


def brk(gb_type, line=None):
    frames = [{"file": "/p/m.py", "line": line, "name": "f", "col": None, "end_col": None}] if line else []
    return {"gb_type": gb_type, "frames": frames, "chained": []}


def test_a_break_counts_for_every_set_that_ran_its_line():
    found = [(0, brk("Data-dependent branching", 7))]
    (merged,) = merge_breaks(found, [{"/p/m.py": {7}}, {"/p/m.py": {3}}, {"/p/m.py": {3, 7}}])
    assert merged["input_sets"] == [0, 2]


def test_a_counted_break_without_location_is_dropped_only_when_located_elsewhere():
    found = [(0, brk("Call to graph_break", 9)), (1, brk("Call to graph_break")), (1, brk("Generator"))]
    merged = merge_breaks(found, [{}, {}])
    assert [(b["gb_type"], b["input_sets"]) for b in merged] == [("Call to graph_break", [0]), ("Generator", [1])]


LIBRARY_BREAK = """Graph break in user code at /p/train.py:26
Graph Break Reason: Call to `torch._dynamo.graph_break()`
  Explanation: User-inserted graph break. Message: None
  Hint: Remove the `torch._dynamo.graph_break()` call.

User code traceback:
  File "/p/train.py", line 26, in train_step
    optimizer.step()
  File "/venv/lib/python3.11/site-packages/torch/optim/optimizer.py", line 79, in _use_grad
    torch._dynamo.graph_break()
"""


def test_a_break_inside_a_library_names_where_and_stays_at_the_user_line():
    brk = parse_break(LIBRARY_BREAK)
    assert [(f["file"], f["line"]) for f in brk["frames"]] == [("/p/train.py", 26)]
    assert brk["library_frame"] == {"file": "torch/optim/optimizer.py", "line": 79, "name": "_use_grad"}
    assert "inside library code at torch/optim/optimizer.py:79 (`_use_grad`)" in describe_break(brk)


def test_a_break_in_user_code_has_no_library_frame():
    brk = parse_break(LIBRARY_BREAK.split('  File "/venv')[0])
    assert brk["library_frame"] is None and "library" not in describe_break(brk)
