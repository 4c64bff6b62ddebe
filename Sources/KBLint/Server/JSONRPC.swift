/// JSON-RPC 2.0 as the Language Server Protocol uses it: requests (with an id), notifications
/// (without), and responses to the server's own requests.
enum JSONRPC {
    /// A request id: a number or a string (LSP allows both).
    enum ID: Hashable, Sendable {
        case number(Int)
        case string(String)

        init?(_ value: JSONValue) {
            switch value {
            case .int(let number): self = .number(number)
            case .string(let text): self = .string(text)
            default: return nil
            }
        }

        var json: JSONValue {
            switch self {
            case .number(let number): .int(number)
            case .string(let text): .string(text)
            }
        }
    }

    /// The error codes of JSON-RPC and LSP 3.17.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case serverNotInitialized = -32002
        case requestCancelled = -32800
        case contentModified = -32801
    }

    struct Failure: Error {
        let code: ErrorCode
        let message: String
        init(_ code: ErrorCode, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    enum Message {
        case request(id: ID, method: String, params: JSONValue)
        case notification(method: String, params: JSONValue)
        /// A reply to a request the server sent (`client/registerCapability`).
        case response(id: ID)
    }

    /// The message a frame's body holds. A failure carries the id when one could be read, so
    /// the error response can name the request.
    struct UnusableMessage: Error {
        let id: ID?
        let failure: Failure
        init(_ id: ID?, _ failure: Failure) {
            self.id = id
            self.failure = failure
        }
    }

    static func message(from body: [UInt8]) -> Result<Message, UnusableMessage> {
        let value: JSONValue
        do {
            value = try JSONReader.value(of: body)
        } catch {
            return .failure(UnusableMessage(nil, Failure(.parseError, "the message is not JSON: \(error.description)")))
        }
        guard case .object = value else {
            return .failure(UnusableMessage(nil, Failure(.invalidRequest, "a message must be a JSON object")))
        }
        let rawID = value[member: "id"]
        let id = rawID.flatMap(ID.init)
        if let rawID, id == nil, rawID != .null {
            return .failure(UnusableMessage(nil, Failure(.invalidRequest, "'id' must be a number or a string")))
        }
        guard case .string("2.0") = value[member: "jsonrpc"] else {
            return .failure(UnusableMessage(id, Failure(.invalidRequest, "'jsonrpc' must be \"2.0\"")))
        }
        guard let methodValue = value[member: "method"] else {
            if let id, value[member: "result"] != nil || value[member: "error"] != nil { return .success(.response(id: id)) }
            return .failure(UnusableMessage(id, Failure(.invalidRequest, "a message needs a 'method' (or is a response with 'result' or 'error')")))
        }
        guard case .string(let method) = methodValue else {
            return .failure(UnusableMessage(id, Failure(.invalidRequest, "'method' must be a string")))
        }
        let params = value[member: "params"] ?? .null
        switch params {
        case .object, .array, .null: break
        default: return .failure(UnusableMessage(id, Failure(.invalidRequest, "'params' must be an object or an array")))
        }
        if let id { return .success(.request(id: id, method: method, params: params)) }
        return .success(.notification(method: method, params: params))
    }

    static func response(id: ID, result: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", id.json), ("result", result)])
    }

    static func errorResponse(id: ID?, _ failure: Failure) -> JSONValue {
        .object([
            ("jsonrpc", "2.0"), ("id", id?.json ?? .null),
            ("error", .object([("code", .int(failure.code.rawValue)), ("message", .string(failure.message))])),
        ])
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)])
    }

    static func request(id: ID, _ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", id.json), ("method", .string(method)), ("params", params)])
    }
}

/// Typed access to the members of LSP parameters; a wrong shape is the client's error
/// (`InvalidParams`), never a crash.
extension JSONValue {
    func required(_ key: String) throws(JSONRPC.Failure) -> JSONValue {
        guard let value = self[member: key], value != .null else {
            throw JSONRPC.Failure(.invalidParams, "missing '\(key)'")
        }
        return value
    }

    func string(_ key: String) throws(JSONRPC.Failure) -> String {
        guard case .string(let text) = try required(key) else {
            throw JSONRPC.Failure(.invalidParams, "'\(key)' must be a string")
        }
        return text
    }

    func integer(_ key: String) throws(JSONRPC.Failure) -> Int {
        switch try required(key) {
        case .int(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: throw JSONRPC.Failure(.invalidParams, "'\(key)' must be a whole number")
        }
    }

    func array(_ key: String) throws(JSONRPC.Failure) -> [JSONValue] {
        guard case .array(let elements) = try required(key) else {
            throw JSONRPC.Failure(.invalidParams, "'\(key)' must be an array")
        }
        return elements
    }

    /// The value at a path of object members, nil when any step is missing.
    func at(_ keys: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in keys { value = value?[member: key] }
        return value
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
