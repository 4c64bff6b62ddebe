"""`kblint server` driven by pytest-lsp, a client independent of kblint, with the
capabilities real editors announce."""
import asyncio
import json
import os
import subprocess

import pytest
from lsprotocol import types

from conftest import KBLINT, codes

CHAT = """import UIKit

final class ChatViewController: UIViewController {
    @objc func keyboardWillShow(_ notification: Notification) {
        let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
        let options = UIView.AnimationOptions(rawValue: curve)
        UIView.animate(withDuration: 0.25, delay: 0, options: options, animations: { self.view.layoutIfNeeded() })
    }
}
"""

PROFILE = """import UIKit

final class ProfileViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                               name: UIResponder.keyboardWillShowNotification, object: nil)
    }
    @objc func keyboardWillShow(_ notification: Notification) { scrollView.contentInset.bottom = 280 }
}
"""

PROFILE_KEYBOARD = """import UIKit

extension ProfileViewController {
    func observeHide() {
        NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                               name: UIResponder.keyboardWillHideNotification, object: nil)
    }
    @objc func keyboardWillHide(_ notification: Notification) { scrollView.contentInset.bottom = 0 }
}
"""


def apply(text: str, edits) -> str:
    """`edits` (TextEdits of one document, UTF-16 positions) applied to `text`."""
    lines = text.split("\n")

    def offset(position):
        before = "\n".join(lines[:position.line]) + ("\n" if position.line else "")
        line = lines[position.line] if position.line < len(lines) else ""
        units = line.encode("utf-16-le")[: position.character * 2].decode("utf-16-le")
        return len(before) + len(units)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
        lines = text.split("\n")
    return text


def edits_of(action: types.CodeAction, uri: str):
    if action.edit.document_changes:
        return [e for change in action.edit.document_changes if change.text_document.uri == uri for e in change.edits]
    return action.edit.changes[uri]


async def code_actions(session, uri, range_, diagnostics=(), only=None):
    return await session.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=range_,
        context=types.CodeActionContext(diagnostics=list(diagnostics), only=only)))


def cli_findings(root, relative):
    """What `kblint --reporter json` run in the folder reports for one file."""
    result = subprocess.run([KBLINT, "--reporter", "json", "--quiet"], cwd=root, capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return sorted((d["rule"], d["line"] - 1, d["message"]) for d in json.loads(result.stdout)["diagnostics"] if d["path"] == relative)


async def test_open_publishes_the_findings_of_the_command_line(session_factory):
    session = await session_factory(
        {"App/Chat.swift": CHAT, "App/Profile.swift": PROFILE, "App/Profile+Keyboard.swift": PROFILE_KEYBOARD},
        capabilities="visual-studio-code")
    for relative in ["App/Chat.swift", "App/Profile.swift"]:
        uri = session.open(relative)
        diagnostics = await session.diagnostics(uri)
        shown = sorted((str(d.code), d.range.start.line, d.message.split("\nFix: ")[0]) for d in diagnostics)
        # Whole-project facts: the hide handler in the extension file counts.
        assert shown == cli_findings(session.root, relative)
    chat = session.client.diagnostics[session.uri("App/Chat.swift")]
    unshifted = next(d for d in chat if d.code == "keyboard_curve_unshifted")
    assert unshifted.source == "kblint"
    assert unshifted.severity == types.DiagnosticSeverity.Error
    assert unshifted.code_description.href.endswith("Rules.md#keyboard_curve_unshifted")
    assert "\nFix: " in unshifted.message
    assert (unshifted.range.start.line, unshifted.range.start.character) == (5, 56)
    assert session.client.diagnostics[session.uri("App/Profile.swift")] == ()
    # The configuration and source files are watched through dynamic registration.
    watchers = [w["globPattern"] for r in session.registrations if r.method == "workspace/didChangeWatchedFiles" for w in r.register_options["watchers"]]
    assert "**/.kblint.yml" in watchers and "**/*.swift" in watchers


@pytest.mark.parametrize("client", ["neovim", "visual-studio-code"])  # UTF-8 and UTF-16 positions
async def test_edits_update_the_diagnostics_full_and_incremental(session_factory, client):
    session = await session_factory({"Chat.swift": CHAT}, capabilities=client)
    uri = session.open("Chat.swift")
    assert "keyboard_curve_unshifted" in codes(await session.diagnostics(uri))
    # Incremental: shift the curve on line 6 (`curve` → `curve << 16`).
    session.change(uri, types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=5, character=61), end=types.Position(line=5, character=61)),
        text=" << 16"))
    diagnostics = await session.diagnostics(uri, lambda ds: "keyboard_curve_unshifted" not in codes(ds))
    assert codes(diagnostics) == ["keyboard_duration_hardcoded"]
    # Full text, with characters outside the Basic Multilingual Plane before the finding on its
    # line: columns count the negotiated code units (UTF-16: two per 🎹; UTF-8: four).
    session.change(uri, types.TextDocumentContentChangeWholeDocument(
        text=CHAT.replace("let options = ", "let /* 🎹🎹 */ options = ")))
    diagnostics = await session.diagnostics(uri, lambda ds: "keyboard_curve_unshifted" in codes(ds))
    unshifted = next(d for d in diagnostics if d.code == "keyboard_curve_unshifted")
    encoding = session.initialized.capabilities.position_encoding or "utf-16"
    width = len("/* 🎹🎹 */ ".encode("utf-16-le")) // 2 if encoding == "utf-16" else len("/* 🎹🎹 */ ".encode())
    assert (unshifted.range.start.line, unshifted.range.start.character) == (5, 56 + width)


