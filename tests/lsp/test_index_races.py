"""An analysis that was running when the index changed is run again: the change's own
re-analysis picks the documents that recorded using the changed file, and one still running had
recorded nothing yet (a helper opened just before its model closed kept an empty list)."""

from __future__ import annotations

from types import SimpleNamespace

from fullgraph.analysis.project import ProjectIndex
from fullgraph.lsp.index_feature import IndexService


def _service(tmp_path):
    (tmp_path / "helpers.py").write_text("def clip(x):\n    return x\n")
    (tmp_path / "other.py").write_text("y = 1\n")
    service = IndexService(SimpleNamespace(client_capabilities=None, workspace=SimpleNamespace(text_documents={})))
    service.project = ProjectIndex([str(tmp_path)], search_paths=())
    for name in ("helpers.py", "other.py"):
        service.project.summary(str(tmp_path / name))
    service.ready = True
    again = []
    service._reanalyze = again.extend
    return service, again


def _analysis(service, tmp_path, names=()):
    with service.project.readonly() as use:
        service.project.summary(str(tmp_path / "helpers.py"))
        use.names.update(names)
    return use


def test_a_file_changed_while_an_analysis_used_it_runs_that_analysis_again(tmp_path):
    service, again = _service(tmp_path)
    use = _analysis(service, tmp_path)
    service.project.update(str(tmp_path / "helpers.py"), "def clip(x):\n    return x * 2\n")
    service.analysed("file:///helpers.py", use)
    assert again == ["file:///helpers.py"]


def test_an_analysis_that_asked_for_callers_runs_again_after_any_change(tmp_path):
    service, again = _service(tmp_path)
    use = _analysis(service, tmp_path, names={"clip"})
    service.project.update(str(tmp_path / "other.py"), "from helpers import clip\n")
    service.analysed("file:///helpers.py", use)
    assert again == ["file:///helpers.py"]


def test_a_change_the_analysis_did_not_depend_on_leaves_it(tmp_path):
    service, again = _service(tmp_path)
    use = _analysis(service, tmp_path)
    service.project.update(str(tmp_path / "other.py"), "y = 2\n")
    service.analysed("file:///helpers.py", use)
    assert again == []
    service.analysed("file:///helpers.py", _analysis(service, tmp_path, names={"clip"}))  # nothing changed since
    assert again == []
