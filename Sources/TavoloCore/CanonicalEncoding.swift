import Crypto
import Foundation

/// Writes the canonical byte encoding of a game state (PROTOCOL.md §2): big-endian fixed-width integers,
/// counts before sequences, nothing that depends on dictionary order, floats or the platform.
public struct CanonicalWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() { bytes.reserveCapacity(256) }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    public mutating func u16(_ v: UInt16) { append(bigEndian: v) }
    public mutating func u32(_ v: UInt32) { append(bigEndian: v) }
    public mutating func u64(_ v: UInt64) { append(bigEndian: v) }
    /// A signed value as two's complement, 32 bits.
    public mutating func i32(_ v: Int32) { append(bigEndian: UInt32(bitPattern: v)) }
    /// A small non-negative count or index as u16 (fails loudly in tests if a game ever exceeds it).
    public mutating func count(_ v: Int) {
        precondition(v >= 0 && v <= Int(UInt16.max), "canonical count out of range")
        u16(UInt16(v))
    }
    /// A UTF-8 string: u16 byte count, then the bytes.
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        count(utf8.count)
        bytes.append(contentsOf: utf8)
    }
    /// A sequence of bytes with a u16 count first.
    public mutating func byteList(_ list: some Collection<UInt8>) {
        count(list.count)
        bytes.append(contentsOf: list)
    }

    private mutating func append<T: FixedWidthInteger>(bigEndian v: T) {
        withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

/// SHA-256 over a state's canonical encoding: what peers compare to prove they agree.
public struct StateHash: Hashable, Sendable, Codable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public init(canonical: [UInt8]) {
        self.bytes = Array(SHA256.hash(data: canonical))
    }

    public init?(hex: String) {
        guard let b = [UInt8](hexString: hex), b.count == 32 else { return nil }
        bytes = b
    }

    public var hex: String { bytes.hexString }
    public var description: String { hex }

    /// Bytes of a short hash: the first 8 of the SHA-256, what the compact hot messages carry (PROTOCOL.md §13.2).
    public static let shortSize = 8

    /// The first 8 bytes: what a node sends in `table.move`, `table.confirm` and `table.race-move`.
    public var short: StateHash { StateHash(bytes: Array(bytes.prefix(Self.shortSize))) }

    /// A hash a peer claimed (`stateHash`, `seatHash` of the hot messages) in its JSON form: 64 hex digits, or 16
    /// for a short hash (§13.3); nil for any other text.
    public init?(claimedHex hex: String) {
        guard hex.utf8.count == 64 || hex.utf8.count == 2 * Self.shortSize,
            let b = [UInt8](hexString: hex)
        else { return nil }
        bytes = b
    }

    /// True when a claimed hash agrees with this node's own: equal, or its first 8 bytes when one of them is short
    /// (§13.2). Symmetric, so either side may be the claim.
    public func agrees(with other: StateHash) -> Bool {
        if bytes.count == other.bytes.count { return bytes == other.bytes }
        let (short, long) = bytes.count < other.bytes.count ? (bytes, other.bytes) : (other.bytes, bytes)
        return short.count == Self.shortSize && long.starts(with: short)
    }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let h = StateHash(hex: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a 64-digit hex hash"))
        }
        self = h
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex digits.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in self {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Parses lower- or upper-case hex; nil on an odd length or a non-hex digit.
    public init?(hexString: String) {
        let chars = Array(hexString.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        self = out
    }
}

/// A running SHA-256 over a list of state hashes: the `transcript` of a batch of games.
public struct TranscriptHasher {
    private var hasher = SHA256()
    public init() {}
    public mutating func add(_ hash: StateHash) { hasher.update(data: hash.bytes) }
    public func finalize() -> String { Array(hasher.finalize()).hexString }
}
