import TavoloCore
import TavoloProtocol

/// What a node reports about one of its tables, in order (the control socket's event stream, PROTOCOL.md §9.7).
/// Every text in an event is public: it names nothing a seat of another node may not see.
public struct TableEvent: Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case offered, updated, invited, seatRefused = "seat-refused", started, seeded, dealt, yourTurn = "your-turn",
            moved, rejected, finished, stopped, paused, resumed, takenOver = "taken-over"
    }

    /// What happened, with what each kind carries.
    public enum Detail: Sendable, Equatable {
        /// A table appeared: who offers it.
        case offered(message: String)
        /// Its seats or phase changed.
        case updated
        /// The host reserved `seat` for this node.
        case invited(seat: Int, message: String)
        /// The host refused this node's seat request.
        case seatRefused(message: String)
        /// Seeding began here.
        case started(message: String)
        /// The joint seed is known; the game's first state. The seed itself is not told to clients until the table is
        /// over: with it, anyone can compute every hand.
        case seeded(stateHash: StateHash)
        /// The host's deal `number` matched the joint seed's shuffle.
        case dealt(number: Int, message: String)
        /// A seat of this node's user is to play.
        case yourTurn(seat: Int, moveNumber: Int)
        /// Move `moveNumber` was applied here.
        case moved(moveNumber: Int, seat: Int, move: JSONValue, stateHash: StateHash, text: String)
        /// A move was rejected (here or by another member).
        case rejected(moveNumber: Int, code: MoveErrorCode, message: String)
        /// Every member agreed on the final state.
        case finished(TableResult)
        /// The table stopped before its end.
        case stopped(code: StopCode, message: String)
        /// Members were lost during play: no new move until they are back (§9.10). `since` is the wall-clock time
        /// (ISO 8601, UTC) the shell stamps when the pause began here; the machine reads no clock.
        case paused(members: [String], since: String?, message: String)
        /// Every member is back: play goes on.
        case resumed(message: String)
        /// A member's seats passed to a bot: voted in after the grace period, or the member left (§9.12).
        case takenOver(seats: [Int], message: String)
    }

    public var table: TableID
    public var game: String
    public var detail: Detail

    public init(table: TableID, game: String, _ detail: Detail) {
        self.table = table
        self.game = game
        self.detail = detail
    }

    public var kind: Kind {
        switch detail {
        case .offered: .offered
        case .updated: .updated
        case .invited: .invited
        case .seatRefused: .seatRefused
        case .started: .started
        case .seeded: .seeded
        case .dealt: .dealt
        case .yourTurn: .yourTurn
        case .moved: .moved
        case .rejected: .rejected
        case .finished: .finished
        case .stopped: .stopped
        case .paused: .paused
        case .resumed: .resumed
        case .takenOver: .takenOver
        }
    }

    /// The sentence for a person, where the kind has one.
    public var message: String? {
        switch detail {
        case .offered(let m), .invited(_, let m), .seatRefused(let m), .started(let m), .dealt(_, let m),
            .rejected(_, _, let m), .stopped(_, let m), .paused(_, _, let m), .resumed(let m), .takenOver(_, let m):
            m
        case .moved(_, _, _, _, let text): text
        case .updated, .seeded, .yourTurn, .finished: nil
        }
    }
}

/// How a finished table came out, as every member agreed.
public struct TableResult: Codable, Sendable, Equatable {
    public var winners: [Int]
    public var scores: [Int]
    public var finalHash: StateHash
    /// Every member's final hash, by node name.
    public var finalHashes: [String: String]
    public var jointSeed: UInt64
    public var moves: Int
    /// Simultaneous games: the agreed ranking of the seats that completed, first the winner (§10.3).
    public var ranking: [Int]?
    /// A sealed table's audit (§14.10): `verified`, or `cheated` with the names it found in `cheaters`.
    public var sealed: String?
    public var cheaters: [String]?

    public init(
        winners: [Int], scores: [Int], finalHash: StateHash, finalHashes: [String: String], jointSeed: UInt64,
        moves: Int
    ) {
        self.winners = winners
        self.scores = scores
        self.finalHash = finalHash
        self.finalHashes = finalHashes
        self.jointSeed = jointSeed
        self.moves = moves
    }
}
