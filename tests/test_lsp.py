"""`boom lsp` (#31): a real Language Server Protocol session over stdio with a real `boom lsp`
subprocess, driven by pygls's own client, as an editor drives it: open a house rule, type a
mistake, get the validator's diagnostic at its range, hover and complete at three places each, and
go to a definition in the parent edition."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
HANG_GUARD = 600  # seconds: only a hung server ever waits this long; nothing is timed

RULE = """extends: australia
id: koalas
name: "Boomerang: Australia (Koala bonus)"
categories:
  - key: koalas
    title: Koala bonus
    description: 2 points for each Koala icon this round.
    score: 2 * count('Koalas', cards)
  - key: animals
    description: Pairs score {families.animal}.
"""


class Session:
    """A client talking to `boom lsp`, with the diagnostics it was sent by document version."""

    def __init__(self):
        self.client = LanguageClient("boom-test", "1")
        self.published: dict[tuple[str, int | None], list] = {}
        self.arrived = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams):
            self.published[(params.uri, params.version)] = list(params.diagnostics)
            self.arrived.set()

    async def start(self, folder: Path):
        # `boom lsp` as the console script runs it (cli.main:main), from this checkout's code
        await self.client.start_io(sys.executable, "-m", "cli.main", "lsp", cwd=str(ROOT))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(folder))))
        self.client.initialized(types.InitializedParams())

    async def open(self, path: Path, text: str) -> str:
        """Write path, start the server in its folder and open it there as an editor does (version 1): its uri."""
        path.write_text(text, encoding="utf-8")
        await self.start(path.parent)
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    async def diagnostics(self, uri: str, version: int) -> list:
        while (uri, version) not in self.published:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), HANG_GUARD)
        return self.published[(uri, version)]

    async def hover(self, uri, line, character) -> str | None:
        answer = await self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line,
                                                                                         character=character)))
        return answer.contents.value if answer else None

    async def complete(self, uri, line, character) -> dict:
        answer = await self.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line,
                                                                                         character=character)))
        items = answer.items if isinstance(answer, types.CompletionList) else answer
        return {item.label: item.kind for item in items}

    async def definition(self, uri, line, character):
        return await self.client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line,
                                                                                         character=character)))

    async def stop(self):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def test_an_editor_session_with_boom_lsp(tmp_path):
    asyncio.run(_session(tmp_path))


async def _session(tmp_path):
    session = Session()
    uri = await session.open(tmp_path / "koalas.yaml", RULE)
    try:
        assert await session.diagnostics(uri, 1) == []  # the house rule is valid

        # the author types a mistake: a misspelt icon, unsaved
        typed = RULE.replace("count('Koalas', cards)", "count('Koala', cards)")
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
        [mistake] = await session.diagnostics(uri, 2)
        assert (mistake.code, mistake.severity, mistake.source) == ("D201", types.DiagnosticSeverity.Error, "boom")
        assert mistake.message == "unknown name 'Koala'\nhint: did you mean 'Koalas'?"
        assert (mistake.range.start.line, mistake.range.start.character) == (7, 21)
        assert (mistake.range.end.line, mistake.range.end.character) == (7, 28)

        # and mends it; a typo in a key is a warning with the parent's entry as related information
        typed = RULE.replace("key: animals", "key: animal")
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
        warnings = {d.code: d for d in await session.diagnostics(uri, 3)}
        close = warnings["W410"]
        assert (close.severity, close.range.start.line, close.range.start.character) == (
            types.DiagnosticSeverity.Warning, 8, 9)
        [related] = close.related_information
        assert to_fs_path(related.location.uri) == str(AUSTRALIA) and related.location.range.start.line == 86
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=4),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=RULE)]))
        assert await session.diagnostics(uri, 4) == []

        # hover: a key's meaning from the schema, a category's rules in words, a name in an expression
        assert (await session.hover(uri, 3, 2)).startswith("**Scoring categories**\n\nEach category scores")
        animals = await session.hover(uri, 8, 12)
        assert animals.startswith("**Animals** (`animals`, category)\n\nPairs score Kangaroos 3, Emus 4, Wombats 5, "
                                  "Koalas 7, Platypuses 9.")
        assert await session.hover(uri, 7, 31) == "`cards`: list of cards — the cards you drafted this round"
        assert await session.hover(uri, 7, 24) == "'Koalas': animal icon, value 7"

        # completion: the keys of a category, the variables and functions of a round category, icons
        keys = await session.complete(uri, 9, 4)  # at the start of a line inside the `animals` entry
        assert {"title", "when", "choice", "counts"} <= set(keys) and "description" not in keys
        assert keys["title"] == types.CompletionItemKind.Property
        names = await session.complete(uri, 7, 11)  # in `2 * count(...)`
        assert names["cards"] == types.CompletionItemKind.Variable
        assert names["previous"] == types.CompletionItemKind.Variable and "place" not in names   # a race award's
        assert names["totals"] == types.CompletionItemKind.Variable   # the sheet so far, in a round too
        assert names["kinds"] == types.CompletionItemKind.Function
        assert names["animal"] == types.CompletionItemKind.Constant
        quoted = await session.complete(uri, 7, 22)  # inside the quotes of 'Koalas'
        assert quoted["Platypuses"] == types.CompletionItemKind.EnumMember and "Tasmania" in quoted and "#" in quoted

        # go to definition: the category key to the parent's entry, the icon to its family
        [entry] = _locations(await session.definition(uri, 8, 12))
        assert to_fs_path(entry.uri) == str(AUSTRALIA) and (entry.range.start.line, entry.range.start.character) == (
            86, 9)
        [icon] = _locations(await session.definition(uri, 7, 24))
        assert to_fs_path(icon.uri) == str(AUSTRALIA)
        assert (icon.range.start.line, icon.range.start.character) == (26, 47)
        [parent] = _locations(await session.definition(uri, 0, 12))
        assert to_fs_path(parent.uri) == str(AUSTRALIA) and parent.range.start.line == 0
    finally:
        await session.stop()


KOALAS = "\U0001f428" * 8  # eight koalas: each beyond the Basic Multilingual Plane, 2 UTF-16 code units
WIDE = f"""extends: australia
id: koalas
name: "Boomerang: Australia (Koala bonus)"
categories:
  - {{key: koalas, title: "{KOALAS} bonus", description: 2 points a Koala., score: "2 * count('Koala', cards)"}}
