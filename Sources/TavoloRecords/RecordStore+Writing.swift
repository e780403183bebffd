import Foundation
import GRDB
import TavoloCore
import TavoloRecordFormat

/// A record with the signatures that came with it, each already checked (`RecordSignature.check`).
public struct SignedRecord: Sendable {
    public var game: RecordedGame
    public var body: RecordBody
    public var signatures: [RecordSignature]

    public init(_ game: RecordedGame, _ body: RecordBody, signatures: [RecordSignature]) {
        self.game = game
        self.body = body
        self.signatures = signatures
    }

    /// Every node that must sign it has (§11.7).
    public var isSigned: Bool { RecordSignature.isComplete(body, signers: Set(signatures.map(\.node))) }
}

extension RecordStore {
    /// Stores records not stored yet, without signatures (imported game logs, tests): kept, shown as unverified,
    /// counted on no leaderboard until their signatures arrive.
    @discardableResult
    public func insert(_ records: [(RecordedGame, RecordBody)], source: Source) throws -> Int {
        try insert(records.map { SignedRecord($0.0, $0.1, signatures: []) }, source: source)
    }

    /// Stores records not stored yet, all in one transaction, with their (checked) signatures; returns how many
    /// were new. A record signed by every node that must sign it is `verified` and counts on the leaderboards.
    @discardableResult
    public func insert(
        _ records: [SignedRecord], source: Source, from peer: String? = nil, address: String? = nil
    ) throws -> Int {
        try pool.write { db in
            var added = 0
            for r in records where try insertRow(r, source: source, from: peer, address: address, db) {
                added += 1
                try Standings.addForfeits(r.body, recordID: r.game.id, endedAt: r.game.endedAt, db)
                try addSignatureRows(r.signatures, recordID: r.game.id, db)
                if r.isSigned {
                    try Standings.add(r.body, recordID: r.game.id, signers: Set(r.signatures.map(\.node)), db)
                }
            }
            return added
        }
    }

    /// Stores one record of a game this node played (the body comes from its own log: no replay needed).
    @discardableResult
    public func insert(_ record: RecordedGame, source: Source = .local) throws -> Bool {
        try insert([(record, try record.decodedBody())], source: source) == 1
    }

