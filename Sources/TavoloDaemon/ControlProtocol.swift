import Foundation
import TavoloMesh
import TavoloProtocol

/// The control socket speaks JSON lines (PROTOCOL.md §7): one request object per line, one response per request.
public enum ControlProtocol {
    /// Longest request line accepted; a longer one closes the client.
    public static let maxLineLength = 1 << 20

    /// The default socket path of node `name`: `${XDG_RUNTIME_DIR:-/tmp}/tavolo/NAME.sock`.
    public static func defaultSocketPath(node name: String) -> String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(base)/tavolo/\(name).sock"
    }
}

/// The envelope every request has: an optional id echoed back, and the operation.
public struct ControlRequest: Codable, Sendable {
    public var id: Int?
    public var op: String

    public init(id: Int? = nil, op: String) {
        self.id = id
        self.op = op
    }
}

/// A failed request: a stable code and a sentence.
public struct ControlFailure: Codable, Sendable, Error, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
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

/// `status`: who this node is.
public struct NodeStatus: Codable, Sendable {
    public var name: String
    public var id: String
    public var tcpPort: Int
    public var udpPort: Int
    public var protocolVersion: Int
    public var connectedPeers: Int
    public var stats: MeshStats
}

/// An empty result.
public struct Empty: Codable, Sendable {
    public init() {}
}
