"""Finding targets and factories: the in-file convention and [tool.fullgraph.confirm]."""

from fullgraph.config import Config
from fullgraph.confirm.targets import factories, parse_spec, setting, targets_for

SOURCE = "def fullgraph_example():\n    pass\n\ndef fullgraph_example_Decoder():\n    pass\n\ndef other(): pass\n"


def test_factories_in_file():
    assert factories(SOURCE) == {None: 1, "Decoder": 4}
    assert factories("def broken(:\n") == {None: 1}


def test_parse_spec():
    assert parse_spec("a/model.py::Net") == ("a/model.py", "Net")
    assert parse_spec("model.py") == ("model.py", None)


def test_pyproject_entries_and_settings(tmp_path):
    table = {"pkg/model.py::Net": "tests/factories.py:make_net", "other.py": "f.py:g",
             "severity": "error", "on-save": True}
    config = Config(root=str(tmp_path), extra={"confirm": table})
    path = str(tmp_path / "pkg" / "model.py")
    (target,) = targets_for(path, "", config)
    assert (target.name, target.factory) == ("Net", f"{tmp_path}/tests/factories.py:make_net")
    assert target.payload()["root"] == str(tmp_path)
    assert setting(config, "severity") == "error" and setting(config, "onSave", "on_save") is True


def test_explicit_target_without_factory_is_kept(tmp_path):
    (target,) = targets_for(str(tmp_path / "m.py"), SOURCE, name="Missing", explicit=True)
    assert target.name == "Missing" and target.factory is None
    assert [t.name for t in targets_for(str(tmp_path / "m.py"), SOURCE)] == [None, "Decoder"]

