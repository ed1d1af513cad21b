"""The project index in the server: built in the background, used without waiting, kept current."""

from __future__ import annotations

import asyncio
import time

from lsprotocol import types

PLAIN = "class Base:\n    pass\n"
BASE = "import torch\nfrom torch import nn\nclass Base(nn.Module):\n    pass\n"
MODEL = ("import torch\nfrom basemod import Base\nclass Net(Base):\n    def forward(self, x):\n"
         "        if x.sum() > 0:\n            x = x * 2\n        return x.relu()\n")


async def _until(session, uri, predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        mine = [p for p in session.published if p.uri == uri]
        if mine and predicate(mine[-1].diagnostics):
            return mine[-1].diagnostics
        await asyncio.sleep(0.02)
    raise TimeoutError([(p.version, [d.code for d in p.diagnostics]) for p in session.published if p.uri == uri])


async def test_base_classes_in_other_files_are_read_and_kept_current(session):
    folder = session.root / "idx"
    folder.mkdir()
    (folder / "basemod.py").write_text(PLAIN)
    uri = session.open("model.py", MODEL, folder="idx")
    assert isinstance(await session.diagnostics(uri, 1), list)  # published without waiting for the index
    # Without the index, an imported base with `forward(self, x)` is taken for a module; the
    # index reads basemod.py and says it is not.
    await _until(session, uri, lambda d: len(d) == 0)
    # The base becomes a module in its editor buffer: the model is analysed again with it.
    base = session.open("basemod.py", PLAIN, folder="idx")
    session.replace_all(base, BASE)
    diags = await _until(session, uri, lambda d: [x.code for x in d] == ["FG101"])
    assert diags[0].range.start.line == 4
    # Closed unsaved: the file on disk is the truth again.
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=base)))
    await _until(session, uri, lambda d: len(d) == 0)
    # Changed on disk: the watched-file event makes the server read it again.
    (folder / "basemod.py").write_text(BASE)
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=base, type=types.FileChangeType.Changed)]))
    await _until(session, uri, lambda d: [x.code for x in d] == ["FG101"])


async def test_fix_all_sees_what_the_diagnostics_see(session):
    """Fix-all analyses with the project index too: once the index says the imported base is a
    plain class there is no squiggle, and fix-all has nothing to rewrite (without the index a guess
    would take `Net` for a module and predicate its `if`)."""
    folder = session.root / "idxfix"
    folder.mkdir()
    (folder / "basemod.py").write_text(PLAIN)
    annotated = MODEL.replace("def forward(self, x)", "def forward(self, x: torch.Tensor)")
    uri = session.open("model.py", annotated, folder="idxfix")
    await _until(session, uri, lambda d: len(d) == 0)
    result = await session.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="fullgraph.applyFixAll", arguments=[uri, session.version(uri)]))
    assert result == {"applied": False, "reason": "nothing to fix"}


HELPER = "def clip(x):\n    if x.max() > 1:\n        return x / 2\n    return x\n"
USER = ("from torch import nn\nfrom helpers import clip\nclass User(nn.Module):\n    def forward(self, x):\n"
        "        return clip(x)\n")


async def test_findings_in_a_helper_file_show_there(session):
    """A model's analysis that reaches a helper in another workspace file shows that finding in the
    helper's file, open or not; the helper's own analysis finds it too (compiled code in the model's
    file calls it), with the call as related information; deleting the model takes it away."""
    folder = session.root / "idxhelp"
    folder.mkdir()
    (folder / "helpers.py").write_text(HELPER)
    model = session.open("user.py", USER, folder="idxhelp")
    helper = model.rsplit("/", 1)[0] + "/helpers.py"
    found = await _until(session, helper, lambda d: [x.code for x in d] == ["FG101"])
    assert found[0].range.start.line == 1 and found[0].related_information[0].location.uri == model
    assert session.open("helpers.py", HELPER, folder="idxhelp") == helper
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=model)))
    own = await _until(session, helper, lambda d: [x.code for x in d] == ["FG101"] and any(
        "compiled code (`User.forward`) calls `clip` here" in r.message for r in d[0].related_information or ()))
    assert own[0].range.start.line == 1
    (folder / "user.py").unlink()
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=model, type=types.FileChangeType.Deleted)]))
    await _until(session, helper, lambda d: not d)


DECORATOR = ("import torch\ndef refreshed(forward):\n    def wrapper(self, x):\n        if torch.max(x) > self.cached:\n"
             "            self.cached = 0\n        return forward(self, x)\n    return wrapper\n")
ROTARY = ("from torch import nn\nfrom deco import refreshed\nclass Rotary(nn.Module):\n    @refreshed\n"
          "    def forward(self, x):\n        return x * 2\n")


