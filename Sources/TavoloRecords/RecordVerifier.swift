import Foundation
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable

/// Checks a record received from another node (PROTOCOL.md §11.4): its id is its body's hash, its fields are
/// within the limits, and its moves, replayed by this node's own engine from the joint seed, are legal, played
/// by the seats it names, and reach the final hash, winners and scores it claims. Nobody can post a result the
/// moves do not give. (What replay cannot prove, which nodes sat at the seats, the signatures do: §11.7.)
public struct RecordVerifier: Sendable {
    public let catalog: GameCatalog

    public init(catalog: GameCatalog) { self.catalog = catalog }

    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ d: String) { description = d }
    }

    /// The decoded body when the record holds (steps 1–6 of §11.4, no signatures); otherwise why not.
    public func verify(id: String, body: [UInt8]) -> Result<RecordBody, Refusal> {
        decode(id: id, body: body).flatMap { b in replay(b).map { b } }
    }

    /// A received record (§11.4 with step 7): its body holds, and it carries the signature of every node that
    /// must sign it (§11.7), checked before the replay (cheaper, and a forger's record stops there). Returns the
    /// body and the valid signatures.
    public func verify(id: String, body: [UInt8], signatures: [RecordSignature]) -> Result<SignedRecord, Refusal> {
        decode(id: id, body: body).flatMap { b in
            let (valid, missing) = RecordSignature.check(signatures, recordID: id, body: b)
            if let missing { return .failure(.init("unsigned: \(missing)")) }
            return replay(b).map {
                SignedRecord(RecordedGame(body: body, startedAt: nil, endedAt: 0), b, signatures: valid)
            }
        }
    }

    /// Steps 1 and 2 of §11.4: the id is the body's hash, and the body decodes within its rules.
    public func decode(id: String, body: [UInt8]) -> Result<RecordBody, Refusal> {
        guard body.count <= RecordLimits.maxBodyBytes else {
            return .failure(.init("body of \(body.count) bytes, over \(RecordLimits.maxBodyBytes)"))
        }
        guard RecordedGame.id(of: body) == id else { return .failure(.init("id is not the SHA-256 of the body")) }
        let b: RecordBody
        do { b = try CanonicalJSON.decode(RecordBody.self, body) } catch {
            return .failure(.init("body does not decode: \(error)"))
        }
        if let problem = fieldProblem(b) { return .failure(.init(problem)) }
        return .success(b)
    }

    /// Steps 3 to 6 of §11.4: the game, its bots, and the replay of its moves to the result claimed.
    func replay(_ b: RecordBody) -> Result<Void, Refusal> {
        guard let entry = catalog[b.game] else { return .failure(.init("unknown game \(b.game)")) }
        guard entry.playerCounts.contains(b.players) else {
            return .failure(.init("\(b.game) is not played by \(b.players)"))
        }
        // A paced kind (`solver@20`, §10.5) is its bot kind at a pace.
        let botKinds = Set(entry.bots.map(\.kind))
        let known = { (kind: String) in botKinds.contains(BotKindName(kind).kind) }
        if let s = b.seats.first(where: { $0.bot.map { !known($0) } ?? false }) {
            return .failure(.init("seat \(s.seat): unknown bot kind"))
        }
        if let t = b.takeovers?.firstIndex(where: { !known($0.bot) }) {
            return .failure(.init("takeover \(t): unknown bot kind"))
        }
        guard let seed = b.seed else { return .failure(.init("jointSeed is not 16 lower-case hex digits")) }
        if let sealed = b.sealed { return sealedReplay(b, sealed, entry: entry, seed: seed) }
        var replayer: LogReplayer
        do { replayer = try LogReplayer(catalog: catalog, game: b.game, players: b.players, seed: seed) } catch {
            return .failure(.init("cannot start \(b.game): \(error.message)"))
        }
        let simultaneous = replayer.game.isSimultaneous
        for (n, m) in b.moves.enumerated() {
            // A race's moves are listed seat by seat (§11.1): one body per game, whatever order a member saw.
            if simultaneous, n > 0, m.seat < b.moves[n - 1].seat {
                return .failure(.init("move \(n): a race's moves are not listed seat by seat"))
            }
            do { try replayer.apply(LogReplayer.Step(seat: m.seat, move: m.move)) } catch {
                return .failure(.init("move \(n): \(error.message)"))
            }
        }
        let game = replayer.game
        guard game.stateHash.hex == b.finalHash else {
            return .failure(.init("the moves reach \(game.stateHash.hex.prefix(16))…, not the final hash claimed"))
        }
        let outcome = game.outcome
        if b.outcome == .finished, outcome == nil {
            return .failure(.init("finished, but the game is not over after \(b.moves.count) moves"))
        }
        if let problem = simultaneous ? raceOutcomeProblem(b, game) : turnOutcomeProblem(b, outcome) {
            return .failure(.init(problem))
        }
        return .success(())
    }

    func turnOutcomeProblem(_ b: RecordBody, _ outcome: GameOutcome?) -> String? {
        guard b.ranking == nil, b.votes == nil else { return "ranking and votes are for simultaneous games" }
        guard b.winners == (outcome?.winners ?? []), b.scores == (outcome?.scores ?? []) else {
            return "winners or scores are not the ones the moves give"
        }
        return nil
    }

    /// A race's winner is the first of the ranking its members' votes give (§10.3), not the game's fewest moves.
    func raceOutcomeProblem(_ b: RecordBody, _ game: any GameSession) -> String? {
        guard let outcome = game.outcome, b.outcome == .finished else {
            guard b.ranking == nil, b.votes == nil, b.winners.isEmpty, b.scores == (game.outcome?.scores ?? []) else {
                return "an unfinished race has no ranking, votes or winners"
            }
            return nil
        }
        guard b.scores == outcome.scores else { return "scores are not the ones the moves give" }
        // One vote per member: the seat owners and a host without a seat.
        guard let ranking = b.ranking, let votes = b.votes, votes.count <= b.players + 1 else {
            return "a finished race needs its ranking and its votes"
        }
        let completed = Set((0..<b.players).filter { game.seatCompleted($0) })
        guard ranking == RaceRanking.rank(orders: votes, completed: completed, moves: outcome.scores).ranking else {
            return "the ranking is not the one the votes give"
        }
        guard b.winners == Array(ranking.prefix(1)) else { return "the winner is not the first of the ranking" }
        return nil
    }

    func fieldProblem(_ b: RecordBody) -> String? {
        guard b.version == RecordBody.currentVersion else { return "version \(b.version)" }
        guard RecordLimits.isTableID(b.table) else { return "table id" }
        guard b.seats.count == b.players, b.seats.enumerated().allSatisfy({ $0.offset == $0.element.seat }) else {
            return "seats must be one per player, in order"
        }
        for s in b.seats {
            guard RecordLimits.isNodeID(s.node) else { return "seat \(s.seat): node id" }
            guard RecordLimits.isName(s.name) else { return "seat \(s.seat): name" }
        }
        guard b.moves.count <= RecordLimits.maxMoves else { return "more than \(RecordLimits.maxMoves) moves" }
        guard b.finalHash.utf8.count == 64, RecordLimits.isLowerHex(b.finalHash) else { return "finalHash" }
        guard b.options.isEmpty else { return "options (no game has any)" }
        if let c = b.stopCode, c.utf8.count > 64 { return "stopCode" }
        if let takeovers = b.takeovers, let problem = takeoverProblem(takeovers, b) { return problem }
        if let problem = sealedFieldProblem(b) { return problem }
        return nil
    }

    /// §11.1's `takeovers`: present only when not empty, at most `RecordLimits.maxTakeovers`, each naming valid
    /// nodes and seats, passed within the moves played, and the last one of each seat naming its owner at the end.
    func takeoverProblem(_ takeovers: [RecordBody.Takeover], _ b: RecordBody) -> String? {
        guard !takeovers.isEmpty, takeovers.count <= RecordLimits.maxTakeovers else {
            return "takeovers: 1 to \(RecordLimits.maxTakeovers) when present"
        }
        var lastHeir: [Int: RecordBody.Takeover] = [:]
        for (i, t) in takeovers.enumerated() {
            guard RecordLimits.isNodeID(t.member), RecordLimits.isNodeID(t.heir), t.member != t.heir else {
                return "takeover \(i): node ids"
            }
            guard RecordLimits.isName(t.name) else { return "takeover \(i): name" }
            guard !t.seats.isEmpty, Set(t.seats).count == t.seats.count, t.seats.allSatisfy((0..<b.players).contains)
            else { return "takeover \(i): seats" }
            guard t.number >= 0, (0...b.moves.count).contains(t.appliedAt) else { return "takeover \(i): move numbers" }
            for seat in t.seats { lastHeir[seat] = t }
        }
        for (seat, t) in lastHeir where b.seats[seat].node != t.heir || b.seats[seat].bot != t.bot {
            return "takeover: seat \(seat) is not owned at the end by its last heir's bot"
        }
        return nil
    }
}

