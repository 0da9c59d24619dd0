"""The Language Server Protocol side of `boom lsp`, with pygls: messages in, Analysis answers out.

Each open edition file is checked again at every change (its parents read from disk) and its
diagnostics published; hover, completion and go-to-definition are asked of the latest Analysis.
Positions are converted here, and only here: the protocol's lines and characters count from 0, and
its characters are code units of the encoding agreed with the editor (UTF-16 unless it says
otherwise: a character beyond the Basic Multilingual Plane, an emoji, counts 2), where boom counts
characters from 1 (pygls's position codec converts, with each file's own lines). It never writes a
file.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.workspace.position_codec import ServerTextPosition

from ..errors import Diagnostic, Span
from .analysis import Analysis

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "note": types.DiagnosticSeverity.Information}
KINDS = {"key": types.CompletionItemKind.Property, "function": types.CompletionItemKind.Function,
         "variable": types.CompletionItemKind.Variable, "constant": types.CompletionItemKind.Constant,
         "icon": types.CompletionItemKind.EnumMember, "region": types.CompletionItemKind.EnumMember,
         "card": types.CompletionItemKind.EnumMember, "family": types.CompletionItemKind.Class,
         "edition": types.CompletionItemKind.File}


class EditionServer(LanguageServer):
    def __init__(self):
        from importlib.metadata import PackageNotFoundError, version

        try:
            here = version("boom")
        except PackageNotFoundError:  # pragma: no cover - a checkout run without installing
            here = "0"
        super().__init__("boom-lsp", here)
        self.analyses: dict[str, Analysis] = {}

    def analyse(self, uri: str) -> Analysis:
        document = self.workspace.get_text_document(uri)
        analysis = Analysis(document.path, document.source, self.analyses.get(uri))
        self.analyses[uri] = analysis
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[lsp_diagnostic(d, analysis.path, self.lines_of(analysis))
                                  for d in analysis.diagnostics],
            version=document.version))
        return analysis

    def asked(self, params) -> tuple[Analysis, int, int]:
        """The analysis of the document a request is about, and its position as boom counts: line and
        character from 1."""
        uri = params.text_document.uri
        analysis = self.analyses.get(uri) or self.analyse(uri)
        document = self.workspace.get_text_document(uri)
        here = document.position_codec.position_from_client_units(document.lines, params.position)
        return analysis, here.line + 1, here.character + 1

    def lines_of(self, analysis: Analysis):
        """file -> its lines, to convert a position in it to the editor's units: the open document as
        typed, a parent as read for the check."""
        texts = getattr(analysis.checked.source_map, "texts", None) or {}

        def lines(file: str) -> list[str]:
            if Path(file).resolve() == Path(analysis.path).resolve():
                return analysis.text.splitlines(keepends=True)
            text = texts.get(file)
            if text is None:
                try:
                    text = Path(file).read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    text = ""
            return text.splitlines(keepends=True)

        return lines

    def lsp_range(self, span: Span, lines) -> types.Range:
        """A boom span (from 1, in characters) as a protocol range (from 0, in the editor's units)."""
        codec, text = self.workspace.position_codec, lines(span.file)
        end_line = span.end_line or span.line
        end_col = span.end_col if span.end_col and span.end_line else span.col + 1
        return types.Range(
            start=codec.position_to_client_units(text, ServerTextPosition(span.line - 1, span.col - 1)),
            end=codec.position_to_client_units(text, ServerTextPosition(end_line - 1, end_col - 1)))


server = EditionServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: EditionServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: EditionServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: EditionServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: EditionServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: EditionServer, params: types.HoverParams) -> types.Hover | None:
    analysis, line, character = ls.asked(params)
    words = analysis.hover(line, character)
    if not words:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=words))


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=["'", "(", " ", ":"]))
def completion(ls: EditionServer, params: types.CompletionParams) -> types.CompletionList:
    analysis, line, character = ls.asked(params)
    found = analysis.completions(line, character)
    items = [types.CompletionItem(label=label, kind=KINDS.get(kind), detail=detail) for label, kind, detail in found]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: EditionServer, params: types.DefinitionParams) -> types.Location | None:
    analysis, line, character = ls.asked(params)
    span = analysis.definition(line, character)
    return None if span is None else types.Location(uri=from_fs_path(str(Path(span.file).resolve())),
                                                    range=ls.lsp_range(span, ls.lines_of(analysis)))


def lsp_diagnostic(diagnostic: Diagnostic, path: str, lines) -> types.Diagnostic:
    """A boom diagnostic for the open file at path: one in another file (a parent's) is shown on the
    first line, its place in the message. lines: file -> its lines (EditionServer.lines_of)."""
    span = diagnostic.span
    here = span is not None and Path(span.file).resolve() == Path(path).resolve()
    message = diagnostic.message if here or span is None else f"{span}: {diagnostic.message}"
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    related = [types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(str(Path(note.span.file).resolve())),
                                range=server.lsp_range(note.span, lines)),
        message=note.message) for note in diagnostic.notes if note.span is not None]
    where = server.lsp_range(span, lines) if here else types.Range(start=types.Position(line=0, character=0),
                                                                   end=types.Position(line=0, character=0))
    return types.Diagnostic(range=where, message=message, severity=SEVERITY.get(diagnostic.severity),
                            code=diagnostic.code, source="boom", related_information=related or None)


def serve() -> None:
    """Speak the protocol over stdin and stdout until the editor says exit."""
    server.start_io()
