/// Frame and byte counters of a node (PROTOCOL.md §7, `status`). Every received datagram is counted in exactly one
/// of `datagramsReceived`, `datagramsStale`, `datagramsRejected` and `datagramsDropped` (the last only under the
/// test option that drops some on purpose).
public struct MeshStats: Sendable, Codable, Equatable {
    /// TCP frames written, header included, of every type (goodbyes too).
    public var framesSent = 0
    /// Whole TCP frames received (counted before the payload is decoded, so a frame refused as bad is counted).
    public var framesReceived = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Datagrams written to the UDP socket (one per peer a message was sent to).
    public var datagramsSent = 0
    /// Datagrams accepted and passed to the application (all four checks of PROTOCOL.md §4.6 held).
    public var datagramsReceived = 0
    /// Datagrams dropped because an equal or newer one from the same sender was already accepted (check 4).
    public var datagramsStale = 0
    /// Datagrams dropped for failing checks 1–3: oversized, malformed (a body that is not JSON included), or from
    /// a sender that is not a connected peer or not at that peer's address.
    public var datagramsRejected = 0
    /// Datagrams dropped on purpose by the test hook `datagramDropShare` (simulated loss), before any check.
    public var datagramsDropped = 0
    /// Accepted connections refused with goodbye `busy` before their handshake began (§3.4: too many from one
    /// address waiting for their handshake, or beginning one in the same minute).
    public var connectionsRefused = 0

    public init() {}
}
