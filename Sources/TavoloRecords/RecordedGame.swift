import Foundation
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable

/// The record of one game that was played (PROTOCOL.md §11.1): what every node stores and shares. Its `body` is
/// canonical JSON text defined by the spec field by field, not by these Swift types; the record's id is the
/// SHA-256 of the body's bytes, so every member of a table, writing the same body, gives its game the same id.
public struct RecordedGame: Sendable, Equatable {
    /// 64 lower-case hex digits: SHA-256 of `body`'s UTF-8 bytes.
    public let id: String
    /// Canonical JSON of `RecordBody`.
    public let body: [UInt8]
    /// Wall-clock times in milliseconds since 1970 (UTC), as the node that wrote the record saw them; not
    /// covered by the id (each member's clock differs), and not verifiable.
    public var startedAt: Int64?
    public var endedAt: Int64

    public init(body: [UInt8], startedAt: Int64?, endedAt: Int64) {
        self.body = body
        id = Self.id(of: body)
        self.startedAt = startedAt
        self.endedAt = endedAt
    }

    public static func id(of body: [UInt8]) -> String { StateHash(canonical: body).hex }

    /// The body of a game log, or nil when the table never reached a game (stopped while seeding) or this node left
    /// it: a copy stopped by its own `leave` holds the game only up to then, and would be a second record of the
    /// table; the record the members that played on write names it among those who left (§11.1 `takeovers`).
    public static func body(of log: GameLog) -> RecordBody? {
        guard let seed = log.jointSeed else { return nil }
        // A sealed game's record carries its secrets and deck hashes (§14.12): none is written without them (a
        // member's audit never came, or the table stopped first), rather than one no peer could check.
        let sealed = log.sealedSecrets.flatMap { s in
            log.sealedDeckHashes.map { RecordBody.Sealed(secrets: s, deckHashes: $0) }
        }
        if log.table.isSealed && sealed == nil { return nil }
        if log.stopped?.hasPrefix(StopCode.memberLeft.rawValue + ":") == true { return nil }
        let final = log.finalHash ?? log.moves.last?.after ?? log.initialHash
        guard let finalHash = final else { return nil }
        let outcome: RecordBody.Outcome = log.stopped == nil ? .finished : .stopped
        let stopCode = log.stopped.map { String($0.prefix(while: { $0 != ":" })) }
        return RecordBody(
            version: RecordBody.currentVersion, table: log.table.id.rawValue, game: log.table.game,
            players: log.table.players, options: [:],
            seats: log.table.seats.sorted { $0.seat < $1.seat }.map {
                RecordBody.Seat(seat: $0.seat, node: $0.owner?.hex ?? "", name: $0.ownerName ?? "", bot: $0.bot)
            },
            jointSeed: RecordBody.hex(seed), moves: recordedMoves(log),
            outcome: outcome, stopCode: stopCode, winners: log.winners ?? [], scores: log.scores ?? [],
            finalHash: finalHash,
            // A host with no seat that leaves passes only its host role: no seat changed hands.
            takeovers: log.takeovers?.filter { !$0.seats.isEmpty }.map {
                RecordBody.Takeover(
                    member: $0.member.hex, name: $0.memberName, seats: $0.seats, heir: $0.heir.hex, bot: $0.bot,
                    number: $0.number, appliedAt: $0.appliedAt, forfeit: $0.forfeit,
                    signature: $0.forfeit ? $0.signature : nil)
            },
            ranking: outcome == .finished ? log.ranking : nil, votes: outcome == .finished ? log.raceVotes : nil,
            sealed: sealed, cheaters: sealed == nil ? nil : log.sealedCheaters?.map(\.hex))
    }

    /// The moves in the record's order: as played for a turn-based game; for a simultaneous one seat by seat, each
    /// seat's in its own order (§11.1), so every member writes the same body whatever order it applied them in.
    /// A turn-based log's numbers are 0, 1, 2 … in order; a race's repeat across seats. When a race's do not
    /// (one seat moved), its order by number is already seat by seat: sorting by (seat, number) is right either way.
    static func recordedMoves(_ log: GameLog) -> [RecordBody.Move] {
        let numbersRepeat = Set(log.moves.map(\.number)).count != log.moves.count
        let moves = numbersRepeat ? log.moves.sorted { ($0.seat, $0.number) < ($1.seat, $1.number) } : log.moves
        return moves.map { .init(seat: $0.seat, move: $0.move) }
    }

    /// The record a node writes for a game log (nil when no game was played).
    public static func from(_ log: GameLog, startedAt: Int64?, endedAt: Int64) -> RecordedGame? {
        withBody(log, startedAt: startedAt, endedAt: endedAt)?.record
    }

    /// The record and the body it encodes, for a store that would otherwise decode the bytes it was just given
    /// (every node records every game it ends: `RecordStore.insert(_:source:)` with the pair).
    public static func withBody(_ log: GameLog, startedAt: Int64?, endedAt: Int64) -> (
        record: RecordedGame, body: RecordBody
    )? {
        guard let body = body(of: log), let bytes = try? CanonicalJSON.encode(body) else { return nil }
        let record = RecordedGame(body: bytes, startedAt: log.startedAt ?? startedAt, endedAt: log.endedAt ?? endedAt)
        return (record, body)
    }

    public func decodedBody() throws -> RecordBody { try CanonicalJSON.decode(RecordBody.self, body) }
}
