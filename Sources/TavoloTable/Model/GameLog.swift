import Foundation
import TavoloCore
import TavoloProtocol
import TavoloSealed

/// Everything needed to replay a table's game, kept in the node's state directory as
/// `games/<table>.json` once the game is over (PROTOCOL.md §9.6), and while it goes on as the journal
/// `games/<table>.journal` (§9.9, `GameJournal`, `GameLogStore`).
public struct GameLog: Codable, Sendable, Equatable {
    public struct Participant: Codable, Sendable, Equatable {
        public var node: NodeID
        public var name: String
        public var commitment: String
        public var nonce: String?
    }

    public struct LoggedMove: Codable, Sendable, Equatable {
        public var number: Int
        public var seat: Int
        public var move: JSONValue
        public var text: String
        /// State hash before and after the move.
        public var before: String
        public var after: String
    }

    public struct LoggedDeal: Codable, Sendable, Equatable {
        public var number: Int
        public var cards: [UInt8]
    }

    public var table: TableInfo
    public var participants: [Participant] = []
    public var jointSeed: UInt64?
    public var initialHash: String?
    public var deals: [LoggedDeal] = []
    public var moves: [LoggedMove] = []
    public var winners: [Int]?
    /// Simultaneous games: the agreed ranking of the seats that completed (§10.3), and the members' finishing orders
    /// it was computed from (the valid and the ignored ones, in the members' order at the table).
    public var ranking: [Int]?
    public var raceVotes: [[Int]]?
    public var scores: [Int]?
    public var finalHash: String?
    /// Every member's final hash, by node name.
    public var finalHashes: [String: String] = [:]
    public var stopped: String?
    /// Seats that passed to a bot during the game, in the order they did (§9.12): replay applies them at the same
    /// move numbers.
    public var takeovers: [LoggedTakeover]?
    /// A sealed table (§14.10): the members its audit named, once it ran (empty: the deck was verified).
    public var sealedCheaters: [NodeID]?
    /// And what deals the game again (§14.12): every member's secret σ (hex, member order) and each deal's final deck
    /// hash, once the audit held every secret; what the game's record carries.
    public var sealedSecrets: [String]?
    public var sealedDeckHashes: [String]?
    /// What a restarted member of a sealed table needs to go on (§14.12): kept in the journal's header only, never in
    /// the complete log or a record.
    public var sealedResume: SealedResume?

    public struct LoggedTakeover: Codable, Sendable, Equatable {
        /// The member whose seats passed.
        public var member: NodeID
        public var memberName: String
        /// The seats it owned.
        public var seats: [Int]
        /// The node whose bot plays them from now on, and the bot.
        public var heir: NodeID
        public var bot: String
        /// The move number of the vote or the leave; the seats changed hands before move `appliedAt`.
        public var number: Int
        public var appliedAt: Int
        /// True when the member left (a forfeit), false when it was lost and voted out.
        public var forfeit: Bool
        /// The member's signature of its forfeit (§11.7), when it sent one.
        public var signature: SignatureObject? = nil
    }
    /// The takeover votes this node cast and not yet agreed, each at the move count it named (§9.12): kept in the
    /// journal's header so a restarted node still counts its own vote (§9.11), and left out of the complete log.
    public var ownVotes: [OwnVote]?

    public struct OwnVote: Codable, Sendable, Equatable {
        public var member: NodeID
        public var number: Int
    }

    /// Wall-clock start (seeding began) and end, in milliseconds since 1970 UTC: stamped by the shell when it
    /// writes the log (the machine reads no clock). Absent in logs written before records existed.
    public var startedAt: Int64?
    public var endedAt: Int64?

    public init(table: TableInfo) { self.table = table }

    /// Writes the complete log to `<games>/<table>.json` durably (temporary file, fsync, rename: a `kill -9` or a
    /// power cut at any moment leaves the previous version or this one).
    func save(games: String, sync: Bool = true) throws {
        // Table ids are letters, digits and '-' only (TableID), so the id is a safe file name; they never
        // repeat across restarts (TableEpoch), so an earlier game's log is never overwritten.
        try DurableFile.replace("\(games)/\(table.id).json", with: Array(CanonicalJSON.encodePretty(self)), sync: sync)
    }
}

extension GameLog.LoggedTakeover {
    /// The log's order of takeovers (§9.12): by the move count they passed at, then — where one passed a seat to a
    /// member whose own seats, that one included, passed at the same point (a member voted out just after it
    /// inherited) — the inheritance before the passing on, so the last takeover of each seat names its owner at the
    /// end (§11.4 step 2), then by the members' ids. The same at every node, whatever order it learned the votes in.
    public static func canonicalOrder(_ takeovers: [Self]) -> [Self] {
        // How many takeovers at the same point handed a seat of this one to its member before it passed on.
        func depth(_ t: Self, _ seen: Set<NodeID> = []) -> Int {
            let before = takeovers.filter { p in
                p.appliedAt == t.appliedAt && p.heir == t.member && !seen.contains(p.member)
                    && !Set(p.seats).isDisjoint(with: t.seats)
            }
            return before.map { depth($0, seen.union([t.member])) + 1 }.max() ?? 0
        }
        let keyed = takeovers.map { (t: $0, depth: depth($0)) }
        return keyed.sorted { ($0.t.appliedAt, $0.depth, $0.t.member) < ($1.t.appliedAt, $1.depth, $1.t.member) }
            .map(\.t)
    }
}

/// A sealed table's private journal (PROTOCOL.md §14.12): this node's secret σ, the members' keys and the escrows it
/// took, as they came. A restarted member deals every deal again from them and the members' messages sent again on
/// reconnection. σ stays in the node's own state directory, as its identity key does; the journal goes once the game
/// is over (the audit opens σ anyway).
public struct SealedResume: Codable, Sendable, Equatable {
    public struct Key: Codable, Sendable, Equatable {
        public var node: NodeID
        public var message: SealedMessage
    }

    public struct Escrow: Codable, Sendable, Equatable {
        public var member: Int
        public var message: SealedMessage
    }

    public struct Inherited: Codable, Sendable, Equatable {
        public var member: Int
        public var secret: String
    }

    /// σ, hex; none at an observer (a seatless host, §14.1).
    public var secret: String?
    /// Every participant's `table.sealed-key`, this node's own included.
    public var keys: [Key]
    /// Each `table.sealed-escrow` this node accepted, with its member.
    public var escrows: [Escrow] = []
    /// The secrets this node recovered as an heir (§14.11), hex, in member order: nobody releases them again.
    public var inherited: [Inherited] = []
    /// Each second escrow this node accepted (§14.11), with the heir that made it.
    public var reEscrows: [Escrow]?
    /// After a restart, the journal's moves as they were (§14.12), kept until the game passes the last of them: the
    /// restart writes the journal again with no moves, each played again is appended as it is played, so a second
    /// restart during the replay would otherwise find only those. Absent when there is nothing to play again.
    public var replay: [GameLog.LoggedMove]?
}