"""


def test_positions_are_utf16_code_units_as_the_protocol_counts_them(tmp_path):
    asyncio.run(_wide_session(tmp_path))


async def _wide_session(tmp_path):
    line = WIDE.splitlines()[4]
    mistake, cards = line.index("'Koala'"), line.index("cards")  # in characters, as Python counts them
    session = Session()
    uri = await session.open(tmp_path / "wide.yaml", WIDE)
    try:
        [found] = await session.diagnostics(uri, 1)
        assert (found.code, found.message) == ("D201", "unknown name 'Koala'\nhint: did you mean 'Koalas'?")
        # the eight koalas before the mistake count 16 code units, not 8 characters
        assert (found.range.start.line, found.range.start.character) == (4, mistake + 8)
        assert (found.range.end.line, found.range.end.character) == (4, mistake + 8 + len("'Koala'"))
        # asked in code units, the server finds `cards`; read as characters, 8 further on, it would be past it
        assert await session.hover(uri, 4, cards + 8) == "`cards`: list of cards — the cards you drafted this round"
    finally:
        await session.stop()


def _locations(answer) -> list:
    return [answer] if isinstance(answer, types.Location) else list(answer or ())


def test_boom_lsp_without_pygls_says_how_to_install_it():
    code = "import sys; sys.modules['pygls'] = None\nfrom cli.main import main\nmain(['lsp'])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr == "boom lsp needs pygls, in boom's `lsp` extra: pip install 'boom[lsp]'\n"
    assert result.stdout == ""
