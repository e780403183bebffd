import Crypto
import Foundation
import GRDB
import TavoloCore
import TavoloRecordFormat

/// The node's records: one SQLite file (`records.sqlite` in the state directory) in WAL mode, through GRDB.
/// Every write is one transaction, committed before the caller goes on: a game written here survives a
/// `kill -9` of the process the moment `insert` returns.
public final class RecordStore: Sendable {
    public static let fileName = "records.sqlite"

    /// Why the database cannot be used, in one line, with the way out.
    public struct OpenError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where a record came from.
    public enum Source: String, Sendable {
        case local, `import`, peer
    }

    let pool: DatabasePool
    public let path: String
    /// This node's id (hex): a record with a seat of this node is marked `mine`.
    public let me: String

    /// Opens (creating and migrating if needed) and checks the database. A file that is not a healthy SQLite
    /// database is an `OpenError` naming the way to rebuild it, never an empty history.
    public init(path: String, me: String) throws(OpenError) {
        self.path = path
        self.me = me
        var config = Configuration()
        config.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: config)
            let check = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else { throw OpenError(description: check.prefix(3).joined(separator: "; ")) }
            try Self.migrator(me: me).migrate(pool)
        } catch let e as OpenError {
            throw Self.corrupt(path, e.description)
        } catch {
            throw Self.corrupt(path, "\(error)")
        }
    }

    static func corrupt(_ path: String, _ why: String) -> OpenError {
        OpenError(
            description:
                "the records database \(path) cannot be used (\(why)): start once with `tavolod --rebuild-records` to move it aside and rebuild it from the game logs (games/*.json); records received from peers come back at the next sync"
        )
    }

    /// Schema migrations: each is applied once, in order, and never edited after it ships.
    static func migrator(me: String) -> DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-records") { db in
            try db.create(table: "record") { t in
                t.primaryKey("id", .text)
                t.column("tableID", .text).notNull().indexed()
                t.column("game", .text).notNull().indexed()
                t.column("players", .integer).notNull()
                t.column("outcome", .text).notNull()
                t.column("stopCode", .text)
                t.column("moveCount", .integer).notNull()
                t.column("finalHash", .text).notNull()
                t.column("startedAt", .integer)
                t.column("endedAt", .integer).notNull().indexed()
                t.column("mine", .boolean).notNull()
                t.column("source", .text).notNull()
                t.column("body", .blob).notNull()
            }
            try db.create(table: "seat") { t in
                t.column("recordID", .text).notNull().references("record", onDelete: .cascade)
                t.column("seat", .integer).notNull()
                t.column("node", .text).notNull()
                t.column("name", .text).notNull().indexed()
                t.column("bot", .text)
                t.column("score", .integer)
                t.column("won", .boolean).notNull()
                t.primaryKey(["recordID", "seat"])
            }
        }
        Standings.migrate(&m)
        // `history --player` walked every game of a common name and sorted them (1.7 s with 100,000 games): each
        // seat now carries its game and end time, and (name, endedAt) gives a player's latest games in order.
        m.registerMigration("v3-seat-endedAt") { db in
            try db.alter(table: "seat") { t in
                t.add(column: "endedAt", .integer)
                t.add(column: "game", .text)
            }
            try db.execute(
                sql: """
                    UPDATE seat SET endedAt = (SELECT endedAt FROM record WHERE record.id = seat.recordID),
                                    game = (SELECT game FROM record WHERE record.id = seat.recordID)
                    """)
            try db.create(index: "seat_on_name_endedAt", on: "seat", columns: ["name", "endedAt"])
        }
        Standings.migrateForfeits(&m)
        migrateSignatures(&m)
        migrateSenderAddresses(&m)
        Standings.migrateSignedForfeits(&m)
        Standings.migrateBriscolaDraws(&m)
        migrateSeatOwnerSignatures(&m, me: me)
        return m
    }

    // MARK: Reading

    public var count: Int {
        ((try? pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM record") }) ?? nil) ?? 0
    }

    /// Records whose every required signature is held (§11.7): the ones a summary covers and peers are sent.
    public var verifiedCount: Int {
        ((try? pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM record WHERE verified") }) ?? nil) ?? 0
    }

    /// The summary of §11.2 over the signed records (§11.7): for each of the 256 buckets (first two hex digits of the id), "" when empty, else
    /// the first 16 hex digits of SHA-256 over the bucket's ids in ascending order, each as its 64 ASCII digits.
    public func bucketDigests() throws -> [String] {
        Self.bucketDigests(
            of: try pool.read { try String.fetchAll($0, sql: "SELECT id FROM record WHERE verified ORDER BY id") })
    }

    /// The 256 digests of a set of ids, given in ascending order.
    public static func bucketDigests(of ids: [String]) -> [String] {
        var hashers = [SHA256?](repeating: nil, count: RecordLimits.bucketCount)
        for id in ids {
            guard let b = Int(id.prefix(2), radix: 16) else { continue }
            if hashers[b] == nil { hashers[b] = SHA256() }
            hashers[b]?.update(data: Array(id.utf8))
        }
        return hashers.map { h in h.map { String(Array($0.finalize()).hexString.prefix(16)) } ?? "" }
    }

    /// The ids of one bucket, ascending.
    public func ids(inBucket bucket: Int) throws -> [String] {
        let prefix = String(format: "%02x", bucket)
        return try pool.read {
            try String.fetchAll(
                $0, sql: "SELECT id FROM record WHERE verified AND id >= ? AND id < ? ORDER BY id",
                arguments: [prefix, prefix + "g"])
        }
    }

    /// Stored records by id (those not stored are left out).
    public func records(ids: [String]) throws -> [RecordedGame] {
        try pool.read { db in
            try ids.compactMap { id in
                try Row.fetchOne(db, sql: "SELECT body, startedAt, endedAt FROM record WHERE id = ?", arguments: [id])
                    .map { row in
                        RecordedGame(
                            body: [UInt8](row["body"] as Data), startedAt: row["startedAt"], endedAt: row["endedAt"])
                    }
            }
        }
    }

    /// Which of `ids` are stored.
    public func known(_ ids: [String]) throws -> Set<String> {
        try pool.read { db in
            var out = Set<String>()
            for id in ids where try Bool.fetchOne(db, sql: "SELECT 1 FROM record WHERE id = ?", arguments: [id]) != nil
            {
                out.insert(id)
            }
            return out
        }
    }

    /// Of `ids`, those of games in which `node` (hex) had a seat and that ended at or after `since` (milliseconds
    /// since 1970): games it has just played, and records itself.
    public func playedRecently(_ ids: [String], by node: String, since: Int64) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return try pool.read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
            var arguments: [any DatabaseValueConvertible] = [node, since]
            arguments += ids as [any DatabaseValueConvertible]
            return Set(
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT DISTINCT recordID FROM seat WHERE node = ? AND endedAt >= ? AND recordID IN (\(marks))",
                    arguments: StatementArguments(arguments)))
        }
    }

    /// Records of `table` (usually one; the members of a stopped table may have stopped at different moves).
    public func stored(table: String) throws -> [StoredRecord] {
        try pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, body, startedAt, endedAt, mine FROM record WHERE tableID = ? OR id = ?",
                arguments: [table, table]
            ).map {
                StoredRecord(
                    id: $0["id"], body: String(decoding: $0["body"] as Data, as: UTF8.self), startedAt: $0["startedAt"],
                    endedAt: $0["endedAt"], mine: $0["mine"])
            }
        }
    }

    public func close() throws { try pool.close() }
}