async def test_a_decorator_file_opened_alone_shows_the_wrapper_compiled_code_runs(session):
    """A decorator of a module's `forward` in another file leaves its wrapper there: the
    decorator's file, opened alone, checks the wrapper, with the decorated line as related
    information; once the model no longer uses the decorator (changed on disk), the finding goes."""
    folder = session.root / "idxdeco"
    folder.mkdir()
    (folder / "rotary.py").write_text(ROTARY)
    uri = session.open("deco.py", DECORATOR, folder="idxdeco")
    rotary = uri.rsplit("/", 1)[0] + "/rotary.py"
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=rotary, type=types.FileChangeType.Created)]))  # as the editor reports a new file
    found = await _until(session, uri, lambda d: [x.code for x in d] == ["FG101"])
    assert found[0].range.start.line == 3
    assert any("compiled code (`Rotary.forward`) is decorated with `refreshed` here" in r.message
               and r.location.uri.endswith("/rotary.py") and r.location.range.start.line == 3
               for r in found[0].related_information)
    (folder / "rotary.py").write_text(ROTARY.replace("    @refreshed\n", ""))
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=rotary, type=types.FileChangeType.Changed)]))
    await _until(session, uri, lambda d: not d)


CONVERT = "def to_int(x):\n    return int(x)\n"
CALLER = "import torch\nfrom convert import to_int\ndef run(t: torch.Tensor):\n    return to_int(t.shape[0])\n"


async def test_callers_in_other_files_give_an_assumed_entry_its_facts(session):
    """Under `assume_compiled = "all"`, a helper file opened alone takes what the workspace's other
    files pass its functions once the index knows them; a caller changed on disk changes that."""
    folder = session.root / "idxcallers"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[tool.fullgraph]\nassume_compiled = "all"\n')
    uri = session.open("convert.py", CONVERT, folder="idxcallers")
    await _until(session, uri, lambda d: [x.code for x in d] == ["FG204"])  # no caller: `x` guessed a tensor
    caller = uri.rsplit("/", 1)[0] + "/caller.py"
    for text, event in ((CALLER, types.FileChangeType.Created), (CALLER.replace("t.shape[0]", "t.sum()"),
                                                                   types.FileChangeType.Changed)):
        (folder / "caller.py").write_text(text)
        session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=caller, type=event)]))
        if event == types.FileChangeType.Created:
            await _until(session, uri, lambda d: len(d) == 0)  # a shape passed: `x` is no tensor
    await _until(session, uri, lambda d: [x.code for x in d] == ["FG204"] and "a guess" not in d[0].message)


SCALE = ("import torch\n\n\ndef scale(x):\n    if x.sum() > 0:\n        y = x * 2\n    else:\n        y = -x\n"
         "    return y\n")
SCALER = ("import torch\nfrom torch import nn\nfrom scaling import scale\nclass Scaler(nn.Module):\n"
          "    def forward(self, x: torch.Tensor):\n        return scale(x) + 1\n")


async def test_a_finding_a_model_places_in_a_helper_has_its_quick_fix_and_fix_all_there(session):
    """The helper's branch is found by the model's analysis: in the helper's file, its quick fix is
    offered and removes it, as fix-all does (on the text the finding was placed on)."""
    folder = session.root / "idxplaced"
    folder.mkdir()
    (folder / "scaling.py").write_text(SCALE)
    model = session.open("scaler.py", SCALER, folder="idxplaced")
    helper = session.open("scaling.py", SCALE, folder="idxplaced")
    assert helper == model.rsplit("/", 1)[0] + "/scaling.py"
    # an analysis that ran before the index read the model's own file places the finding with its
    # fix declined (`scale`'s other callers unknown); the next one, once the file is read, offers it
    placed = await _until(session, helper, lambda d: [x.code for x in d] == ["FG101"]
                          and d[0].data["finding"]["fix_blocked"] is None)
    actions = [a for a in await session.actions(helper, placed) if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in actions] == ["fullgraph (FG101): Predicate with torch.where",
                                          "fullgraph (FG101): disable for this line"]
    fix_all = await session.actions(helper, [], only=["source.fixAll.fullgraph"])
    assert [a.kind for a in fix_all] == ["source.fixAll.fullgraph"]
    assert session.apply(actions[0].edit)
    assert "    y = torch.where(x.sum() > 0, x * 2, -x)\n" in session.text(helper)
    await _until(session, helper, lambda d: not d)


async def test_under_api_a_function_its_package_exports_is_checked(session):
    """`assume_compiled = "api"`: a function of a package file is an entry once the package's
    `__init__.py` (on disk, not open) exports it, with the export as related information; dropping
    the export on disk drops the finding."""
    folder = session.root / "idxapi"
    (folder / "pkg").mkdir(parents=True)
    (folder / "pyproject.toml").write_text('[tool.fullgraph]\nassume_compiled = "api"\n')
    init = folder / "pkg" / "__init__.py"
    init.write_text("from .scaling import scale\n")
    uri = session.open("pkg/scaling.py", SCALE, folder="idxapi")
    diags = await _until(session, uri, lambda d: [x.code for x in d] == ["FG101"])
    assert [r.message for r in diags[0].related_information] == [
        "`scale` is exported here: the package's users call it from their compiled code"]
    init.write_text("")
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri.rsplit("/", 1)[0] + "/__init__.py", type=types.FileChangeType.Changed)]))
    await _until(session, uri, lambda d: len(d) == 0)