/// The limits of §11.
public enum RecordLimits {
    /// A record's body (a 3-player Spirits! game is about 6 KiB).
    public static let maxBodyBytes = 32_768
    public static let maxMoves = 10_000
    /// Takeovers in one record: each member of a table (at most six seats and a host) passes its seats once.
    public static let maxTakeovers = 16
    /// Records in one `records.data` message, and its size.
    public static let maxRecordsPerMessage = 32
    /// What a sender puts in one `records.data` when it holds more than one record to send (a single record
    /// may go over it, up to `maxMessageBytes`).
    public static let maxDataBytes = 65_536
    /// Any records message, checked on the payload before decoding.
    public static let maxMessageBytes = 131_072
    /// Ids in one `records.ids` message.
    public static let maxIDsPerMessage = 1_024
    /// Deals of a sealed record (Spirits! has three).
    public static let maxSealedDeals = 16
    /// Signatures of one record: one per node that owns a seat (at most six seats), and room to spare.
    public static let maxSignatures = 8
    /// Buckets of the summary: the first two hex digits of the id.
    public static let bucketCount = 256

    static func isLowerHex(_ s: String) -> Bool {
        s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
    public static func isRecordID(_ s: String) -> Bool { s.utf8.count == 64 && isLowerHex(s) }
    static func isNodeID(_ s: String) -> Bool { s.utf8.count == 32 && isLowerHex(s) }
    /// §4.1's rules for a node name (a record names nodes by the names their handshakes gave).
    static func isName(_ s: String) -> Bool { !s.isEmpty && s.utf8.count <= 63 && Handshake.isValidName(s) }
    static func isTableID(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy {
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45
            }
    }
}
