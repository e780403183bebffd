/// The service an application message is for: its first byte (PROTOCOL.md §3.9). A node hands each message to the
/// handler of its service on this byte alone, never by looking inside the message. A struct, not an enum: a byte
/// no service has (yet) is still a value a peer can send, and is counted as unrouted.
public struct Service: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Table messages (§9, §10), and the compact hot messages (§13).
    public static let tables = Service(rawValue: 0x01)
    /// Record sync (§11).
    public static let records = Service(rawValue: 0x02)
    /// Chat (§12).
    public static let chat = Service(rawValue: 0x03)

    /// The services of this protocol version; every other byte is unassigned.
    public static let assigned: [Service] = [.tables, .records, .chat]

    /// The name the spec, the logs and `tavolo log` use: `tables`, or `service 0x2a` for an unassigned byte.
    public var description: String {
        switch self {
        case .tables: "tables"
        case .records: "records"
        case .chat: "chat"
        default: "service 0x" + String(rawValue, radix: 16, uppercase: false).leftPadded(to: 2)
        }
    }
}

/// How an application message's bytes are written (PROTOCOL.md §3.9, §13.1): JSON, or the compact binary form of
/// the hot table messages. On the reliable channel the frame type says it (5 or 8); in a datagram, the first byte
/// after the service byte.
public enum MessageForm: String, Sendable, Equatable {
    case json
    case compact

    /// The form of a datagram's message (the bytes after its service byte), told by its first byte (§13.1): no JSON
    /// text starts with a compact kind.
    public static func ofDatagram(_ message: some Collection<UInt8>) -> MessageForm {
        CompactMessage.isCompact(message) ? .compact : .json
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
