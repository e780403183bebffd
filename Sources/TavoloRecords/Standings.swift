import Foundation
import GRDB
import TavoloCore
import TavoloRecordFormat

/// Leaderboards and achievements kept up to date as records are stored, so `scores` reads a few rows per
/// player instead of scanning every game (measured: 4.5 s with 100,000 games when scanning; see README).
/// `standing` holds one row per game and player (people by name, bots by kind); `earned` counts each
/// achievement per player. Both are derived data: migration v2 fills them from the records stored before it,
/// with the SQL of `Achievements.all`, and every insert then adds to them with `Achievement.earnedBy`, which must
/// agree with that SQL (a test checks it).
enum Standings {
    static func migrate(_ m: inout DatabaseMigrator) {
        m.registerMigration("v2-standings") { db in
            try db.create(table: "standing") { t in
                t.column("game", .text).notNull()
                t.column("isBot", .boolean).notNull()
                t.column("player", .text).notNull()
                t.column("games", .integer).notNull()
                t.column("wins", .integer).notNull()
                t.column("total", .integer).notNull()
                t.column("minScore", .integer)
                t.column("maxScore", .integer)
                t.primaryKey(["game", "isBot", "player"])
            }
            try db.create(table: "earned") { t in
                t.column("game", .text).notNull()
                t.column("code", .text).notNull()
                t.column("isBot", .boolean).notNull()
                t.column("player", .text).notNull()
                t.column("times", .integer).notNull()
                t.primaryKey(["game", "code", "isBot", "player"])
            }
            // Games per game and outcome, counted from the index alone.
            try db.create(index: "record_game_outcome", on: "record", columns: ["game", "outcome"])
            try db.execute(
                sql: """
                    INSERT INTO standing (game, isBot, player, games, wins, total, minScore, maxScore)
                    SELECT r.game, s.bot IS NOT NULL, COALESCE(s.bot, s.name), COUNT(*), SUM(s.won),
                           COALESCE(SUM(s.score), 0), MIN(s.score), MAX(s.score)
                    FROM seat s JOIN record r ON r.id = s.recordID WHERE r.outcome = 'finished'
                    GROUP BY r.game, s.bot IS NOT NULL, COALESCE(s.bot, s.name)
                    """)
            for a in Achievements.all where a.code != "\(a.game)/ten-wins" {
                try db.execute(
                    sql:
                        "INSERT INTO earned (game, code, isBot, player, times) SELECT ?, ?, isBot, player, times FROM (\(a.v2SQL))",
                    arguments: [a.game, a.code, a.game])
            }
        }
    }

    /// Members that left a game during play (PROTOCOL.md §9.12, a forfeit): their seats were played on by a bot,
    /// and the record names the bot, so without this table leaving a game one is losing would keep it off one's
    /// record. Each forfeit counts, for a finished game, a game played and not won by the member's name (§11.6),
    /// and `history --player` lists the game. (A member voted out after losing its connection is not counted.)
    static func migrateForfeits(_ m: inout DatabaseMigrator) {
        m.registerMigration("v4-forfeits") { db in
            try db.create(table: "forfeit") { t in
                t.column("recordID", .text).notNull().references("record", onDelete: .cascade)
                t.column("node", .text).notNull()
                t.column("name", .text).notNull().indexed()
                // The seats it left, as "1" or "1,3".
                t.column("seats", .text).notNull()
                t.column("game", .text).notNull()
                t.column("endedAt", .integer).notNull()
                t.primaryKey(["recordID", "node"])
            }
            // Records stored before this migration (received from nodes that wrote takeovers) count too.
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, body, endedAt FROM record WHERE instr(CAST(body AS TEXT), '\"takeovers\"') > 0")
            for row in rows {
                let bytes: Data = row["body"]
                guard let b = try? CanonicalJSON.decode(RecordBody.self, [UInt8](bytes)) else { continue }
                try addForfeits(b, recordID: row["id"], endedAt: row["endedAt"], db)
            }
        }
    }

    /// The 60–60 draw was counted for three- and five-player Briscola too (60 there is no draw): counted again.
    static func migrateBriscolaDraws(_ m: inout DatabaseMigrator) {
        m.registerMigration("v7-briscola-draws-of-two-sides") { db in
            guard let draw = Achievements.all.first(where: { $0.code == "briscola/draw" }) else { return }
            try db.execute(sql: "DELETE FROM earned WHERE code = ?", arguments: [draw.code])
            try db.execute(
                sql:
                    "INSERT INTO earned (game, code, isBot, player, times) SELECT ?, ?, isBot, player, times FROM (\(draw.sql))",
                arguments: [draw.game, draw.code, draw.game])
        }
    }

