import Foundation
import TavoloCore
import TavoloProtocol
import TavoloSealed

/// Application messages of the table protocol (PROTOCOL.md §9), sent on the reliable channel as JSON objects
/// whose `type` field names the message.
public enum TableMessage: Codable, Sendable, Equatable {
    /// Largest encoded table message a node decodes (PROTOCOL.md §9.1). The largest real one, a catch-up of 128
    /// moves, is under 40 KiB; a receiver never spends decoding time on a megabyte.
    public static let maxBodyBytes = 65_536

    /// Host → every node: a table exists or changed (seats, phase). Sent on every change and to new peers.
    case offer(TableInfo)
    /// Node → host: please seat me (a human or a bot of mine) at `seat`, or at any free seat when nil.
    case seatRequest(table: TableID, seat: Int?, bot: String?)
    /// Host → node: a seat request or invitation answer that failed.
    case seatRefused(table: TableID, reason: String)
    /// Host → named node: a seat is offered to you.
    case invite(table: TableID, seat: Int)
    /// Seat owner → table: this node leaves its seats (before the start) or abandons the game (after).
    case leave(table: TableID)
    /// Each seat-owning node → table: SHA-256 of its secret nonce, hex.
    case commit(table: TableID, commitment: String)
    /// Each seat-owning node → table, once every commitment is in: the nonce itself, hex (32 bytes).
    case reveal(table: TableID, nonce: String)
    /// Host → table: the card order of deal `number`, which must equal the shuffle of the joint seed.
    case deal(table: TableID, number: Int, cards: [UInt8])
    /// Owner of the seat to play → table: move `number` (0-based) for `seat`, applied to the state with hash `stateHash`.
    case move(table: TableID, number: Int, seat: Int, move: JSONValue, stateHash: StateHash)
    /// Every node at the table → table: my state hash after applying move `number`.
    case confirm(table: TableID, number: Int, stateHash: StateHash)
    /// A node rejected a move (it stays unapplied everywhere): stable code and reason.
    case reject(table: TableID, number: Int, code: MoveErrorCode, reason: String)
    /// Every node at the table → table, at the end: the outcome and final state hash it computed.
    /// `relayed`, only in a result relayed by a member that finished: whose result it is (§9.5).
    case result(table: TableID, winners: [Int], scores: [Int], finalHash: StateHash, relayed: ResultRelay? = nil)
    /// Any node at the table → table: the table is stopped (divergence, wrong deal, a member left or was lost).
    case stop(table: TableID, code: StopCode, reason: String)
    /// Simultaneous games (§10): owner of `seat` → table: that seat's move `number` (0-based, counted per seat),
    /// applied to the seat's part of the state with seat hash `seatHash`.
    case raceMove(table: TableID, seat: Int, number: Int, move: JSONValue, seatHash: StateHash)
    /// Simultaneous games (§10.3): every member → table, once the game is over: the seats that completed, in the
    /// order this node saw them complete. `member`, only in an order relayed by a member that finished with the
    /// result after it: whose order it is (§9.5).
    case raceOrder(table: TableID, order: [Int], member: NodeID? = nil)
    /// Member → member, when they (re)connect during a game: I have applied `moves` moves; my state hash after them.
    case sync(table: TableID, moves: Int, stateHash: StateHash)
    /// Member → a member that is behind: moves (and deals) it misses, from this node's log; each is checked as a
    /// live one is, and its `after` hash is this node's word on the state after it (§9.11).
    case catchUp(table: TableID, deals: [RelayedDeal], moves: [RelayedMove])
    /// Member → table: my vote that `member`'s seats pass to a bot from move `number` on (§9.12).
    /// `voters`, only in a vote sent again to the member voted out: every voter the sender counted for it (§9.12).
    case takeover(table: TableID, member: NodeID, number: Int, voters: [NodeID]? = nil)
    /// Seat owner → table, after the start: I leave; my seats pass to a bot from move `number` on (a forfeit).
    /// `signature`: the member's signature object of its forfeit statement (§11.7), so the loss counts for it.
    /// `seatMoves`, in a race only: per seat, the count of that seat's moves the leaver had applied (§10.6).
    case forfeit(table: TableID, number: Int, signature: SignatureObject? = nil, seatMoves: [Int]? = nil)
    /// A sealed table's own messages (§14.7: keys, shuffles, shares, a card's opening, the audit), as `TavoloSealed`
    /// types them; `table` is the same id as the message's.
    case sealed(table: TableID, SealedMessage)

