import TavoloCore

/// The compact binary form of the messages sent for every move (PROTOCOL.md §13): `table.move`, `table.confirm`,
/// `table.race-move` on the reliable channel (frame type 8, `compact`) and `table.progress` in a datagram body.
/// A few bytes of header instead of a JSON object, the hashes as raw bytes (their first 8 in the short kinds a node
/// sends); the game's move (and a race's progress) stays the JSON its Codable type defines, carried as bytes at the
/// end.
///
/// This layer knows only the layout; the table layer maps it to and from its `TableMessage` (so the packet log,
/// which imports no table code, still reads it: `jsonEquivalent`).
public struct CompactMessage: Equatable, Sendable {
    public enum Kind: UInt8, Sendable, CaseIterable {
        case move = 1
        case confirm = 2
        case raceMove = 3
        case progress = 4
        /// The short kinds (§13.2): the same messages with the table id in its short form and 8-byte hashes. What a
        /// node sends; kinds 1–3 are still accepted.
        case shortMove = 5
        case shortConfirm = 6
        case shortRaceMove = 7

        /// The `type` of the JSON message this one stands for.
        public var typeName: String {
            switch self {
            case .move, .shortMove: "table.move"
            case .confirm, .shortConfirm: "table.confirm"
            case .raceMove, .shortRaceMove: "table.race-move"
            case .progress: "table.progress"
            }
        }

        /// True for the short kinds (5–7): short table id, 8-byte hashes.
        public var isShort: Bool { rawValue >= Kind.shortMove.rawValue }

        /// The bytes of this kind's hash: 32, or 8 for a short kind (its first 8 bytes, §13.2).
        public var hashSize: Int { isShort ? CompactMessage.shortHashSize : CompactMessage.hashSize }

        /// The kind of the same message with a text table id and 32-byte hashes (1–4): what the JSON message it
        /// stands for names.
        public var long: Kind {
            switch self {
            case .shortMove: .move
            case .shortConfirm: .confirm
            case .shortRaceMove: .raceMove
            default: self
            }
        }

        /// §13.2's layout: the fields after the table id, in order. Encoding and decoding both follow it.
        var fields: [Field] {
            switch self {
            case .move, .shortMove: [.number, .seat, .hash, .json]
            case .confirm, .shortConfirm: [.number, .hash]
            case .raceMove, .shortRaceMove: [.seat, .number, .hash, .json]
            case .progress: [.seat, .number, .json]
            }
        }
    }

    /// A field of §13.2: a varint, the hash (32 or 8 bytes), or the JSON value that is the rest of the body.
    enum Field { case number, seat, hash, json }

    /// First bytes a compact body may start with: its kind. No JSON text starts with one of them (JSON starts with
    /// `{ [ " - 0-9 t f n` or whitespace 0x09 0x0A 0x0D 0x20), so a body is told apart by its first byte (§13.1).
    /// Kind 8 is reserved: a body starting with it is compact, and dropped as malformed until defined.
    public static let kindBytes: ClosedRange<UInt8> = 0x01...0x08

    /// Largest body (the size limit of every table message, §9.1).
    public static let maxBodyBytes = 65_536
    /// Largest `number` or `seat` (a varint of at most 5 bytes, and an Int on every platform).
    public static let maxInteger = Int(Int32.max)
    public static let hashSize = 32
    /// A short hash: the first 8 bytes of the SHA-256 (§13.2). It detects divergence, which is all a state hash
    /// is for (a lying node computes the true hash as easily as anyone; what stops it is that every node checks
    /// every move).
    public static let shortHashSize = StateHash.shortSize

    public var kind: Kind
    /// The table id's ASCII bytes (1–64 of letters, digits and `-`, §9).
    public var table: String
    public var number: Int
    /// The seat: `table.move`, `table.race-move`, `table.progress`; nil for a `table.confirm`.
    public var seat: Int?
    /// `stateHash` (`table.move`, `table.confirm`) or `seatHash` (`table.race-move`), 32 raw bytes (8 in a
    /// short kind); nil for `table.progress`.
    public var hash: [UInt8]?
    /// The game's move (`table.move`, `table.race-move`) or progress object (`table.progress`): one JSON value's
    /// text; nil for a `table.confirm`.
    public var json: [UInt8]?

    public init(kind: Kind, table: String, number: Int, seat: Int? = nil, hash: [UInt8]? = nil, json: [UInt8]? = nil) {
        self.kind = kind
        self.table = table
        self.number = number
        self.seat = seat
        self.hash = hash
        self.json = json
    }

    /// True when `body` is a compact body rather than JSON (its first byte, §13.1).
    public static func isCompact(_ body: some Collection<UInt8>) -> Bool {
        guard let first = body.first else { return false }
        return kindBytes.contains(first)
    }

    // MARK: Encoding

    public enum EncodingError: Error, Equatable {
        case badField(String)
    }

    /// The body's bytes. Throws when a field is outside §13's bounds (a sender's bug, never a peer's).
    public func encoded() throws(EncodingError) -> [UInt8] {
        let id = Array(table.utf8)
        guard (1...64).contains(id.count), id.allSatisfy(Self.isTableIDByte) else { throw .badField("table") }
        var out: [UInt8] = [kind.rawValue]
        out.reserveCapacity(2 + id.count + 10 + kind.hashSize + (json?.count ?? 0))
        if kind.isShort, let host = HostTableID(id) {
            host.append(to: &out)
        } else {
            out.append(UInt8(id.count))
            out.append(contentsOf: id)
        }
        func varint(_ v: Int?, _ name: String) throws(EncodingError) {
            guard let v, (0...Self.maxInteger).contains(v) else { throw .badField(name) }
            Self.appendVarint(v, to: &out)
        }
        func fixedHash() throws(EncodingError) {
            guard let hash, hash.count == kind.hashSize else { throw .badField("hash") }
            out.append(contentsOf: hash)
        }
        func tail() throws(EncodingError) {
            guard let json, !json.isEmpty else { throw .badField("json") }
            out.append(contentsOf: json)
        }
        for field in kind.fields {
            switch field {
            case .number: try varint(number, "number")
            case .seat: try varint(seat, "seat")
            case .hash: try fixedHash()
            case .json: try tail()
            }
        }
        guard out.count <= Self.maxBodyBytes else { throw .badField("size") }
        return out
    }

    /// Unsigned LEB128: 7 bits a byte, least significant first, the high bit set on every byte but the last.
    static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        var v = UInt32(value)
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func isTableIDByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D
    }
}
