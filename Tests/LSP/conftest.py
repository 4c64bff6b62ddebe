"""Shared set-up of the end-to-end tests of `kblint server` driven by pytest-lsp.

KBLINT is the kblint executable under test (default: the debug build of this checkout).
"""
import asyncio
import os
import pathlib

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
KBLINT = os.environ.get("KBLINT", str(REPOSITORY / ".build" / "debug" / "kblint"))


class Session:
    """A running server with the client talking to it, and the workspace it serves."""

    def __init__(self, client: LanguageClient, root: pathlib.Path):
        self.client = client
        self.root = root
        self.registrations: list[types.Registration] = []
        self.versions: dict[str, int] = {}
        self.initialized: types.InitializeResult | None = None

    def uri(self, relative: str) -> str:
        return (self.root / relative).as_uri()

    def open(self, relative: str, text: str | None = None) -> str:
        uri = self.uri(relative)
        text = (self.root / relative).read_text() if text is None else text
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="swift", version=1, text=text)))
        return uri

    def change(self, uri: str, *changes: types.TextDocumentContentChangeEvent):
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=list(changes)))

    async def diagnostics(self, uri: str, until=lambda diagnostics: True, timeout: float = 10):
        """The diagnostics published for `uri` once `until` holds for them."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            if uri in self.client.diagnostics and until(self.client.diagnostics[uri]):
                return self.client.diagnostics[uri]
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"no matching diagnostics for {uri}; last: {self.client.diagnostics.get(uri)}")
            try:
                await asyncio.wait_for(self.client.wait_for_notification("textDocument/publishDiagnostics"), remaining)
            except asyncio.TimeoutError:
                pass


def codes(diagnostics) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


@pytest.fixture
async def session_factory(tmp_path):
    """Starts `kblint server` on a workspace folder written from {relative path: text}."""
    if not os.access(KBLINT, os.X_OK):
        pytest.fail(f"{KBLINT} is not built: run 'swift build' first")
    started: list[LanguageClient] = []

    async def start(files: dict[str, str], capabilities: str = "neovim", arguments=("--debounce", "20")) -> Session:
        for relative, text in files.items():
            path = tmp_path / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        config = ClientServerConfig(server_command=[KBLINT, "server", *arguments], server_env={"PATH": "/usr/bin:/bin"})
        client = await config.start()
        started.append(client)
        session = Session(client, tmp_path)

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams):
            session.registrations.extend(params.registrations)

        session.initialized = await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities(capabilities),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="workspace")]))
        return session

    yield start
    for client in started:
        await client.shutdown_session()
