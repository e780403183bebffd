import Foundation
import TavoloProtocol

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
    /// In another private circle, or in none when this node is in one (or the other way round): never dialed, and
    /// a handshake with it cannot succeed (PROTOCOL.md §3.8).
    case otherCircle = "other-circle"
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

/// A message received from a peer: for the service it names (PROTOCOL.md §3.9), in the form it came in.
public struct MeshMessage: Sendable {
    public var from: NodeID
    public var channel: MeshChannel
    /// The service the message is for: the first byte of its payload, not part of `body`.
    public var service: Service
    /// JSON (an application frame, or a datagram's JSON body) or compact (a compact frame, or a datagram's compact
    /// body, §13.1).
    public var form: MessageForm
    /// The bytes the sender's service encoded, after the service byte.
    public var body: [UInt8]

    public init(from: NodeID, channel: MeshChannel, service: Service, form: MessageForm, body: [UInt8]) {
        self.from = from
        self.channel = channel
        self.service = service
        self.form = form
        self.body = body
    }

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
    /// The configuration would make every peer refuse this node's handshake (PROTOCOL.md §4.1).
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .notConnected(let id): "peer \(id.short) is not connected"
        case .datagramTooLarge(let n): "datagram of \(n) bytes exceeds \(FrameLimits.maxDatagramSize)"
        case .messageTooLarge(let n): "message of \(n) bytes exceeds \(FrameLimits.maxReliablePayload)"
        case .shutDown: "the node is shut down"
        case .invalidConfiguration(let why): "invalid mesh configuration: \(why)"
        }
    }
}

/// TXT record keys of a Tavolo service (PROTOCOL.md §6).
public enum TXTKey {
    public static let id = "id"
    public static let version = "v"
    public static let udpPort = "u"
    /// The circle tag (PROTOCOL.md §3.8, §6); absent when the node is in no circle.
    public static let circle = "c"
}
