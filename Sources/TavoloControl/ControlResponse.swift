import Foundation
import TavoloProtocol
import TavoloTable

/// Where the control socket lives and how long its lines may be (PROTOCOL.md §7).
public enum ControlSocket {
    /// Longest request line accepted; a longer one closes the client.
    public static let maxLineLength = 1 << 20

    /// The default socket path of node `name`: `$XDG_RUNTIME_DIR/tavolo/NAME.sock`, or without XDG_RUNTIME_DIR
    /// `/tmp/tavolo-UID/NAME.sock`. The directory is per user: in a shared `/tmp/tavolo` another local user could
    /// create the directory first and then block or swap this user's socket (the daemon makes it 0700 and refuses
    /// one it does not own).
    public static func defaultPath(node name: String) -> String {
        let env = ProcessInfo.processInfo.environment
        if let base = env["XDG_RUNTIME_DIR"], !base.isEmpty { return "\(base)/tavolo/\(name).sock" }
        return "/tmp/tavolo-\(getuid())/\(name).sock"
    }
}

/// A failed request: a stable code and a sentence.
public struct ControlFailure: Codable, Sendable, Error, Equatable, CustomStringConvertible {
    public var code: ControlErrorCode
    public var message: String

    public init(code: ControlErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    /// A person's line: the sentence, then the code in brackets.
    public var description: String { "\(message) [\(code.rawValue)]" }

    /// The response line that carries this failure for request `id` (no newline).
    public func line(id: Int?) -> [UInt8] {
        (try? WireJSON.encode(ControlResponse<Empty>(id: id, error: self))) ?? []
    }

    static func unknownOp(_ op: String) -> ControlFailure {
        ControlFailure(
            code: .controlUnknownOp,
            message: "unknown op '\(op)'; ops: \(ControlOp.allCases.map(\.rawValue).joined(separator: ", "))")
    }
}

/// The response to one request: `ok` with a `result`, or not with an `error`.
public struct ControlResponse<Result: Codable & Sendable>: Codable, Sendable {
    public var id: Int?
    public var ok: Bool
    public var result: Result?
    public var error: ControlFailure?

    public init(id: Int?, result: Result) {
        self.id = id
        ok = true
        self.result = result
        error = nil
    }

    public init(id: Int?, error: ControlFailure) {
        self.id = id
        ok = false
        result = nil
        self.error = error
    }
}

/// An empty result.
public struct Empty: Codable, Sendable, Equatable {
    public init() {}
}

/// The `join` result: the table asked.
public struct JoinResult: Codable, Sendable {
    public var table: TableID
    public init(table: TableID) { self.table = table }
}

/// A streamed control event line: `{"event": {...}}`.
public struct EventLine: Codable, Sendable {
    public var event: TableEvent
    public init(event: TableEvent) { self.event = event }
}

/// The `datagram` result: how many peers the datagram was written to.
public struct DatagramResult: Codable, Sendable {
    public var sent: Int
    public init(sent: Int) { self.sent = sent }
}