    /// Whether a forfeit carries the member's own signature of it (§11.7): with it the loss counts without the
    /// member's signature of the record, which it never sees the end of.
    static func migrateSignedForfeits(_ m: inout DatabaseMigrator) {
        m.registerMigration("v6-signed-forfeits") { db in
            try db.alter(table: "forfeit") { t in t.add(column: "signed", .boolean).notNull().defaults(to: false) }
        }
    }

    /// The forfeits of one record, as rows of `forfeit` (inside the insert's transaction), for `history`. They count
    /// on the leaderboards only through `add`, in a signed record that the member who left signed too, or with its
    /// signature of the forfeit itself (§11.7).
    static func addForfeits(_ b: RecordBody, recordID: String, endedAt: Int64, _ db: Database) throws {
        let signed = RecordSignature.signedForfeits(of: b)
        for t in b.takeovers ?? [] where t.forfeit {
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO forfeit (recordID, node, name, seats, game, endedAt, signed)
                    VALUES (?,?,?,?,?,?,?)
                    """
            ).execute(
                arguments: [
                    recordID, t.member, t.name, t.seats.map(String.init).joined(separator: ","), b.game, endedAt,
                    signed.contains(t.member),
                ])
        }
    }

    /// Whether `member`'s forfeit of `table` already counted in another record (the members of a table may write
    /// records that differ; a forger may write more): a member leaves a table once, and loses it once.
    static func forfeitCounted(member: String, table: String, otherThan recordID: String, _ db: Database) throws -> Bool
    {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT 1 FROM forfeit f JOIN record r ON r.id = f.recordID
                WHERE f.node = ? AND r.tableID = ? AND r.id != ? AND r.outcome = 'finished' AND r.verified
                  AND (f.signed OR EXISTS (SELECT 1 FROM signature g WHERE g.recordID = f.recordID AND g.node = f.node))
                """, arguments: [member, table, recordID]) != nil
    }

    static func upsertStanding(game: String, isBot: Bool, player: String, won: Bool, score: Int?, _ db: Database) throws
    {
        try db.cachedStatement(
            sql: """
                INSERT INTO standing (game, isBot, player, games, wins, total, minScore, maxScore)
                VALUES (?, ?, ?, 1, ?, ?, ?, ?)
                ON CONFLICT (game, isBot, player) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
                  total = total + excluded.total,
                  minScore = MIN(COALESCE(minScore, excluded.minScore), COALESCE(excluded.minScore, minScore)),
                  maxScore = MAX(COALESCE(maxScore, excluded.maxScore), COALESCE(excluded.maxScore, maxScore))
                """
        ).execute(arguments: [game, isBot, player, won, score ?? 0, score, score])
    }