    public var table: TableID {
        switch self {
        case .offer(let t): t.id
        case .seatRequest(let t, _, _), .seatRefused(let t, _), .invite(let t, _), .leave(let t), .commit(let t, _),
            .reveal(let t, _), .deal(let t, _, _), .move(let t, _, _, _, _), .confirm(let t, _, _),
            .reject(let t, _, _, _), .result(let t, _, _, _, _), .stop(let t, _, _), .raceMove(let t, _, _, _, _),
            .raceOrder(let t, _, _), .sync(let t, _, _), .catchUp(let t, _, _), .takeover(let t, _, _, _),
            .forfeit(let t, _, _, _), .sealed(let t, _):
            t
        }
    }

    public var typeName: String {
        switch self {
        case .offer: "table.offer"
        case .seatRequest: "table.seat-request"
        case .seatRefused: "table.seat-refused"
        case .invite: "table.invite"
        case .leave: "table.leave"
        case .commit: "table.commit"
        case .reveal: "table.reveal"
        case .deal: "table.deal"
        case .move: "table.move"
        case .sealed(_, let m): m.typeName
        case .confirm: "table.confirm"
        case .reject: "table.reject"
        case .result: "table.result"
        case .stop: "table.stop"
        case .raceMove: "table.race-move"
        case .raceOrder: "table.race-order"
        case .sync: "table.sync"
        case .catchUp: "table.catch-up"
        case .takeover: "table.takeover"
        case .forfeit: "table.forfeit"
        }
    }

    enum Key: String, CodingKey {
        case type, table, seat, bot, reason, commitment, nonce, number, cards, move, stateHash, code, winners,
            scores, finalHash, seatHash, order, moves, deals, member, signature, voters, takeovers, seatMoves
    }

    /// The hash a hot message claims: 64 hex digits, or 16 for a short hash (PROTOCOL.md §13.3); the receiver
    /// compares it with `StateHash.agrees(with:)`. Every other hash of a table message is 64 digits.
    static func claimed(_ c: KeyedDecodingContainer<Key>, _ key: Key) throws -> StateHash {
        let text = try c.decode(String.self, forKey: key)
        guard let hash = StateHash(claimedHex: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "not a 64- or 16-digit hex hash")
        }
        return hash
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        if type == "table.offer" {
            self = .offer(try TableInfo(from: decoder))
            return
        }
        let t = try c.decode(TableID.self, forKey: .table)
        if type.hasPrefix("table.sealed-") {
            self = .sealed(table: t, try SealedMessage(from: decoder))
            return
        }
        switch type {
        case "table.seat-request":
            self = .seatRequest(
                table: t, seat: try c.decodeIfPresent(Int.self, forKey: .seat),
                bot: try c.decodeIfPresent(String.self, forKey: .bot))
        case "table.seat-refused": self = .seatRefused(table: t, reason: try c.decode(String.self, forKey: .reason))
        case "table.invite": self = .invite(table: t, seat: try c.decode(Int.self, forKey: .seat))
        case "table.leave": self = .leave(table: t)
        case "table.commit": self = .commit(table: t, commitment: try c.decode(String.self, forKey: .commitment))
        case "table.reveal": self = .reveal(table: t, nonce: try c.decode(String.self, forKey: .nonce))
        case "table.deal":
            self = .deal(
                table: t, number: try c.decode(Int.self, forKey: .number),
                cards: try c.decode([UInt8].self, forKey: .cards))
        case "table.move":
            self = .move(
                table: t, number: try c.decode(Int.self, forKey: .number), seat: try c.decode(Int.self, forKey: .seat),
                move: try c.decode(JSONValue.self, forKey: .move), stateHash: try Self.claimed(c, .stateHash))
        case "table.confirm":
            self = .confirm(
                table: t, number: try c.decode(Int.self, forKey: .number), stateHash: try Self.claimed(c, .stateHash))
        case "table.reject":
            self = .reject(
                table: t, number: try c.decode(Int.self, forKey: .number),
                code: try c.decode(MoveErrorCode.self, forKey: .code),
                reason: try c.decode(String.self, forKey: .reason))
        case "table.result":
            self = .result(
                table: t, winners: try c.decode([Int].self, forKey: .winners),
                scores: try c.decode([Int].self, forKey: .scores),
                finalHash: try c.decode(StateHash.self, forKey: .finalHash),
                relayed: try ResultRelay.decodeIfPresent(c))
        case "table.stop":
            self = .stop(
                table: t, code: try c.decode(StopCode.self, forKey: .code),
                reason: try c.decode(String.self, forKey: .reason))
        case "table.race-move":
            self = .raceMove(
                table: t, seat: try c.decode(Int.self, forKey: .seat), number: try c.decode(Int.self, forKey: .number),
                move: try c.decode(JSONValue.self, forKey: .move), seatHash: try Self.claimed(c, .seatHash))
        case "table.race-order": self = try Self.raceOrder(c, table: t)
        default:
            guard let message = try Self.decodeResilience(type, table: t, c) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: c, debugDescription: "unknown table message '\(type)'")
            }
            self = message
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .offer(let info) = self {
            try info.encode(to: encoder)
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(typeName, forKey: .type)
            return
        }
        if case .sealed(_, let m) = self { return try m.encode(to: encoder) }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(typeName, forKey: .type)
        try c.encode(table, forKey: .table)
        switch self {
        case .offer, .sealed: break
        case .seatRequest(_, let seat, let bot):
            try c.encodeIfPresent(seat, forKey: .seat)
            try c.encodeIfPresent(bot, forKey: .bot)
        case .seatRefused(_, let reason): try c.encode(reason, forKey: .reason)
        case .invite(_, let seat): try c.encode(seat, forKey: .seat)
        case .leave: break
        case .commit(_, let commitment): try c.encode(commitment, forKey: .commitment)
        case .reveal(_, let nonce): try c.encode(nonce, forKey: .nonce)
        case .deal(_, let number, let cards):
            try c.encode(number, forKey: .number)
            try c.encode(cards, forKey: .cards)
        case .move(_, let number, let seat, let move, let hash):
            try c.encode(number, forKey: .number)
            try c.encode(seat, forKey: .seat)
            try c.encode(move, forKey: .move)
            try c.encode(hash, forKey: .stateHash)
        case .confirm(_, let number, let hash):
            try c.encode(number, forKey: .number)
            try c.encode(hash, forKey: .stateHash)
        case .reject(_, let number, let code, let reason):
            try c.encode(number, forKey: .number)
            try c.encode(code, forKey: .code)
            try c.encode(reason, forKey: .reason)
        case .result(_, let winners, let scores, let hash, let relayed):
            try c.encode(winners, forKey: .winners)
            try c.encode(scores, forKey: .scores)
            try c.encode(hash, forKey: .finalHash)
            try relayed?.encode(&c)
        case .stop(_, let code, let reason):
            try c.encode(code, forKey: .code)
            try c.encode(reason, forKey: .reason)
        case .raceMove(_, let seat, let number, let move, let hash):
            try c.encode(seat, forKey: .seat)
            try c.encode(number, forKey: .number)
            try c.encode(move, forKey: .move)
            try c.encode(hash, forKey: .seatHash)
        case .raceOrder(_, let order, let member):
            try c.encode(order, forKey: .order)
            try c.encodeIfPresent(member, forKey: .member)
        case .sync, .catchUp, .takeover, .forfeit: try encodeResilience(&c)
        }
    }
}

