"""The worker's reading of Dynamo's recompile records and its merging of breaks across input sets."""

from fullgraph.confirm.worker import merge_breaks, parse_recompile

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
