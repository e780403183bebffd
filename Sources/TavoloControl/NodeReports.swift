import TavoloProtocol

/// `peers`: one peer as the node sees it.
public struct PeerSummary: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case discovered, connecting, connected, lost, incompatible
        case otherCircle = "other-circle"
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
    /// What this node makes of the peer's identity, when it is not simply the one known for its name (absent then):
    /// `identity-changed`, the name is known with another identity (not trusted as it until accepted).
    public var trust: Trust?

    public enum Trust: String, Codable, Sendable {
        case identityChanged = "identity-changed"
    }

    public init(
        id: NodeID, name: String, address: String, state: State, rttMs: Double?, reason: String?, trust: Trust? = nil
    ) {
        self.id = id
        self.name = name
        self.address = address
        self.state = state
        self.rttMs = rttMs
        self.reason = reason
        self.trust = trust
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
    /// Application messages no service of the node takes: an unassigned service byte, or a form the service does
    /// not take (PROTOCOL.md §3.9).
    public var unroutedMessages: Int
    /// Chat messages dropped: malformed, too long, too fast, or for a table the sender is not a member of (§12).
    public var chatMessagesDropped: Int

    public init(
        name: String, id: String, tcpPort: Int, udpPort: Int, protocolVersion: Int, connectedPeers: Int,
        stats: MeshStats, tableMessagesRefused: Int, unroutedMessages: Int, chatMessagesDropped: Int
    ) {
        self.unroutedMessages = unroutedMessages
        self.chatMessagesDropped = chatMessagesDropped
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
