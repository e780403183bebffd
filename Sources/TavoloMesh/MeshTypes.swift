import Foundation
import TavoloProtocol

/// Tunables of a mesh node.
public struct MeshConfiguration: Sendable {
    /// Node name: the DNS-SD instance name, unique per host.
    public var name: String
    /// TCP and UDP port; 0 picks a free one (the same number for both when possible).
    public var port: Int = 0
    /// Address to listen on.
    public var host: String = "0.0.0.0"
    public var heartbeatInterval: Duration = .seconds(1)
    /// A peer silent for this long is lost.
    public var heartbeatTimeout: Duration = .seconds(5)
    /// A connection that has not completed its handshake by then is closed.
    public var handshakeTimeout: Duration = .seconds(5)
    /// Bytes queued for one peer beyond which it is dropped as a slow reader.
    public var maxQueuedBytes: Int = 8 << 20
    /// Accepted connections from one IP address that may wait for their handshake at the same time.
    public var maxPendingPerAddress: Int = 32
    /// Bytes that all connections waiting for their handshake may have sent, together; the oldest is cut first.
    public var maxPendingBytes: Int = 1 << 20
    /// Lost peers (no longer advertised) remembered at most, and for how long.
    public var maxLostPeers: Int = 256
    public var lostPeerRetention: Duration = .seconds(3_600)
    /// Header version sent in every frame; only tests of version mismatch change it.
    public var wireVersion: UInt8 = ProtocolVersion.current
    public var capabilities: [String] = ["datagrams", "tables"]
    /// Sees every frame sent and received (the packet log); nil records nothing.
    public var recorder: (any FrameRecorder)?

    public init(name: String) { self.name = name }
}

/// Where a peer stands from this node's point of view.
public enum PeerState: String, Sendable, Codable {
    /// Seen in DNS-SD, no connection yet (the other node dials, or a dial is scheduled).
    case discovered
    /// A TCP connection is being made or its handshake is under way.
    case connecting
    /// Handshake done; messages flow.
    case connected
    /// The connection ended (timeout, goodbye, error); reconnects when it reappears.
    case lost
    /// It speaks another protocol version: never connected.
    case incompatible
}

/// What an application can see of a peer.
public struct PeerInfo: Sendable, Codable, Equatable {
    public var id: NodeID
    public var name: String
    /// "ip:port" of the TCP connection, or of the advertised service before one exists.
    public var address: String
    public var state: PeerState
    /// Latest heartbeat round trip, milliseconds.
    public var rttMs: Double?
    /// Why it was lost or refused, when it was.
    public var reason: String?

    private enum CodingKeys: String, CodingKey { case id, name, address, state, rttMs, reason }

    /// Written out rather than synthesised because PROTOCOL.md §7 promises it: a member without a value is absent,
    /// never `null`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(address, forKey: .address)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(rttMs, forKey: .rttMs)
        try c.encodeIfPresent(reason, forKey: .reason)
    }
}

/// A message received from a peer.
public struct MeshMessage: Sendable {
    public var from: NodeID
    public var channel: MeshChannel
    /// The JSON bytes the sender's application encoded.
    public var body: [UInt8]

    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try WireJSON.decode(type, body) }
}

/// Reliable = TCP, ordered, once; unreliable = one UDP datagram, unordered, never retried, stale dropped.
public enum MeshChannel: String, Sendable, Codable {
    case reliable
    case unreliable
}

/// What a mesh node reports to its application.
public enum MeshEvent: Sendable {
    case peerDiscovered(PeerInfo)
    case peerConnecting(PeerInfo)
    case peerConnected(PeerInfo)
    case peerLost(PeerInfo, reason: String)
    case peerIncompatible(PeerInfo, reason: String)
    case message(MeshMessage)
}

/// A service seen through DNS-SD, as the mesh needs it.
public struct DiscoveredNode: Sendable, Equatable {
    public var name: String
    public var address: String
    public var port: Int
    public var txt: [String: String]

    public init(name: String, address: String, port: Int, txt: [String: String]) {
        self.name = name
        self.address = address
        self.port = port
        self.txt = txt
    }
}

/// Errors of the mesh API.
public enum MeshError: Error, CustomStringConvertible, Equatable {
    /// No connected peer has this id.
    case notConnected(NodeID)
    /// A datagram would exceed the 1,200-byte limit.
    case datagramTooLarge(Int)
    /// A reliable message would exceed the 1 MiB frame limit.
    case messageTooLarge(Int)
    /// The node has been shut down.
    case shutDown

    public var description: String {
        switch self {
        case .notConnected(let id): "peer \(id.short) is not connected"
        case .datagramTooLarge(let n): "datagram of \(n) bytes exceeds \(FrameLimits.maxDatagramSize)"
        case .messageTooLarge(let n): "message of \(n) bytes exceeds \(FrameLimits.maxReliablePayload)"
        case .shutDown: "the node is shut down"
        }
    }
}

/// TXT record keys of a Tavolo service (PROTOCOL.md §6).
public enum TXTKey {
    public static let id = "id"
    public static let version = "v"
    public static let udpPort = "u"
}