    /// Adds one signed, finished record's seats to the standings and achievements (inside the transaction that
    /// stores it or completes its signatures). People are counted by node id, whose signature the record carries
    /// (a name is anybody's to take); bots by kind. A member that left counts the game as lost only when it signed
    /// the record (`signers`) or its forfeit: otherwise anyone could charge anyone with a loss.
    static func add(_ b: RecordBody, recordID: String, signers: Set<String>, _ db: Database) throws {
        guard b.outcome == .finished else { return }
        // Checked once, when `addForfeits` wrote the rows (an Ed25519 check each): read back, not checked again.
        let signedForfeits = Set(
            try String.fetchAll(
                db, sql: "SELECT node FROM forfeit WHERE recordID = ? AND signed", arguments: [recordID]))
        for t in b.takeovers ?? [] where t.forfeit && (signers.contains(t.member) || signedForfeits.contains(t.member))
        {
            guard try !forfeitCounted(member: t.member, table: b.table, otherThan: recordID, db) else { continue }
            try upsertStanding(game: b.game, isBot: false, player: t.member, won: false, score: nil, db)
        }
        for s in b.seats where !(b.cheaters ?? []).contains(s.node) {
            // A racer that gave up is not ranked (§10.3): its moves are no result, least of all a best one.
            let ranked = b.ranking?.contains(s.seat) ?? true
            let score: Int? = ranked && b.scores.indices.contains(s.seat) ? b.scores[s.seat] : nil
            let won = b.winners.contains(s.seat)
            let key: [DatabaseValueConvertible?] = [b.game, s.bot != nil, s.bot ?? s.node]
            try upsertStanding(game: b.game, isBot: s.bot != nil, player: s.bot ?? s.node, won: won, score: score, db)
            for a in Achievements.all where a.earnedBy(b, s.seat) {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO earned (game, code, isBot, player, times) VALUES (?, ?, ?, ?, 1)
                        ON CONFLICT (game, code, isBot, player) DO UPDATE SET times = times + 1
                        """
                ).execute(arguments: StatementArguments([a.game, a.code] + key.dropFirst()))
            }
        }
    }
}

extension Standings {
    /// The standings as every signed record gives them: every seat of a signed, finished game, and every member that
    /// forfeited one and signed the record or the forfeit, once per table (played, not won, no score). Rows of
    /// `standing`, in its columns' order.
    static let recountSQL = """
        SELECT game, isBot, p, COUNT(*), SUM(won), COALESCE(SUM(score), 0), MIN(score), MAX(score) FROM (
            SELECT r.game AS game, s.bot IS NOT NULL AS isBot, COALESCE(s.bot, s.node) AS p, s.won AS won,
                   s.score AS score
            FROM seat s JOIN record r ON r.id = s.recordID WHERE r.outcome = 'finished' AND r.verified
            UNION ALL
            SELECT MIN(r.game), 0, f.node, 0, NULL
            FROM forfeit f JOIN record r ON r.id = f.recordID
            WHERE r.outcome = 'finished' AND r.verified
              AND (f.signed
                   OR EXISTS (SELECT 1 FROM signature g WHERE g.recordID = f.recordID AND g.node = f.node))
            GROUP BY f.node, r.tableID)
        GROUP BY game, isBot, p ORDER BY 1, 2, 3
        """

    /// Counts the standings and achievements again from the signed records (after a rule of §11.7 changed which
    /// records are signed).
    static func recount(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM standing")
        try db.execute(
            sql: "INSERT INTO standing (game, isBot, player, games, wins, total, minScore, maxScore) \(recountSQL)")
        try db.execute(sql: "DELETE FROM earned")
        for a in Achievements.all where a.code != "\(a.game)/ten-wins" {
            try db.execute(
                sql: "INSERT INTO earned (game, code, isBot, player, times) "
                    + "SELECT ?, ?, isBot, player, times FROM (\(a.sql))",
                arguments: [a.game, a.code, a.game])
        }
    }
}

extension Achievement {
    /// Whether `seat` of a finished record earned it: the same rule as `sql` (ten-wins is read from the
    /// standings instead).
    func earnedBy(_ b: RecordBody, _ seat: Int) -> Bool {
        guard b.game == game else { return false }
        let score: Int? = b.scores.indices.contains(seat) ? b.scores[seat] : nil
        let won = b.winners.contains(seat)
        switch code.split(separator: "/").last ?? "" {
        case "first-win": return won
        case "no-ghost": return score == 0
        case "over-ninety": return (score ?? 0) > 90
        case "draw": return score == 60 && [2, 4].contains(b.players)
        case "wipe-out": return won && b.scores.indices.contains { $0 != seat && b.scores[$0] == 0 }
        case "landslide": return won && (score ?? 0) >= 50
        default: return false
        }
    }
}

extension RecordStore {
    /// The standings and achievements as stored, and as computed from every record by the migration's SQL:
    /// equal when `Standings.add` and `Achievements.all` agree (a test checks it).
    func standingsCheck() throws -> (stored: [[String]], recomputed: [[String]]) {
        try pool.read { db in
            func rows(_ sql: String, _ args: StatementArguments = []) throws -> [[String]] {
                try Row.fetchAll(db, sql: sql, arguments: args).map { r in r.databaseValues.map { "\($0)" } }
            }
            var stored = try rows(
                "SELECT game, isBot, player, games, wins, total, minScore, maxScore FROM standing ORDER BY 1, 2, 3")
            var recomputed = try rows(Standings.recountSQL)
            for a in Achievements.all where a.code != "\(a.game)/ten-wins" {
                stored += try rows(
                    "SELECT code, isBot, player, times FROM earned WHERE code = ? ORDER BY isBot, player", [a.code])
                recomputed += try rows("SELECT ?, isBot, player, times FROM (\(a.sql))", [a.code, a.game])
            }
            return (stored, recomputed)
        }
    }
}