async def test_quick_fix_applies_and_the_diagnostic_goes(session_factory):
    session = await session_factory({"Chat.swift": CHAT})
    uri = session.open("Chat.swift")
    diagnostics = await session.diagnostics(uri)
    unshifted = next(d for d in diagnostics if d.code == "keyboard_curve_unshifted")
    actions = await code_actions(session, uri, unshifted.range, [unshifted])
    titles = [a.title for a in actions]
    assert "Disable keyboard_curve_unshifted for this line" in titles
    fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.is_preferred)
    assert fix.title.startswith("kblint (keyboard_curve_unshifted): ")
    fixed = apply(CHAT, edits_of(fix, uri))
    assert "rawValue: curve << 16)" in fixed
    session.change(uri, types.TextDocumentContentChangeWholeDocument(text=fixed))
    diagnostics = await session.diagnostics(uri, lambda ds: "keyboard_curve_unshifted" not in codes(ds))
    assert codes(diagnostics) == ["keyboard_duration_hardcoded"]

    # Disable for this line: the comment goes above the finding, indented like it.
    hardcoded = diagnostics[0]
    actions = await code_actions(session, uri, hardcoded.range, [hardcoded])
    disable = next(a for a in actions if a.title == "Disable keyboard_duration_hardcoded for this line")
    silenced = apply(fixed, edits_of(disable, uri))
    assert "        // kblint:disable:next keyboard_duration_hardcoded\n        UIView.animate" in silenced
    session.change(uri, types.TextDocumentContentChangeWholeDocument(text=silenced))
    assert await session.diagnostics(uri, lambda ds: not ds) == ()


async def test_fix_all_applies_the_safe_fixes(session_factory):
    session = await session_factory({"Chat.swift": CHAT}, capabilities="visual-studio-code")
    uri = session.open("Chat.swift")
    await session.diagnostics(uri, lambda ds: len(ds) == 2)
    start = types.Position(line=0, character=0)
    actions = await code_actions(session, uri, types.Range(start=start, end=start), only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.kblint"]
    fixed = apply(CHAT, edits_of(actions[0], uri))
    assert fixed == CHAT.replace("rawValue: curve)", "rawValue: curve << 16)")


async def test_hover_shows_the_rule_documentation(session_factory):
    session = await session_factory({"Chat.swift": CHAT})
    uri = session.open("Chat.swift")
    diagnostics = await session.diagnostics(uri)
    unshifted = next(d for d in diagnostics if d.code == "keyboard_curve_unshifted")
    hover = await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=unshifted.range.start))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "keyboard_curve_unshifted" in hover.contents.value
    assert "**Why.**" in hover.contents.value and "**Fix.**" in hover.contents.value
    nothing = await session.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    assert nothing is None


async def test_editing_one_file_updates_the_open_files_that_depend_on_it(session_factory):
    session = await session_factory({"Profile.swift": PROFILE, "Profile+Keyboard.swift": PROFILE_KEYBOARD})
    profile = session.open("Profile.swift")
    extension = session.open("Profile+Keyboard.swift")
    assert await session.diagnostics(profile) == ()
    await session.diagnostics(extension)
    # Without the hide observer in the extension, the show handler is never undone.
    session.change(extension, types.TextDocumentContentChangeWholeDocument(text="import UIKit\n"))
    diagnostics = await session.diagnostics(profile, lambda ds: bool(ds))
    assert codes(diagnostics) == ["keyboard_hide_not_handled"]
    assert diagnostics[0].related_information[0].location.uri == profile
    # Closing the extension brings back its text on disk.
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=extension)))
    assert await session.diagnostics(extension, lambda ds: not ds) == ()
    assert await session.diagnostics(profile, lambda ds: not ds) == ()


