/// Something in a capture that could not be decoded, with where it is: the reader reports it and goes on
/// when it can (`stopsDecoding` false) or stops there.
public struct PacketLogIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// A block whose lengths or contents do not add up.
        case corruptBlock = "corrupt-block"
        /// The file ends inside a block or record.
        case truncatedFile = "truncated-file"
        /// An IP, TCP or UDP header that does not parse.
        case badPacket = "bad-packet"
        /// A synthesized header whose checksum does not match: bytes were changed after recording.
        case checksum
        /// Bytes missing from a TCP stream.
        case streamGap = "stream-gap"
        /// Bytes that are not a valid Tavolo frame.
        case badFrame = "bad-frame"
        /// The capture ends inside a Tavolo frame.
        case truncatedFrame = "truncated-frame"
        /// Packets the reader skips (an unsupported link type).
        case unsupported
    }

    public var kind: Kind
    /// 1-based block number (pcapng) or record number (pcap), when the issue is in one.
    public var block: Int?
    /// Byte offset in the file of that block or record.
    public var offset: Int?
    /// 1-based packet number, as Wireshark numbers frames, when the issue is in one.
    public var packet: Int?
    public var message: String
    /// True when decoding stopped here (nothing after it was read).
    public var stopsDecoding: Bool

    public init(
        kind: Kind, block: Int? = nil, offset: Int? = nil, packet: Int? = nil, message: String,
        stopsDecoding: Bool = false
    ) {
        self.kind = kind
        self.block = block
        self.offset = offset
        self.packet = packet
        self.message = message
        self.stopsDecoding = stopsDecoding
    }

    public var location: String {
        var parts: [String] = []
        if let block { parts.append("block \(block)") }
        if let packet { parts.append("packet \(packet)") }
        if let offset { parts.append("byte \(offset) (0x\(String(offset, radix: 16)))") }
        return parts.joined(separator: ", ")
    }

    public var description: String {
        let loc = location
        return (loc.isEmpty ? "" : loc + ": ") + message + (stopsDecoding ? "; decoding stopped here" : "")
    }
}

/// Why a file cannot be read as a capture at all.
public enum PacketLogReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// The file has no bytes.
    case empty
    /// The file starts with neither a pcapng section header nor a pcap header.
    case notACapture(firstBytes: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .empty: "the file is empty"
        case .notACapture(let first):
            "not a pcapng or pcap file: it starts with 0x\(first) (a pcapng file starts with 0x0a0d0d0a)"
        }
    }
}
