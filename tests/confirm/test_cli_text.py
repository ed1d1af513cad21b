"""`fullgraph confirm` without running Dynamo: the text report, missing inputs, no torch in the server."""

from fullgraph.commands.confirm import print_text
from fullgraph.findings import Finding


def test_text_report_lines(capsys):
    finding = Finding("m.py", 3, 4, 3, 9, "FG900", "Dynamo graph break: x", confirmed=True)
    print_text([finding], [{"target": "m.py", "graphs": [2, 1], "breaks": 1, "recompilations": 0, "seconds": 0.5}],
               ["m.py::B: factory raised"])
    out, err = capsys.readouterr()
    assert out.splitlines() == ["m.py:3:5: FG900 Dynamo graph break: x (confirmed)",
                                "m.py: graphs per input set: 2, 1; 1 distinct break, 0 recompilations (0.5 s)"]
    assert err == "error: m.py::B: factory raised\n"


def test_file_without_sample_inputs_says_how_to_add_them(tmp_path, capsys):
    from fullgraph.cli import main

    path = tmp_path / "model.py"
    path.write_text("import torch\n\n@torch.compile\ndef f(x):\n    print(x)\n    return x\n")
    assert main(["confirm", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "FG301" in out and "(static)" in out
    assert "no sample inputs; define fullgraph_example()" in err


def test_server_side_modules_never_import_torch():
    import subprocess
    import sys

    modules = ["fullgraph.commands.confirm", "fullgraph.confirm.client", "fullgraph.confirm.document",
               "fullgraph.confirm.verify", "fullgraph.confirm.merge", "fullgraph.lsp.confirm_feature"]
    code = f"import sys\nfor m in {modules!r}: __import__(m)\nprint('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
