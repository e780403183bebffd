import Foundation
import GRDB
import TavoloControl

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
                    sql: "INSERT INTO earned (game, code, isBot, player, times) SELECT ?, ?, isBot, player, times FROM (\(a.sql))",
                    arguments: [a.game, a.code, a.game])
            }
        }
    }

    /// Adds one finished record's seats to the standings and achievements (inside the insert's transaction).
    static func add(_ b: RecordBody, _ db: Database) throws {
        guard b.outcome == .finished else { return }
        for s in b.seats {
            let score: Int? = b.scores.indices.contains(s.seat) ? b.scores[s.seat] : nil
            let won = b.winners.contains(s.seat)
            let key: [DatabaseValueConvertible?] = [b.game, s.bot != nil, s.bot ?? s.name]
            try db.cachedStatement(
                sql: """
                    INSERT INTO standing (game, isBot, player, games, wins, total, minScore, maxScore)
                    VALUES (?, ?, ?, 1, ?, ?, ?, ?)
                    ON CONFLICT (game, isBot, player) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
                      total = total + excluded.total, minScore = MIN(COALESCE(minScore, excluded.minScore), excluded.minScore),
                      maxScore = MAX(COALESCE(maxScore, excluded.maxScore), excluded.maxScore)
                    """
            ).execute(arguments: StatementArguments(key + [won, score ?? 0, score, score]))
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
        case "draw": return score == 60
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
            var recomputed = try rows(
                """
                SELECT r.game, s.bot IS NOT NULL, COALESCE(s.bot, s.name) AS p, COUNT(*), SUM(s.won),
                       COALESCE(SUM(s.score), 0), MIN(s.score), MAX(s.score)
                FROM seat s JOIN record r ON r.id = s.recordID WHERE r.outcome = 'finished'
                GROUP BY r.game, s.bot IS NOT NULL, p ORDER BY 1, 2, 3
                """)
            for a in Achievements.all where a.code != "\(a.game)/ten-wins" {
                stored += try rows(
                    "SELECT code, isBot, player, times FROM earned WHERE code = ? ORDER BY isBot, player", [a.code])
                recomputed += try rows("SELECT ?, isBot, player, times FROM (\(a.sql))", [a.code, a.game])
            }
            return (stored, recomputed)
        }
    }
}
