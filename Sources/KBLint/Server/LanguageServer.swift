import Dispatch
import Lexer
import Rules

/// `kblint server`: the Language Server Protocol 3.17 over a pair of file descriptors.
///
/// One thread reads and parses messages into a `ServerInbox`; the loop in `run()` handles
/// them in order and checks documents when their debounce delay has passed. Before checking,
/// the loop handles every message already queued, so it checks the newest text; a check
/// whose document changed meanwhile is dropped unpublished (it is stale), and the change
/// schedules the next one. Nothing but framed messages is written to the output.
final class LanguageServer {
    struct Settings {
        /// How long a document must stay unchanged before it is checked.
        var debounce: Duration = .milliseconds(100)
    }

    /// An open document and what the server knows about it.
    struct OpenDocument {
        var document: TextDocument
        let workspace: WorkspaceLinter
        /// The text the published findings belong to, and the findings.
        var checked: SourceFile?
        var findings: [Finding] = []
        /// When the document is due for a check (nil: its findings are current).
        var due: ContinuousClock.Instant?
    }

    private enum Phase { case uninitialized, running, shuttingDown }

    let tool: CommandLineTool
    let options: LintOptions
    let settings: Settings
    private let input: Int32
    let writer: MessageWriter
    private let log: any OutputSink
    private let inbox = ServerInbox()
    private let clock = ContinuousClock()

    private var phase = Phase.uninitialized
    private var exitCode: Int32?
    var encoding = PositionEncoding.utf16
    var capabilities: JSONValue = .null
    var workspaces: [WorkspaceLinter] = []
    var documents: [String: OpenDocument] = [:]
    /// Configuration files with published errors, by URI.
    private var configurationDiagnostics: Set<String> = []
    private var nextRequestID = 1
    let metadata: [String: RuleMetadata]

