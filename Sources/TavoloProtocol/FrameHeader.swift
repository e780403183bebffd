import TavoloCore

/// The protocol version this build speaks (PROTOCOL.md §3.6).
public enum ProtocolVersion {
    public static let current: UInt8 = 1
    /// The version nodes speak on the network (§3.6, §3.9): the Noise-sealed wire whose application messages name
    /// their service. Handshakes, TXT records and `--version` say it; `current` is the plaintext frame layout.
    public static let network: UInt8 = 3
}

/// Message types carried in a frame header (PROTOCOL.md §3.2).
public enum MessageType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case handshake = 1
    case heartbeat = 2
    case heartbeatAck = 3
    case goodbye = 4
    case application = 5
    case datagram = 6
    /// A reliable application message in the compact binary form of §13 (the hot table messages).
    case compact = 8

    public var description: String {
        switch self {
        case .handshake: "handshake"
        case .heartbeat: "heartbeat"
        case .heartbeatAck: "heartbeat-ack"
        case .goodbye: "goodbye"
        case .application: "application"
        case .datagram: "datagram"
        case .compact: "compact"
        }
    }
}

/// Limits every node enforces on what it receives.
public enum FrameLimits {
    /// Header bytes before the payload.
    public static let headerSize = 10
    /// Largest payload of a frame on the reliable (TCP) channel: 1 MiB.
    public static let maxReliablePayload = 1 << 20
    /// Largest whole UDP datagram (header included).
    public static let maxDatagramSize = 1_200
    /// Largest payload of the first frame on a TCP connection (the handshake, a few hundred bytes): what a
    /// connection not yet admitted can make the node buffer.
    public static let maxHandshakePayload = 16_384
}

/// The fixed 10-byte header in front of every frame (PROTOCOL.md §3.1):
/// magic "TV" (0x54 0x56), version u8, type u8, flags u8, reserved u8 (0), payload length u32, big-endian.
public struct FrameHeader: Equatable, Sendable {
    public static let magic: (UInt8, UInt8) = (0x54, 0x56)

    public var version: UInt8
    public var type: MessageType
    public var flags: UInt8
    public var length: UInt32

    public init(version: UInt8 = ProtocolVersion.current, type: MessageType, flags: UInt8 = 0, length: UInt32) {
        self.version = version
        self.type = type
        self.flags = flags
        self.length = length
    }

    public func encode(into bytes: inout [UInt8]) {
        bytes.append(Self.magic.0)
        bytes.append(Self.magic.1)
        bytes.append(version)
        bytes.append(type.rawValue)
        bytes.append(flags)
        bytes.append(0)
        bytes.append(UInt8(truncatingIfNeeded: length >> 24))
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
    }

    /// Parses and checks a header from exactly `FrameLimits.headerSize` bytes.
    public static func parse(_ b: some RandomAccessCollection<UInt8>, maxPayload: Int) throws(FrameError) -> FrameHeader
    {
        guard b.count >= FrameLimits.headerSize else { throw .truncated(needed: FrameLimits.headerSize, got: b.count) }
        let s = b.startIndex
        func at(_ i: Int) -> UInt8 { b[b.index(s, offsetBy: i)] }
        guard at(0) == magic.0, at(1) == magic.1 else { throw .badMagic(at(0), at(1)) }
        guard at(2) == ProtocolVersion.current else {
            throw .unsupportedVersion(at(2), expected: ProtocolVersion.current)
        }
        guard let type = MessageType(rawValue: at(3)) else { throw .unknownType(at(3)) }
        let length = UInt32(at(6)) << 24 | UInt32(at(7)) << 16 | UInt32(at(8)) << 8 | UInt32(at(9))
        guard Int(length) <= maxPayload else { throw .tooLarge(length: Int(length), limit: maxPayload) }
        return FrameHeader(version: at(2), type: type, flags: at(4), length: length)
    }
}

/// Why bytes from a peer are not a valid frame. Each closes that one connection with a goodbye.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first two bytes are not "TV".
    case badMagic(UInt8, UInt8)
    /// The header's version is not the one this node speaks: the wire's (§3.6), or the plaintext layout's mark, 1.
    case unsupportedVersion(UInt8, expected: UInt8)
    /// The header's type byte is not a known message type.
    case unknownType(UInt8)
    /// The announced payload is longer than the channel allows.
    case tooLarge(length: Int, limit: Int)
    /// The bytes end before the frame does.
    case truncated(needed: Int, got: Int)
    /// The payload does not decode as the message its type announces.
    case badPayload(type: MessageType, detail: String)

    /// The goodbye code a node sends before closing for this error.
    public var goodbyeCode: GoodbyeCode {
        switch self {
        case .unsupportedVersion: .versionMismatch
        case .tooLarge: .frameTooLarge
        default: .badFrame
        }
    }

    public var description: String {
        switch self {
        case .badMagic(let a, let b): "bad magic 0x\([a, b].hexString) (expected 0x5456, \"TV\")"
        case .unsupportedVersion(let v, let expected):
            "protocol version \(v) is not supported (this node speaks \(expected))"
        case .unknownType(let t): "unknown message type \(t)"
        case .tooLarge(let l, let limit): "frame of \(l) bytes exceeds the limit of \(limit)"
        case .truncated(let needed, let got): "truncated frame: needed \(needed) bytes, got \(got)"
        case .badPayload(let type, let detail): "bad \(type) payload: \(detail)"
        }
    }
}