async def test_configuration_changes_relint_and_broken_configuration_is_a_diagnostic(session_factory):
    session = await session_factory({"Chat.swift": CHAT})
    uri = session.open("Chat.swift")
    await session.diagnostics(uri, lambda ds: len(ds) == 2)
    config = session.root / ".kblint.yml"
    config.write_text("disabled_rules:\n  - keyboard_duration_hardcoded\n")
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]))
    assert codes(await session.diagnostics(uri, lambda ds: len(ds) == 1)) == ["keyboard_curve_unshifted"]

    config.write_text("disabled_rules: [keyboard_duration_hardcoded\nnot_a_key: 1\n")
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
    broken = await session.diagnostics(config.as_uri(), lambda ds: bool(ds))
    assert broken[0].severity == types.DiagnosticSeverity.Error
    assert broken[0].message.startswith("kblint cannot use this configuration: ")
    assert await session.diagnostics(uri, lambda ds: not ds) == ()

    config.write_text("rules:\n  keyboard_curve_unshifted:\n    severity: warning\n")
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
    assert await session.diagnostics(config.as_uri(), lambda ds: not ds) == ()
    diagnostics = await session.diagnostics(uri, lambda ds: len(ds) == 2)
    assert next(d for d in diagnostics if d.code == "keyboard_curve_unshifted").severity == types.DiagnosticSeverity.Warning


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_messages(data: bytes):
    messages = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        messages.append(json.loads(rest[:length]))
        data = rest[length:]
    return messages


def test_malformed_input_gets_protocol_errors_and_the_server_keeps_serving(tmp_path):
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": tmp_path.as_uri()}}).encode()
    stream = b"".join([
        frame(b'{"jsonrpc": "2.0", "id": 0, "method": "textDocument/hover", "params": {}}'),  # before initialize
        frame(initialize),
        frame(b"{not json"),
        frame(b"[1, 2]"),
        frame(b'{"jsonrpc": "2.0", "id": 2, "method": "kblint/unknown"}'),
        frame(b'{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": 7}}'),
        b"Content-Type: nothing\r\n\r\n",  # a header without Content-Length
        frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}}'),  # a broken notification: logged
        frame(b'{"jsonrpc": "2.0", "id": 4, "method": "shutdown"}'),
        frame(b'{"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {}}'),  # after shutdown
        frame(b'{"jsonrpc": "2.0", "method": "exit"}'),
    ])
    result = subprocess.run([KBLINT, "server"], input=stream, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    replies = {m.get("id"): m for m in read_messages(result.stdout) if "id" in m}
    assert replies[0]["error"]["code"] == -32002
    assert replies[1]["result"]["capabilities"]["textDocumentSync"]["change"] == 2
    errors = [m["error"]["code"] for m in read_messages(result.stdout) if m.get("id") is None and "error" in m]
    assert errors == [-32700, -32600]
    assert replies[2]["error"]["code"] == -32601
    assert replies[3]["error"]["code"] == -32602
    assert replies[4]["result"] is None
    assert replies[5]["error"]["code"] == -32600
    assert b"Content-Length" in result.stderr  # the skipped header is logged, on stderr


def test_exit_without_shutdown_and_end_of_input(tmp_path):
    exit_only = frame(b'{"jsonrpc": "2.0", "method": "exit"}')
    assert subprocess.run([KBLINT, "server"], input=exit_only, capture_output=True, timeout=30).returncode == 1
    # The client going away (end of input) ends the server too.
    ended = subprocess.run([KBLINT, "server"], input=b"", capture_output=True, timeout=30)
    assert ended.returncode == 1 and ended.stdout == b""


async def test_shutdown_ends_the_server(session_factory):
    session = await session_factory({"Chat.swift": CHAT})
    session.open("Chat.swift")
    await session.client.shutdown_async(None)
    session.client.exit(None)
    await asyncio.wait_for(session.client._server.wait(), 10)
    assert session.client._server.returncode == 0
    session.client.capabilities = None  # already shut down
