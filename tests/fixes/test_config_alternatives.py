"""The config quick fix of rules without a rewrite: offered as a second fix, and it really lets
Dynamo compile the corpus example in one graph."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fixes_for

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "examples"
CASES = [
    ("fg201_item_scale.py", "FG201", "capture_scalar_outputs"),
    ("fg202_tolist_int_module.py", "FG202", "capture_scalar_outputs"),
    ("fg204_int_of_sum.py", "FG204", "capture_scalar_outputs"),
    ("fg451_nonzero.py", "FG451", "capture_dynamic_output_shape_ops"),
    ("fg452_unique.py", "FG452", "capture_dynamic_output_shape_ops"),
    ("fg453_bool_mask.py", "FG453", "capture_dynamic_output_shape_ops"),
    ("fg455_repeat_by_durations.py", "FG455", "capture_dynamic_output_shape_ops"),
    ("fg408_lstm.py", "FG408", "allow_rnn"),
]


def alternative(name: str, code: str):
    source = (CORPUS / name).read_text()
    finding = next(f for f in analyze(source, name) if f.code == code)
    fixes = fixes_for(source, finding)
    config = [f for f in fixes if f.kind == "config"]
    assert len(config) == 1 and not config[0].preferred and all(f.kind != "config" for f in fixes if f.preferred)
    return source, config[0]


@pytest.mark.parametrize("name, code, knob", CASES)
def test_config_line_is_offered_after_the_imports(name, code, knob):
    source, fix = alternative(name, code)
    fixed = apply_edits(source, fix.edits)
    assert f"torch._dynamo.config.{knob} = True\n" in fixed
    again = next(f for f in analyze(fixed, name) if f.code == code)
    assert not [f for f in fixes_for(fixed, again) if f.kind == "config"]  # not offered twice


def _compiles_in_one_graph(path: Path, knob: str, torch) -> bool:
    """Default settings (``fullgraph=True`` would capture scalars by itself): one graph, no break."""
    from torch._dynamo.utils import counters

    before = getattr(torch._dynamo.config, knob)
    try:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        made = module.fullgraph_example()
        for fn, args, kwargs in made if isinstance(made, list) else [made]:
            fn = getattr(fn, "_torchdynamo_orig_callable", fn)
            torch._dynamo.reset()
            counters.clear()
            graphs = []
            torch.compile(fn, backend=lambda gm, inputs: graphs.append(gm) or gm.forward)(*args, **kwargs)
            if len(graphs) != 1 or sum(counters["graph_break"].values()):
                return False
        return True
    finally:
        setattr(torch._dynamo.config, knob, before)


@pytest.mark.torch
@pytest.mark.parametrize("name, code, knob", CASES)
def test_config_line_removes_the_break(name, code, knob, tmp_path):
    torch = pytest.importorskip("torch")
    source, fix = alternative(name, code)
    assert not _compiles_in_one_graph(CORPUS / name, knob, torch)
    path = tmp_path / name
    path.write_text(apply_edits(source, fix.edits))
    assert _compiles_in_one_graph(path, knob, torch)
