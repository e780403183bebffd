import TavoloProtocol

/// Frame and byte counters of a node (loop-confined).
public struct MeshStats: Sendable, Codable, Equatable {
    public var framesSent = 0
    public var framesReceived = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    public var datagramsSent = 0
    public var datagramsReceived = 0
    /// Datagrams dropped because an equal or newer one from the same sender was already accepted.
    public var datagramsStale = 0
    /// Datagrams dropped as malformed, oversized, or from an unknown sender or address.
    public var datagramsRejected = 0

    public init() {}

    mutating func sent(_ type: MessageType, bytes: Int) {
        framesSent += 1
        bytesSent += bytes
    }

    mutating func received(bytes: Int) {
        framesReceived += 1
        bytesReceived += bytes
    }
}
