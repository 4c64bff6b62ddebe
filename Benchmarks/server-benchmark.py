#!/usr/bin/env python3
"""Latency and memory of `kblint server`, driven over stdio like an editor.

    Benchmarks/server-benchmark.py [--kblint PATH] [--files N] [--edits N] [--debounce MS]

Writes a workspace of N Swift files (default 300, keyboard handling in every tenth) and a
2,000-line view controller (table code with a keyboard handler every 200 lines or so), starts the server on it, opens the big
file and then:

1. latency: 40 edits one at a time; for each, the time from the end of the debounce delay
   (the edit's arrival plus --debounce) to its diagnostics, facts loaded and warm;
2. memory: 10,000 incremental edits (typing and deleting a character), waiting for the
   diagnostics after every 50th, with the server's resident memory (VmRSS) after the first
   1,000 edits and after all of them.

Build first: `swift build -c release` (the default binary is .build/release/kblint).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

HANDLER = """
    @objc func keyboardWillShow{n}(_ notification: Notification) {{
        guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else {{ return }}
        let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
        let options = UIView.AnimationOptions(rawValue: curve)
        UIView.animate(withDuration: 0.25, delay: 0, options: options, animations: {{
            self.bottom{n}.constant = frame.height
            self.view.layoutIfNeeded()
        }})
    }}
"""


ORDINARY = """
    func configure{n}(_ cell: UITableViewCell, at indexPath: IndexPath) {{
        let item = items[indexPath.row]
        cell.textLabel?.text = "\\(item.title) (\\(indexPath.section), \\(indexPath.row))"
        cell.detailTextLabel?.text = item.subtitle.isEmpty ? nil : item.subtitle
        cell.accessoryType = item.isSelected ? .checkmark : .none
        if let image = item.image {{
            cell.imageView?.image = image
        }}
    }}
"""


def big_file(lines: int) -> str:
    """A view controller of `lines` lines: ordinary table code with a keyboard handler (and
    its findings) every 200 lines or so."""
    text = "import UIKit\n\nfinal class BigViewController: UIViewController {\n"
    n = 0
    while text.count("\n") < lines - 1:
        if n % 20 == 0:
            text += f"    private let bottom{n} = NSLayoutConstraint()\n" + HANDLER.format(n=n)
        else:
            text += ORDINARY.format(n=n)
        n += 1
    return text + "}\n"


def project_file(index: int) -> str:
    if index % 10 == 0:
        return ("import UIKit\n\nfinal class Screen%dViewController: UIViewController {\n" % index
                + "    private let bottom0 = NSLayoutConstraint()\n" + HANDLER.format(n=0) + "}\n")
    return "struct Model%d {\n    var name = \"%d\"\n    func describe() -> String { name }\n}\n" % (index, index)


class Client:
    def __init__(self, command, root):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def diagnostics(self, uri, version):
        """Waits for the diagnostics of `uri` at `version`; returns them and the arrival time."""
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri \
                    and message["params"].get("version") == version:
                return message["params"]["diagnostics"], time.perf_counter()

    def resident_kilobytes(self):
        for line in pathlib.Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kblint", default=str(ROOT / ".build" / "release" / "kblint"))
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--edits", type=int, default=10_000)
    parser.add_argument("--debounce", type=int, default=100)
    arguments = parser.parse_args()
    # The server runs in the generated workspace: a relative path to the binary must not move with it.
    if os.sep in arguments.kblint:
        arguments.kblint = os.path.abspath(arguments.kblint)
    if not os.access(arguments.kblint, os.X_OK):
        sys.exit(f"{arguments.kblint} not found: run 'swift build -c release' first")

    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        for index in range(arguments.files):
            (root / f"Model{index}.swift").write_text(project_file(index))
        text = big_file(2000)
        big = root / "BigViewController.swift"
        big.write_text(text)
        uri = big.as_uri()

        client = Client([arguments.kblint, "server", "--debounce", str(arguments.debounce)], root)
        started = time.perf_counter()
        client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "swift", "version": 1, "text": text}})
        diagnostics, arrived = client.diagnostics(uri, 1)
        print(f"workspace: {arguments.files + 1} files; {text.count(chr(10))}-line document with {len(diagnostics)} findings")
        print(f"first diagnostics (facts loaded, then the document checked): {(arrived - started) * 1000:.1f} ms")

        version = 1
        line = 6  # inside the first keyboard handler's body
        def edit(insert):
            nonlocal version
            version += 1
            position = {"line": line, "character": 8}
            end = position if insert else {"line": line, "character": 9}
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": position, "end": end}, "text": "x" if insert else ""}]})

        latencies = []
        for round_ in range(40):
            edit(round_ % 2 == 0)
            sent = time.perf_counter()
            _, arrived = client.diagnostics(uri, version)
            latencies.append((arrived - sent) * 1000 - arguments.debounce)
        latencies.sort()
        print(f"latency after the debounce ({arguments.debounce} ms), 2,000-line document, 40 edits: "
              f"median {statistics.median(latencies):.1f} ms, 90th percentile {latencies[int(len(latencies) * 0.9)]:.1f} ms, "
              f"max {latencies[-1]:.1f} ms")

        memory = {}
        for index in range(1, arguments.edits + 1):
            edit(index % 2 == 1)
            if index % 50 == 0:
                client.diagnostics(uri, version)
            if index in (1000, arguments.edits):
                memory[index] = client.resident_kilobytes()
        print(f"resident memory: {memory.get(1000, 0) / 1024:.1f} MB after 1,000 edits, "
              f"{memory[arguments.edits] / 1024:.1f} MB after {arguments.edits:,} edits")

        client.request("shutdown", None)
        client.notify("exit", None)
        client.process.wait(timeout=10)


if __name__ == "__main__":
    main()
