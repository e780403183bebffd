import TavoloProtocol

/// What a request gets back: one response line, or a first line and then a stream of lines (events).
public enum ControlReply: Sendable {
    case line([UInt8])
    case stream(first: [UInt8], rest: AsyncStream<[UInt8]>)
}

extension ControlReply {
    /// One response line carrying `result` for request `id`.
    public static func ok<R: Codable & Sendable>(_ result: R, id: Int?) -> ControlReply {
        .line((try? WireJSON.encode(ControlResponse(id: id, result: result))) ?? [])
    }

    /// One response line carrying `failure` for request `id`.
    public static func failure(_ failure: ControlFailure, id: Int?) -> ControlReply {
        .line(failure.line(id: id))
    }

    /// One response line carrying a failure for request `id`.
    public static func failure(_ code: ControlErrorCode, _ message: String, id: Int?) -> ControlReply {
        failure(ControlFailure(code: code, message: message), id: id)
    }
}

/// Answers one decoded request: the node's `NodeService.dispatch`, behind the socket and the page alike.
public typealias ControlDispatcher = @Sendable (_ id: Int?, _ request: ControlRequest) async -> ControlReply
