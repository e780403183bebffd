import TavoloCore

/// The fields of a record's body (§11.1). Keys are the JSON member names; canonical JSON sorts them.
public struct RecordBody: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    /// The only two outcomes (§11.1): a game given up is `stopped` with `table/abandoned`, and a forfeit is in
    /// `takeovers`, not in the outcome. A body with any other value does not decode, so it is refused.
    public enum Outcome: String, Codable, Sendable {
        /// Every member agreed on the result.
        case finished
        /// Stopped before the end (§9.5); the record holds the moves played until then.
        case stopped
    }

    public struct Seat: Codable, Sendable, Equatable {
        public var seat: Int
        /// The owning node's id (32 lower-case hex digits).
        public var node: String
        /// The owning node's name.
        public var name: String
        /// The bot kind, absent for a human.
        public var bot: String?

        public init(seat: Int, node: String, name: String, bot: String?) {
            self.seat = seat
            self.node = node
            self.name = name
            self.bot = bot
        }
    }

    /// Seats that changed hands during play (PROTOCOL.md §9.12): a member left (a forfeit) or was lost and voted
    /// out, and the heir's bot played its seats from `appliedAt` on. `seats` names the owners at the end.
    public struct Takeover: Codable, Sendable, Equatable {
        /// The member whose seats passed (32 lower-case hex digits) and its name.
        public var member: String
        public var name: String
        public var seats: [Int]
        /// The node whose bot played them from then on, and the bot's kind.
        public var heir: String
        public var bot: String
        /// The move count the forfeit or the agreed vote named; the seats passed before move `appliedAt`.
        public var number: Int
        public var appliedAt: Int
        /// True when the member left (the game is lost for it), false when it was voted out.
        public var forfeit: Bool
        /// The member's signature of its forfeit statement (§11.7): with it the loss counts for the member.
        public var signature: SignatureObject?

        public init(
            member: String, name: String, seats: [Int], heir: String, bot: String, number: Int, appliedAt: Int,
            forfeit: Bool, signature: SignatureObject? = nil
        ) {
            self.member = member
            self.name = name
            self.seats = seats
            self.heir = heir
            self.bot = bot
            self.number = number
            self.appliedAt = appliedAt
            self.forfeit = forfeit
            self.signature = signature
        }
    }

    /// A game dealt from a sealed deck (PROTOCOL.md §14.12): every member's secret σ in member order (64 lower-case
    /// hex digits each) and each deal's final deck hash, from which a receiver deals every card again.
    public struct Sealed: Codable, Sendable, Equatable {
        public var secrets: [String]
        public var deckHashes: [String]

        public init(secrets: [String], deckHashes: [String]) {
            self.secrets = secrets
            self.deckHashes = deckHashes
        }
    }

    public struct Move: Codable, Sendable, Equatable {
        public var seat: Int
        public var move: JSONValue

        public init(seat: Int, move: JSONValue) {
            self.seat = seat
            self.move = move
        }
    }

    public var version: Int
    public var table: String
    public var game: String
    public var players: Int
    /// The game's variant and options; empty for every game so far (none has options).
    public var options: [String: JSONValue]
    public var seats: [Seat]
    /// The joint seed as 16 lower-case hex digits (a u64 exceeds what many JSON parsers read exactly).
    public var jointSeed: String
    public var moves: [Move]
    public var outcome: Outcome
    public var stopCode: String?
    public var winners: [Int]
    public var scores: [Int]
    public var finalHash: String
    /// Absent when no seat changed hands (so such a game's body, and id, are as before takeovers were recorded).
    public var takeovers: [Takeover]?
    /// A simultaneous game that finished (§10.3): the agreed ranking of the seats that completed, and the members'
    /// finishing orders it was computed from (in the members' order at the table). Absent for other games.
    public var ranking: [Int]?
    public var votes: [[Int]]?
    /// A sealed game (§14.12): what deals it again; absent for an open deck.
    public var sealed: Sealed?
    /// The members a sealed game's audit named (node ids): the game counts for none of them. Absent when none.
    public var cheaters: [String]?

    public init(
        version: Int, table: String, game: String, players: Int, options: [String: JSONValue], seats: [Seat],
        jointSeed: String, moves: [Move], outcome: Outcome, stopCode: String?, winners: [Int], scores: [Int],
        finalHash: String, takeovers: [Takeover]? = nil, ranking: [Int]? = nil, votes: [[Int]]? = nil,
        sealed: Sealed? = nil, cheaters: [String]? = nil
    ) {
        self.version = version
        self.table = table
        self.game = game
        self.players = players
        self.options = options
        self.seats = seats
        self.jointSeed = jointSeed
        self.moves = moves
        self.outcome = outcome
        self.stopCode = stopCode
        self.winners = winners
        self.scores = scores
        self.finalHash = finalHash
        self.takeovers = takeovers?.isEmpty == true ? nil : takeovers
        self.ranking = ranking
        self.votes = votes
        self.sealed = sealed
        self.cheaters = cheaters?.isEmpty == true ? nil : cheaters
    }

    public static func hex(_ seed: UInt64) -> String {
        let s = String(seed, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    public var seed: UInt64? {
        guard jointSeed.utf8.count == 16,
            jointSeed.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
        else { return nil }
        return UInt64(jointSeed, radix: 16)
    }
}

extension RecordBody {
    /// A sealed game's members (PROTOCOL.md §14.12): member `j` is the `j`-th distinct owner of a seat when play began,
    /// in seat order (a seat's owner then is the member of the first takeover that lists it, else its owner at the
    /// end); `seatMembers[s]` is seat `s`'s member.
    public var sealedMembers: (members: [String], seatMembers: [Int]) {
        let owners = (0..<max(0, players)).map { s in
            takeovers?.first { $0.seats.contains(s) }?.member ?? (seats.indices.contains(s) ? seats[s].node : "")
        }
        var members: [String] = []
        for o in owners where !members.contains(o) { members.append(o) }
        return (members, owners.compactMap { members.firstIndex(of: $0) })
    }
}
