/// Frame and byte counts of a packet log (`tavolo log stats`). Bytes are whole frames: header and payload.
public struct PacketLogStatistics: Codable, Sendable, Equatable {
    public struct Count: Codable, Sendable, Equatable {
        public var frames = 0
        public var bytes = 0

        mutating func add(_ n: Int) {
            frames += 1
            bytes += n
        }
    }

    public var frames = 0
    public var bytes = 0
    /// By message type: handshake, heartbeat, heartbeat-ack, goodbye, application, datagram.
    public var byType: [String: Count] = [:]
    /// By the `type` (else `kind`) field of application messages and datagrams, e.g. table messages.
    public var byKind: [String: Count] = [:]
    /// By the service application messages and datagrams name (PROTOCOL.md §3.9): tables, records, chat.
    public var byService: [String: Count] = [:]
    /// reliable (TCP) and unreliable (UDP).
    public var byChannel: [String: Count] = [:]
    /// By peer name (address when no handshake names it).
    public var byPeer: [String: Count] = [:]
    /// sent and received (absent when the capture does not say).
    public var byDirection: [String: Count] = [:]
    /// Frames that do not decode.
    public var malformed = 0
    /// Packets in the file, Tavolo or not.
    public var packets = 0
    /// Problems found reading the file (see `tavolo log show`).
    public var issues = 0

    public init(_ log: PacketLog, filter: PacketLogFilter = PacketLogFilter()) {
        packets = log.packets
        issues = log.issues.count
        for f in log.frames(matching: filter) {
            let n = f.bytes.count
            frames += 1
            bytes += n
            byType[f.typeName, default: Count()].add(n)
            if let k = f.kind { byKind[k, default: Count()].add(n) }
            if let s = f.service { byService[s.description, default: Count()].add(n) }
            byChannel[f.channel, default: Count()].add(n)
            byPeer[log.peer(of: f), default: Count()].add(n)
            if let d = f.direction { byDirection[d.rawValue, default: Count()].add(n) }
            if f.frame == nil { malformed += 1 }
        }
    }
}
