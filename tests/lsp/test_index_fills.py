"""The files an open document's analysis lacked are read between two files of the index build,
not after it: until they are, every edit of that document is analysed afresh (a workspace of
2,600 files took 36 s to index, and edits took about 600 ms each meanwhile)."""

from __future__ import annotations

from types import SimpleNamespace

from fullgraph.lsp.index_feature import IndexService


class _Loop:
    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, fn, *args) -> None:
        pass  # the reanalysis the fill asks for: not under test here


class _Project:
    """Records the order of the build's summaries and the fill's reads; the first summary is
    where an analysis of an open document reports the file it lacked."""

    def __init__(self, service: IndexService) -> None:
        self.service, self.order = service, []
        self.resolver = None

    def workspace_files(self) -> list[str]:
        return ["a.py", "b.py", "c.py"]

    def summary(self, path: str) -> None:
        self.order.append(f"summary {path}")
        if path == "a.py":
            self.service.analysed("file:///open.py", SimpleNamespace(touched=set(), names=set(), missing={"lib.py"}))

    def fill(self, path: str) -> None:
        self.order.append(f"read {path}")

    def compile_targets(self) -> dict:
        return {}

    def index_calls(self) -> None:
        pass


def test_a_lacked_file_is_read_before_the_rest_of_the_build():
    server = SimpleNamespace(client_capabilities=None, workspace=SimpleNamespace(text_documents={}))
    service = IndexService(server)
    service._loop = _Loop()
    service.project = project = _Project(service)
    service._build()
    assert project.order == ["summary a.py", "read lib.py", "summary b.py", "summary c.py"]
    service._drain_fills()  # what the queued job does once the build is over: nothing left
    assert project.order.count("read lib.py") == 1


class _RunNow(_Loop):
    def call_soon_threadsafe(self, fn, *args) -> None:
        fn(*args)


def test_a_file_lacked_again_after_its_fill_is_read_again_never_twice_at_once():
    """A file rewritten on disk after a fill read it (no watched-file event: the editor opened it, a
    client watches nothing) is stale in the index: the next analysis that lacks it asks again (it used
    to wait forever). Two analyses that lack a file before its fill ask once, and both run again."""
    server = SimpleNamespace(client_capabilities=None, workspace=SimpleNamespace(text_documents={}))
    service = IndexService(server)
    service._loop = _RunNow()
    service.project = project = _Project(service)
    again = []
    service._reanalyze = again.extend
    lacking = SimpleNamespace(touched={"lib.py"}, names=set(), missing={"lib.py"})
    service.analysed("file:///a.py", lacking)
    service.analysed("file:///b.py", lacking)
    service._drain_fills()
    assert project.order == ["read lib.py"] and again == ["file:///a.py", "file:///b.py"]
    service.analysed("file:///a.py", lacking)
    service._drain_fills()
    assert project.order == ["read lib.py", "read lib.py"]


def test_a_document_that_asked_for_callers_before_the_build_ended_is_analysed_again():
    """Which files call a name is known only once the build read them all: a helper opened early
    (its analysis asked who calls `clip` and heard nobody) runs again at the end of the build; a
    document that asked nothing and lacked nothing does not."""
    asked = SimpleNamespace(touched=set(), names={"clip"}, missing=set())
    plain = SimpleNamespace(touched=set(), names=set(), missing=set())
    server = SimpleNamespace(client_capabilities=None, workspace=SimpleNamespace(
        text_documents={"file:///helpers.py": None, "file:///other.py": None}))
    service = IndexService(server)
    service._loop = _RunNow()
    service.project = _Project(service)
    again = []
    service._reanalyze = again.extend
    service.analysed("file:///helpers.py", asked)
    service.analysed("file:///other.py", plain)
    service._build()  # (its first summary reports `open.py` lacking a file: that one runs again too)
    assert again == ["file:///open.py", "file:///helpers.py"]
