import Foundation
import TavoloCore

/// A node's identity: 128 random bits, written as 32 lower-case hex digits (PROTOCOL.md §3.3).
public struct NodeID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The 16 bytes as two big-endian words: a value with no storage on the heap, so an id is copied, compared and
    /// hashed (several times for every message a table handles, and for every frame's peer lookup) with no reference
    /// counting; an array of bytes made each of those a retain and release, and equality a loop.
    private let high: UInt64
    private let low: UInt64

    /// The 16 bytes, most significant first; ids compare as unsigned big-endian numbers.
    public var bytes: [UInt8] {
        (0..<16).map { i in UInt8(truncatingIfNeeded: (i < 8 ? high : low) >> (8 * (7 - i % 8))) }
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.init(unchecked: bytes)
    }

    /// Parses the canonical form only: exactly 32 lower-case hex digits (PROTOCOL.md §3.3). Upper case is refused so
    /// that one id has one spelling in JSON and TXT records, and the hex strings compare as the ids do.
    public init?(hex: String) {
        let lowerHex = hex.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard hex.utf8.count == 32, lowerHex, let b = [UInt8](hexString: hex) else { return nil }
        self.init(unchecked: b)
    }

    /// A fresh random id from the system's secure generator.
    public static func random() -> NodeID {
        var g = SystemRandomNumberGenerator()
        return NodeID(unchecked: (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) })
    }

    /// `b` holds exactly 16 bytes.
    private init(unchecked b: [UInt8]) {
        high = b[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = b[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    public var hex: String {
        String(unsafeUninitializedCapacity: 32) { out in
            for i in 0..<32 {
                let word = i < 16 ? high : low
                out[i] = Self.hexDigits[Int(truncatingIfNeeded: word >> (4 * (15 - i % 16))) & 0xf]
            }
            return 32
        }
    }
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    public var description: String { hex }
    /// The first 8 hex digits, for logs.
    public var short: String { String(hex.prefix(8)) }

    public static func < (a: NodeID, b: NodeID) -> Bool { (a.high, a.low) < (b.high, b.low) }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let id = NodeID(hex: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "node id must be 32 lower-case hex digits"))
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}

/// First frame each side sends on a new TCP connection (PROTOCOL.md §4.1).
public struct Handshake: Codable, Equatable, Sendable {
    /// The protocol version the sender speaks.
    public var version: Int
    public var nodeId: NodeID
    /// The sender's node name (its DNS-SD instance name).
    public var name: String
    /// The UDP port on which the sender receives datagrams.
    public var udpPort: Int
    /// Features the sender supports, sorted; unknown ones are ignored.
    public var capabilities: [String]

    public init(
        version: Int = Int(ProtocolVersion.current), nodeId: NodeID, name: String, udpPort: Int, capabilities: [String]
    ) {
        self.version = version
        self.nodeId = nodeId
        self.name = name
        self.udpPort = udpPort
        self.capabilities = capabilities
    }
}

/// Sent every heartbeat interval; the receiver answers with a `HeartbeatAck` echoing both fields.
public struct Heartbeat: Codable, Equatable, Sendable {
    /// Per-connection counter from 1.
    public var seq: UInt64
    /// Sender's monotonic clock in nanoseconds; only the sender interprets it (round-trip time).
    public var sentAt: UInt64

    public init(seq: UInt64, sentAt: UInt64) {
        self.seq = seq
        self.sentAt = sentAt
    }
}

/// Why a connection is being closed; sent before every deliberate close (PROTOCOL.md §4.4).
public enum GoodbyeCode: String, Codable, Sendable, CaseIterable {
    /// The node is shutting down.
    case shutdown
    /// A connection between these two nodes already exists.
    case duplicateConnection = "duplicate-connection"
    /// The peer's dialing breaks the rule that the smaller node id dials.
    case wrongDialer = "wrong-dialer"
    /// The peer speaks another protocol version.
    case versionMismatch = "version-mismatch"
    /// A Noise handshake message did not authenticate: the nodes are not in the same private circle (another
    /// circle, another passphrase, or none), or the message was damaged (PROTOCOL.md §3.8). Sent in clear.
    case circleMismatch = "circle-mismatch"
    /// Bytes that are not a valid frame.
    case badFrame = "bad-frame"
    /// A frame longer than the channel's limit.
    case frameTooLarge = "frame-too-large"
    /// Something other than a handshake arrived first, or a second handshake arrived.
    case handshakeRequired = "handshake-required"
    /// No handshake arrived in time.
    case handshakeTimeout = "handshake-timeout"
    /// The peer is this node itself.
    case selfConnection = "self-connection"
    /// The peer stopped reading and its outgoing queue is full.
    case slowReader = "slow-reader"
    /// Nothing heard from the peer within the heartbeat timeout.
    case timeout
    /// Any other breach of this protocol.
    case protocolError = "protocol-error"
    /// Too many connections from the peer's address are waiting for their handshake, or together they hold more
    /// bytes than the node allows; the oldest is cut first (PROTOCOL.md §3.4). Try again later.
    case busy
}

/// The last frame before a deliberate close.
public struct Goodbye: Codable, Equatable, Sendable {
    public var code: GoodbyeCode
    /// A sentence for people and logs.
    public var reason: String

    public init(code: GoodbyeCode, reason: String) {
        self.code = code
        self.reason = reason
    }
}

extension GoodbyeCode {
    /// Unknown codes from a newer peer read as `protocolError` rather than failing the goodbye.
    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        self = GoodbyeCode(rawValue: raw) ?? .protocolError
    }
}

/// An unreliable message (PROTOCOL.md §4.6): the sender's id and sequence number in binary, then the body: the
/// service byte (§3.9) and the service's message.
public struct Datagram: Equatable, Sendable {
    public var sender: NodeID
    /// Per-sender counter, increasing; a receiver drops any datagram not newer than the last it accepted.
    public var seq: UInt64
    /// The service the message is for (§3.9).
    public var service: Service
    /// The service's message after the service byte: JSON, or a compact body (§13.1).
    public var body: [UInt8]

    public init(sender: NodeID, seq: UInt64, service: Service, body: [UInt8]) {
        self.sender = sender
        self.seq = seq
        self.service = service
        self.body = body
    }

    /// The message's form, told by its first byte (§13.1).
    public var form: MessageForm { .ofDatagram(body) }

    /// A datagram's body as sent or sealed: the service byte, then the message.
    public struct Body: Equatable, Sendable {
        public var service: Service
        public var message: [UInt8]

        public init(service: Service, message: [UInt8]) {
            self.service = service
            self.message = message
        }

        /// Checks a received body (§3.5, §4.6 check 1): a service byte, then one JSON value or a compact body.
        /// Nil otherwise.
        public init?(_ bytes: [UInt8]) {
            guard let first = bytes.first else { return nil }
            let message = Array(bytes.dropFirst())
            guard CompactMessage.isCompact(message) || JSONSyntax.isWellFormed(message) else { return nil }
            self.init(service: Service(rawValue: first), message: message)
        }

        /// The bytes: the service byte, then the message.
        public var bytes: [UInt8] { [service.rawValue] + message }
    }
}
