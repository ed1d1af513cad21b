"""What an editor user sees next to ruff/Pylance: short messages, a hover that adds instead of
repeating, CodeLens counts that match the squiggles of the same version, a quiet log."""

from __future__ import annotations

from lsprotocol import types

from lsp_texts import MODEL

# Two findings start at `choice.unique()`: FG202 (the whole `.tolist()` call) and FG452.
TWO_ON_ONE_PLACE = '''import torch


@torch.compile
def route(choice: torch.Tensor):
    used = choice.unique().tolist()
    return used
'''

NOTHING_FIXABLE = '''import torch


@torch.compile
def pick(x: torch.Tensor):
    return x.nonzero()
'''


async def _hover(session, uri, line, character):
    return await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))


async def _lenses(session, uri):
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    return [lens for lens in lenses or [] if "likely graph break" in lens.command.title]


async def test_messages_are_short_and_carry_no_links(session):
    uri = session.open("model.py", MODEL)
    for diag in await session.diagnostics(uri):
        assert "http" not in diag.message and "(Dynamo" not in diag.message
        assert diag.code_description.href.endswith(f"{diag.code}.md")


async def test_hover_adds_the_why_and_the_fix_without_repeating_the_message(session):
    uri = session.open("model.py", MODEL)
    fg101 = next(d for d in await session.diagnostics(uri) if d.code == "FG101")
    text = (await _hover(session, uri, 6, 9)).contents.value
    assert fg101.message not in text  # the editor already shows it above the hover
    assert text.count("**FG101**") == 1 and text.count("```diff") == 1
    assert "gb0170.html" in text and "FG101.md" in text  # the registry link lives here
    why = text.split("\n")[0]
    assert why.startswith("**FG101** `tensor-condition-if`: Dynamo traces one path") and why.split(" [GB")[0].count(". ") <= 1  # two sentences at most


async def test_two_findings_on_one_place_give_one_block_each_and_one_preview(session):
    uri = session.open("route.py", TWO_ON_ONE_PLACE)
    diags = await session.diagnostics(uri)
    assert sorted(d.code for d in diags) == ["FG202", "FG452"]
    text = (await _hover(session, uri, 5, 14)).contents.value
    assert text.count("**FG202**") == 1 and text.count("**FG452**") == 1
    assert not any(d.message in text for d in diags)
    assert text.count("```diff") <= 1


async def test_lens_counts_match_the_diagnostics_of_the_same_version(session):
    uri = session.open("model.py", MODEL)
    diags = await session.diagnostics(uri)
    (lens,) = await _lenses(session, uri)
    assert lens.command.title == "2 likely graph breaks · 1 fixable"  # the print's deferral is not applied by fix-all
    assert list(lens.command.arguments) == [uri, session.version(uri)]
    fix = next(a for a in await session.actions(uri, [d for d in diags if d.code == "FG101"]) if a.is_preferred)
    refreshes = session.lens_refreshes
    assert session.apply(fix.edit)
    (lens,) = await _lenses(session, uri)  # asked right after the edit, as an editor does
    after = await session.diagnostics(uri)
    assert len(after) == 1 and lens.command.title == "1 likely graph break" and lens.command.command == ""
    if session.client_capabilities.workspace.code_lens:  # VS Code: told to re-read the lenses
        assert session.lens_refreshes > refreshes


async def test_no_fix_all_lens_without_a_fix(session):
    uri = session.open("pick.py", NOTHING_FIXABLE)
    assert [d.code for d in await session.diagnostics(uri)] == ["FG451"]
    (lens,) = await _lenses(session, uri)
    assert lens.command.title == "1 likely graph break" and lens.command.command == ""