    init(tool: CommandLineTool, options: LintOptions, settings: Settings, input: Int32, output: any OutputSink, log: any OutputSink) {
        self.tool = tool
        self.options = options
        self.settings = settings
        self.input = input
        writer = MessageWriter(sink: output)
        self.log = log
        metadata = Dictionary(tool.allMetadata.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Serves until `exit` or the end of the input. The exit code is 0 after `shutdown`, else
    /// 1 (LSP's rule: a client that exits without shutting down had a problem).
    func run() -> Int32 {
        let inbox = self.inbox
        let input = self.input
        DispatchQueue(label: "kblint.server.reader").async {
            var reader = MessageReader(descriptor: input)
            while true {
                switch reader.next() {
                case .message(let body): inbox.post(.message(JSONRPC.message(from: body)))
                case .malformedHeader(let reason): inbox.post(.malformedHeader(reason))
                case .endOfInput:
                    inbox.post(.endOfInput)
                    return
                }
            }
        }
        while exitCode == nil {
            let due = documents.values.compactMap(\.due).min()
            if let item = inbox.take(timeout: due.map { max(.zero, $0 - clock.now) }) {
                handle(item)
                if inbox.isEmpty { checkDueDocuments() }
            } else {
                checkDueDocuments()
            }
        }
        return exitCode!
    }

    func logLine(_ text: String) {
        log.write(text + "\n")
    }

    // MARK: - Dispatch

    private func handle(_ item: InboundItem) {
        switch item {
        case .endOfInput:
            exitCode = phase == .shuttingDown ? 0 : 1
        case .malformedHeader(let reason):
            logLine("kblint server: skipped a malformed message header: \(reason)")
        case .message(.failure(let unusable)):
            logLine("kblint server: \(unusable.failure.message)")
            writer.send(JSONRPC.errorResponse(id: unusable.id, unusable.failure))
        case .message(.success(.response)):
            break  // the client's answer to client/registerCapability: nothing to do
        case .message(.success(.notification(let method, let params))):
            handleNotification(method, params)
        case .message(.success(.request(let id, let method, let params))):
            if inbox.isCancelled(id) {
                writer.send(JSONRPC.errorResponse(id: id, JSONRPC.Failure(.requestCancelled, "\(method) was cancelled")))
                return
            }
            do {
                writer.send(JSONRPC.response(id: id, result: try handleRequest(method, params)))
            } catch {
                writer.send(JSONRPC.errorResponse(id: id, error))
            }
        }
    }

    private func handleRequest(_ method: String, _ params: JSONValue) throws(JSONRPC.Failure) -> JSONValue {
        switch phase {
        case .uninitialized where method != "initialize":
            throw JSONRPC.Failure(.serverNotInitialized, "the server is not initialized: send 'initialize' first")
        case .running where method == "initialize":
            throw JSONRPC.Failure(.invalidRequest, "the server is already initialized")
        case .shuttingDown:
            throw JSONRPC.Failure(.invalidRequest, "the server is shutting down: only 'exit' is accepted")
        default: break
        }
        switch method {
        case "initialize": return initialize(params)
        case "shutdown":
            phase = .shuttingDown
            return .null
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/hover": return try hover(params)
        default: throw JSONRPC.Failure(.methodNotFound, "kblint does not handle '\(method)'")
        }
    }

    private func handleNotification(_ method: String, _ params: JSONValue) {
        if method == "exit" {
            exitCode = phase == .shuttingDown ? 0 : 1
            return
        }
        if method == "$/cancelRequest", let id = params[member: "id"].flatMap(JSONRPC.ID.init) {
            // The request was answered before this arrived.
            inbox.forgetCancellation(of: id)
            return
        }
        // Before `initialize`, notifications are dropped (LSP 3.17); so they are after `shutdown`.
        guard phase == .running else { return }
        do throws(JSONRPC.Failure) {
            switch method {
            case "initialized": initialized()
            case "textDocument/didOpen": try didOpen(params)
            case "textDocument/didChange": try didChange(params)
            case "textDocument/didSave": try didSave(params)
            case "textDocument/didClose": try didClose(params)
            case "workspace/didChangeWatchedFiles": try didChangeWatchedFiles(params)
            case "workspace/didChangeWorkspaceFolders": try didChangeWorkspaceFolders(params)
            default: break  // other notifications ($/setTrace, …) need no answer
            }
        } catch {
            // Notifications get no response: the problem is logged.
            logLine("kblint server: \(method): \(error.message)")
        }
    }

    // MARK: - Lifecycle

    private func initialize(_ params: JSONValue) -> JSONValue {
        phase = .running
        capabilities = params[member: "capabilities"] ?? .null
        let offered = capabilities.at("general", "positionEncodings")?.arrayValue?.compactMap(\.stringValue) ?? []
        // The client lists them in its order of preference; UTF-16 is the default every client takes.
        encoding = offered.lazy.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
        var roots: [String] = []
        if let folders = params[member: "workspaceFolders"]?.arrayValue {
            roots = folders.compactMap { $0[member: "uri"]?.stringValue.flatMap(FileURI.path(of:)) }
        } else if let uri = params[member: "rootUri"]?.stringValue, let path = FileURI.path(of: uri) {
            roots = [path]
        } else if let path = params[member: "rootPath"]?.stringValue {
            roots = [path]
        }
        for root in roots { addWorkspace(root) }
        let codeActionKinds: [JSONValue] = [.string(Self.quickFixKind), .string(Self.fixAllKind)]
        return .object([
            ("capabilities", .object([
                ("positionEncoding", .string(encoding.rawValue)),
                ("textDocumentSync", .object([
                    ("openClose", true),
                    ("change", 2),  // incremental
                    ("save", .object([("includeText", false)])),
                ])),
                ("codeActionProvider", .object([("codeActionKinds", .array(codeActionKinds))])),
                ("hoverProvider", true),
                ("workspace", .object([
                    ("workspaceFolders", .object([("supported", true), ("changeNotifications", true)])),
                ])),
            ])),
            ("serverInfo", .object([("name", "kblint"), ("version", .string(ProjectInfo.version))])),
        ])
    }

    /// Watches configuration and source files where the client can register watchers, and
    /// reads every workspace's facts so that the first document opens to current findings.
    private func initialized() {
        if capabilities.at("workspace", "didChangeWatchedFiles", "dynamicRegistration")?.boolValue == true {
            let watchers: [JSONValue] = Self.watchedPatterns.map { .object([("globPattern", .string($0))]) }
            let registration = JSONValue.object([
                ("id", "kblint-watched-files"), ("method", "workspace/didChangeWatchedFiles"),
                ("registerOptions", .object([("watchers", .array(watchers))])),
            ])
            writer.send(JSONRPC.request(
                id: .number(nextRequestID), "client/registerCapability",
                .object([("registrations", .array([registration]))])))
            nextRequestID += 1
        } else {
            logLine("kblint server: the client cannot watch files for the server; changes to .kblint.yml apply when it sends workspace/didChangeWatchedFiles")
        }
        for workspace in workspaces { workspace.loadIfNeeded() }
        refreshConfigurationDiagnostics()
    }

    /// Configuration files, project files the deployment target is read from, and sources.
    static let watchedPatterns = ["**/.kblint.yml", "**/*.swift", "**/Podfile", "**/*.pbxproj"]

    private func addWorkspace(_ root: String) {
        let root = LexicalPath.absolute(root, relativeTo: "/")
        guard !workspaces.contains(where: { $0.root == root }) else { return }
        workspaces.append(WorkspaceLinter(root: root, tool: tool, options: options, discoversFiles: true, log: logLine))
    }

    /// The workspace a file belongs to: the innermost folder holding it, else one for the
    /// file's own folder that knows no other files.
    private func workspace(for path: String) -> WorkspaceLinter {
        if let folder = workspaces.filter({ $0.contains(path) }).max(by: { $0.root.count < $1.root.count }) { return folder }
        let folder = LexicalPath.parent(of: path) ?? "/"
        return WorkspaceLinter(root: folder, tool: tool, options: options, discoversFiles: false, log: logLine)
    }

    // MARK: - Documents

    private func documentURI(_ params: JSONValue) throws(JSONRPC.Failure) -> String {
        try params.required("textDocument").string("uri")
    }

    private func didOpen(_ params: JSONValue) throws(JSONRPC.Failure) {
        let item = try params.required("textDocument")
        let uri = try item.string("uri")
        guard let path = FileURI.path(of: uri), item[member: "languageId"]?.stringValue == "swift" || path.hasFileNameSuffix(".swift") else {
            return  // not a Swift file on disk: nothing kblint checks
        }
        let workspace = documents[uri]?.workspace ?? workspace(for: path)
        let document = TextDocument(
            uri: uri, path: workspace.displayPath(path), version: try item.integer("version"), text: try item.string("text"))
        documents[uri] = OpenDocument(document: document, workspace: workspace, due: clock.now)
    }

    private func didChange(_ params: JSONValue) throws(JSONRPC.Failure) {
        let uri = try documentURI(params)
        guard var open = documents[uri] else { return }
        let version = try params.required("textDocument").integer("version")
        try open.document.apply(try params.array("contentChanges"), version: version, encoding: encoding)
        open.due = clock.now + settings.debounce
        documents[uri] = open
    }

    private func didSave(_ params: JSONValue) throws(JSONRPC.Failure) {
        let uri = try documentURI(params)
        guard var open = documents[uri] else { return }
        if let text = params[member: "text"]?.stringValue { open.document.replaceText(text) }
        open.due = clock.now
        documents[uri] = open
    }

    private func didClose(_ params: JSONValue) throws(JSONRPC.Failure) {
        let uri = try documentURI(params)
        guard let open = documents.removeValue(forKey: uri) else { return }
        publish(uri, version: nil, diagnostics: [])
        open.workspace.documentClosed(open.document)
        recheckOpenDocuments(in: open.workspace, after: settings.debounce)
    }

    /// Checks every document whose delay has passed.
    private func checkDueDocuments() {
        let now = clock.now
        for uri in documents.keys.sorted() where (documents[uri]?.due).map({ $0 <= now }) ?? false {
            check(uri)
        }
    }

    /// Checks a document now and publishes its findings, unless a change to it is already
    /// queued: that change's check will publish (this one is stale).
    func check(_ uri: String) {
        guard var open = documents[uri] else { return }
        let openFiles = Dictionary(documents.values.map { ($0.document.file.path, $0.document.file) }, uniquingKeysWith: { first, _ in first })
        switch open.workspace.lint(open.document, openDocuments: openFiles) {
        case .findings(let findings):
            open.findings = findings
        case .excluded:
            open.findings = []
        case .configurationError:
            open.findings = []
            refreshConfigurationDiagnostics()
        }
        open.checked = open.document.file
        open.due = nil
        documents[uri] = open
        guard !inbox.hasPendingChange(of: uri) else { return }
        publish(uri, version: open.document.version, diagnostics: open.findings.map { diagnostic(for: $0, in: open) })
        if open.workspace.updateFacts(of: open.document) {
            recheckOpenDocuments(in: open.workspace, after: settings.debounce, except: uri)
        }
    }

    /// Schedules a check of the open documents of `workspace` whose findings are current:
    /// facts they may depend on changed. (Documents already due keep their time.)
    private func recheckOpenDocuments(in workspace: WorkspaceLinter, after delay: Duration, except checked: String? = nil) {
        let due = clock.now + delay
        for (uri, open) in documents where uri != checked && open.workspace === workspace && open.due == nil {
            documents[uri]?.due = due
        }
    }

    func publish(_ uri: String, version: Int?, diagnostics: [JSONValue]) {
        var params: [(key: String, value: JSONValue)] = [("uri", .string(uri))]
        if let version { params.append(("version", .int(version))) }
        params.append(("diagnostics", .array(diagnostics)))
        writer.send(JSONRPC.notification("textDocument/publishDiagnostics", .object(params)))
    }

    // MARK: - Workspace changes

    private func didChangeWatchedFiles(_ params: JSONValue) throws(JSONRPC.Failure) {
        var configurationChanged = false
        var touched: [WorkspaceLinter] = []
        for change in try params.array("changes") {
            guard let path = FileURI.path(of: try change.string("uri")) else { continue }
            let name = LexicalPath.lastComponent(of: path)
            if name == Configuration.fileName || name == "Package.swift" || name == "Podfile" || name.hasSuffix(".pbxproj") {
                // Which files count, their rules and deployment targets may all change.
                configurationChanged = true
            } else if path.hasFileNameSuffix(".swift") {
                touched += workspaces.filter { $0.contains(path) && $0.fileChangedOnDisk(path) }
            }
        }
        if configurationChanged {
            let inUse = workspaces + documents.values.map(\.workspace).filter { open in !workspaces.contains { $0 === open } }
            for workspace in inUse { workspace.reload() }
            for workspace in workspaces { workspace.loadIfNeeded() }
            refreshConfigurationDiagnostics()
            for uri in documents.keys { documents[uri]?.due = clock.now }
        } else {
            for workspace in touched { recheckOpenDocuments(in: workspace, after: .zero) }
        }
    }

    private func didChangeWorkspaceFolders(_ params: JSONValue) throws(JSONRPC.Failure) {
        let event = try params.required("event")
        let removed = try event.array("removed").compactMap { $0[member: "uri"]?.stringValue.flatMap(FileURI.path(of:)) }
        workspaces.removeAll { removed.map { LexicalPath.absolute($0, relativeTo: "/") }.contains($0.root) }
        for added in try event.array("added") {
            if let path = added[member: "uri"]?.stringValue.flatMap(FileURI.path(of:)) { addWorkspace(path) }
        }
        for workspace in workspaces { workspace.loadIfNeeded() }
        refreshConfigurationDiagnostics()
    }

    /// Publishes the errors of the configuration files that govern the workspaces and the open
    /// documents, and clears those of files that are fine again.
    private func refreshConfigurationDiagnostics() {
        var errors: [String: (path: String, errors: [ConfigurationError])] = [:]
        var workspacesInUse = workspaces.map { ($0, [$0.root]) }
        for open in documents.values where !workspaces.contains(where: { $0 === open.workspace }) {
            workspacesInUse.append((open.workspace, []))
        }
        for (workspace, roots) in workspacesInUse {
            let directories = roots + documents.values.filter { $0.workspace === workspace }
                .compactMap { LexicalPath.parent(of: workspace.absolutePath($0.document.file.path)) }
            for error in workspace.configurationErrors(forDirectories: directories) {
                guard let path = error.path.map(workspace.absolutePath) else { continue }
                let uri = FileURI.uri(of: path)
                if !(errors[uri]?.errors.contains(error) ?? false) { errors[uri, default: (path, [])].errors.append(error) }
            }
        }
        for (uri, file) in errors {
            publish(uri, version: nil, diagnostics: file.errors.map { configurationDiagnostic($0, in: file.path) })
        }
        for uri in configurationDiagnostics where errors[uri] == nil {
            publish(uri, version: nil, diagnostics: [])
        }
        configurationDiagnostics = Set(errors.keys)
    }
}
