/// One frame to record: what the node sent or received, when, and between which sockets.
public struct PacketRecord: Sendable, Equatable {
    public enum Direction: String, Sendable, Codable { case sent, received }
    /// TCP carries the reliable channel, UDP the unreliable one.
    public enum Transport: String, Sendable, Codable { case tcp, udp }

    /// Capture time, nanoseconds since 1970-01-01 UTC.
    public var timeNanos: UInt64
    public var direction: Direction
    public var transport: Transport
    public var local: PacketEndpoint
    public var remote: PacketEndpoint
    /// The whole frame: header and payload, exactly the bytes on the wire.
    public var bytes: [UInt8]

    public init(
        timeNanos: UInt64, direction: Direction, transport: Transport, local: PacketEndpoint, remote: PacketEndpoint,
        bytes: [UInt8]
    ) {
        self.timeNanos = timeNanos
        self.direction = direction
        self.transport = transport
        self.local = local
        self.remote = remote
        self.bytes = bytes
    }
}
