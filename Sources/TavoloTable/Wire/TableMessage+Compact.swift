import TavoloCore
import TavoloProtocol

/// The wire bytes of table messages: the messages sent for every move in the compact form of PROTOCOL.md §13,
/// every other one as JSON (§9.1). Both are decoded here, so the shell, the replay and the tests agree on one path.
extension TableMessage {
    /// What a node sends, and in which form (the frame it goes in, §13.1): compact for `table.move`,
    /// `table.confirm` and `table.race-move`, JSON otherwise.
    public func wire() throws -> (form: MessageForm, bytes: [UInt8]) {
        if let compact = compactForm { return (.compact, try compact.encoded()) }
        return (.json, try CanonicalJSON.encode(self))
    }

    /// The bytes of `wire()` alone (tests, tools).
    public func wireBytes() throws -> [UInt8] { try wire().bytes }

    /// Decodes a received body in the form its frame said.
    public static func decode(_ body: [UInt8], form: MessageForm) throws -> TableMessage {
        switch form {
        case .json: return try CanonicalJSON.decode(TableMessage.self, body)
        case .compact: return try TableMessage(compact: try CompactMessage.decode(body))
        }
    }

    /// Decodes bytes whose form no frame says (a test's, a tool's): compact or JSON, told apart by the first byte,
    /// as in a datagram (§13.1).
    public static func decode(wire body: [UInt8]) throws -> TableMessage {
        try decode(body, form: .ofDatagram(body))
    }

    /// The compact form of a hot message, in the short kinds a node sends (short table id, the first 8 bytes of
    /// each hash, §13.2); nil for the others (they stay JSON).
    public var compactForm: CompactMessage? {
        switch self {
        case .move(let t, let number, let seat, let move, let hash):
            guard let json = try? CanonicalJSON.encode(move) else { return nil }
            return CompactMessage(
                kind: .shortMove, table: t.rawValue, number: number, seat: seat, hash: hash.short.bytes, json: json)
        case .confirm(let t, let number, let hash):
            return CompactMessage(kind: .shortConfirm, table: t.rawValue, number: number, hash: hash.short.bytes)
        case .raceMove(let t, let seat, let number, let move, let hash):
            guard let json = try? CanonicalJSON.encode(move) else { return nil }
            return CompactMessage(
                kind: .shortRaceMove, table: t.rawValue, number: number, seat: seat, hash: hash.short.bytes,
                json: json)
        default:
            return nil
        }
    }

    /// The table message a compact one stands for. A `table.progress` is a datagram, not a table message: it
    /// throws here (`ProgressDatagram` reads it).
    public init(compact m: CompactMessage) throws {
        guard let table = TableID(m.table) else { throw CompactMessage.Malformed("table id") }
        let hash = m.hash.map(StateHash.init(bytes:))
        func move() throws -> JSONValue { try CanonicalJSON.decode(JSONValue.self, m.json ?? []) }
        switch (m.kind.long, m.seat, hash) {
        case (.move, let seat?, let hash?):
            self = .move(table: table, number: m.number, seat: seat, move: try move(), stateHash: hash)
        case (.confirm, nil, let hash?):
            self = .confirm(table: table, number: m.number, stateHash: hash)
        case (.raceMove, let seat?, let hash?):
            self = .raceMove(table: table, seat: seat, number: m.number, move: try move(), seatHash: hash)
        default:
            throw CompactMessage.Malformed("\(m.kind.typeName) is not a reliable table message")
        }
    }
}