extension TableMessage {
    /// A `table.race-order`; with `member`, one relayed by a member that finished (§9.5).
    static func raceOrder(_ c: KeyedDecodingContainer<Key>, table t: TableID) throws -> TableMessage {
        .raceOrder(
            table: t, order: try c.decode([Int].self, forKey: .order),
            member: try c.decodeIfPresent(NodeID.self, forKey: .member))
    }
}

/// What a relayed `table.result` says besides the result (§9.5): whose it is, and how many takeovers the relayer's
/// log holds (a receiver whose log holds another number may miss a takeover, and waits for the member's own word).
public struct ResultRelay: Sendable, Equatable {
    public var member: NodeID
    public var takeovers: Int

    public init(member: NodeID, takeovers: Int) {
        self.member = member
        self.takeovers = takeovers
    }

    static func decodeIfPresent(_ c: KeyedDecodingContainer<TableMessage.Key>) throws -> ResultRelay? {
        guard let member = try c.decodeIfPresent(NodeID.self, forKey: .member) else { return nil }
        let takeovers = try c.decode(Int.self, forKey: .takeovers)
        guard (0...16).contains(takeovers) else {
            throw DecodingError.dataCorruptedError(forKey: .takeovers, in: c, debugDescription: "not 0–16 takeovers")
        }
        return ResultRelay(member: member, takeovers: takeovers)
    }

    func encode(_ c: inout KeyedEncodingContainer<TableMessage.Key>) throws {
        try c.encode(member, forKey: .member)
        try c.encode(takeovers, forKey: .takeovers)
    }
}

/// A deal in a `table.catch-up`: checked against the joint seed like the host's (§9.11).
public struct RelayedDeal: Codable, Sendable, Equatable {
    public var number: Int
    public var cards: [UInt8]

    public init(number: Int, cards: [UInt8]) {
        self.number = number
        self.cards = cards
    }
}

/// A move in a `table.catch-up`: as it was played (`stateHash` the state it applied to), and the relaying node's
/// hash after it.
public struct RelayedMove: Codable, Sendable, Equatable {
    public var number: Int
    public var seat: Int
    public var move: JSONValue
    public var stateHash: StateHash
    public var after: StateHash

    public init(number: Int, seat: Int, move: JSONValue, stateHash: StateHash, after: StateHash) {
        self.number = number
        self.seat = seat
        self.move = move
        self.stateHash = stateHash
        self.after = after
    }
}
