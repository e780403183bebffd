import TavoloProtocol

/// `peers`: one peer as the node sees it.
public struct PeerSummary: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case discovered, connecting, connected, lost, incompatible
    }

    public var id: NodeID
    public var name: String
    /// "ip:port" of the TCP connection, or of the advertised service before one exists.
    public var address: String
    public var state: State
    /// Latest heartbeat round trip, milliseconds; absent before the first.
    public var rttMs: Double?
    /// Why it was lost or refused, when it was.
    public var reason: String?

    public init(id: NodeID, name: String, address: String, state: State, rttMs: Double?, reason: String?) {
        self.id = id
        self.name = name
        self.address = address
        self.state = state
        self.rttMs = rttMs
        self.reason = reason
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
    /// Table messages dropped unread or unacted on (PROTOCOL.md §9.1).
    public var tableMessagesRefused: Int

    public init(
        name: String, id: String, tcpPort: Int, udpPort: Int, protocolVersion: Int, connectedPeers: Int,
        stats: MeshStats, tableMessagesRefused: Int
    ) {
        self.name = name
        self.id = id
        self.tcpPort = tcpPort
        self.udpPort = udpPort
        self.protocolVersion = protocolVersion
        self.connectedPeers = connectedPeers
        self.stats = stats
        self.tableMessagesRefused = tableMessagesRefused
    }
}