    private func insertRow(
        _ r: SignedRecord, source: Source, from peer: String?, address: String?, _ db: Database
    ) throws -> Bool {
        let (g, b) = (r.game, r.body)
        // Cached statements: parsed once per connection, not once per row (the insert rate doubled).
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO record
                (id, tableID, game, players, outcome, stopCode, moveCount, finalHash, startedAt, endedAt,
                 mine, source, body, verified, receivedFrom, receivedFromAddress)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """
        ).execute(
            arguments: [
                g.id, b.table, b.game, b.players, b.outcome.rawValue, b.stopCode, b.moves.count, b.finalHash,
                g.startedAt, g.endedAt,
                b.seats.contains { $0.node == me } || (b.takeovers ?? []).contains { $0.member == me },
                source.rawValue, Data(g.body), r.isSigned, peer, address,
            ])
        guard db.changesCount == 1 else { return false }
        // A seat whose owner a sealed game's audit named counts for nobody (§14.9): no row, no standing.
        for s in b.seats where !(b.cheaters ?? []).contains(s.node) {
            try db.cachedStatement(
                sql: """
                    INSERT INTO seat (recordID, seat, node, name, bot, score, won, endedAt, game)
                    VALUES (?,?,?,?,?,?,?,?,?)
                    """
            ).execute(
                arguments: [
                    g.id, s.seat, s.node, s.name, s.bot, b.scores.indices.contains(s.seat) ? b.scores[s.seat] : nil,
                    b.winners.contains(s.seat), g.endedAt, b.game,
                ])
        }
        return true
    }

    private func addSignatureRows(_ signatures: [RecordSignature], recordID: String, _ db: Database) throws {
        for s in signatures {
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO signature (recordID, node, signature) VALUES (?,?,?)"
            ).execute(arguments: [recordID, s.node, String(decoding: try CanonicalJSON.encode(s), as: UTF8.self)])
        }
    }

    /// Adds checked signatures to a stored record; when that completes it, the record becomes verified and is
    /// counted on the leaderboards, and true is returned. Signatures of a record not stored are not kept here.
    /// `body`, when the caller decoded the stored body already, saves decoding it again.
    @discardableResult
    public func addSignatures(_ signatures: [RecordSignature], recordID: String, body: RecordBody? = nil) throws -> Bool
    {
        try pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT body, verified FROM record WHERE id = ?", arguments: [recordID]),
                !(row["verified"] as Bool)
            else { return false }
            try addSignatureRows(signatures, recordID: recordID, db)
            let held = try self.signatures(of: recordID, db)
            let body = try body ?? CanonicalJSON.decode(RecordBody.self, [UInt8](row["body"] as Data))
            let signed = SignedRecord(RecordedGame(body: [], startedAt: nil, endedAt: 0), body, signatures: held)
            guard signed.isSigned else { return false }
            try db.execute(sql: "UPDATE record SET verified = 1 WHERE id = ?", arguments: [recordID])
            try Standings.add(body, recordID: recordID, signers: Set(held.map(\.node)), db)
            return true
        }
    }

    /// The signatures held for a record.
    public func signatures(of recordID: String) throws -> [RecordSignature] {
        try pool.read { try signatures(of: recordID, $0) }
    }

    func signatures(of recordID: String, _ db: Database) throws -> [RecordSignature] {
        try String.fetchAll(
            db, sql: "SELECT signature FROM signature WHERE recordID = ? ORDER BY node", arguments: [recordID]
        ).compactMap { try? CanonicalJSON.decode(RecordSignature.self, Array($0.utf8)) }
    }

    /// Records kept that `peer` (node id) sent, or that any peer sent (nil).
    public func receivedCount(from peer: String?) -> Int {
        let sql =
            peer == nil
            ? "SELECT COUNT(*) FROM record WHERE receivedFrom IS NOT NULL"
            : "SELECT COUNT(*) FROM record WHERE receivedFrom = ?"
        let args: StatementArguments = peer.map { [$0] } ?? []
        return ((try? pool.read { try Int.fetchOne($0, sql: sql, arguments: args) }) ?? nil) ?? 0
    }

    /// Records of this node's own game logs (written here or imported: never one a peer sent) that lack this node's
    /// signature: a database from before signatures, or rebuilt from the logs. `sign` gives this node's signature
    /// of an id; returns how many it signed (a game of its bots alone becomes verified by it; one with other seat
    /// owners once theirs are held too: `RecordSync.sendAwaitedSignatures` sends them this one, and they answer).
    @discardableResult
    public func signOwnRecords(_ sign: (String) -> RecordSignature?) throws -> Int {
        let ids = try pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM record r WHERE r.source IN ('local', 'import') AND r.mine AND NOT r.verified
                      AND NOT EXISTS (SELECT 1 FROM signature g WHERE g.recordID = r.id AND g.node = ?)
                    """, arguments: [me])
        }
        var signed = 0
        for id in ids {
            guard let mine = sign(id) else { continue }
            try addSignatures([mine], recordID: id)
            signed += 1
        }
        return signed
    }

    /// Which of `ids` are stored and signed.
    public func verified(_ ids: [String]) throws -> Set<String> {
        try pool.read { db in
            var out = Set<String>()
            for id in ids
            where try Bool.fetchOne(db, sql: "SELECT verified FROM record WHERE id = ?", arguments: [id]) == true {
                out.insert(id)
            }
            return out
        }
    }

    /// Signatures (§11.7): each record's, and whether it holds every one it needs. Records stored before them are
    /// kept, unverified; the leaderboards, which counted them, start again from the signed games.
    static func migrateSignatures(_ m: inout DatabaseMigrator) {
        m.registerMigration("v5-signatures") { db in
            try db.alter(table: "record") { t in
                t.add(column: "verified", .boolean).notNull().defaults(to: false)
                // The peer a record came from (node id), for its share of the disk (§11.3); null for the node's own.
                t.add(column: "receivedFrom", .text)
            }
            try db.create(index: "record_on_receivedFrom", on: "record", columns: ["receivedFrom"])
            try db.create(table: "signature") { t in
                t.column("recordID", .text).notNull().references("record", onDelete: .cascade)
                t.column("node", .text).notNull()
                // The signature's canonical JSON (§11.7), as it travels.
                t.column("signature", .text).notNull()
                t.primaryKey(["recordID", "node"])
            }
            // People are counted by node id now: their names for the boards come from their newest seats.
            try db.create(index: "seat_on_node_endedAt", on: "seat", columns: ["node", "endedAt"])
            try db.execute(sql: "DELETE FROM standing")
            try db.execute(sql: "DELETE FROM earned")
        }
    }
}
