import Foundation
import GRDB
import TavoloCore
import TavoloRecordFormat

extension RecordStore {
    /// Recorded games, newest first: of `game`, and with a seat named `player`, when given.
    public func history(game: String?, player: String?, limit: Int = 200) throws -> [RecordSummary] {
        try pool.read { db in
            var sql = "SELECT * FROM record r WHERE 1"
            var args: [(any DatabaseValueConvertible)?] = []
            if let player {
                // The player's latest seats through (name, endedAt), newest first, stopping early: `limit` records
                // need at most `limit` x 6 seats (a name may sit at every seat of a six-player game). Ties on
                // endedAt are broken by id as below, so the prefix holds the records the outer query picks.
                sql += """
                     AND (r.id IN (SELECT s.recordID FROM seat s WHERE s.name = ?\(game == nil ? "" : " AND s.game = ?")
                                   ORDER BY s.endedAt DESC, s.recordID LIMIT ?)
                          OR r.id IN (SELECT f.recordID FROM forfeit f WHERE f.name = ?\(game == nil ? "" : " AND f.game = ?")
                                      ORDER BY f.endedAt DESC, f.recordID LIMIT ?))
                    """
                for _ in 0..<2 {
                    args.append(player)
                    if let game { args.append(game) }
                    args.append(limit * 6)
                }
            } else if let game {
                sql += " AND r.game = ?"
                args.append(game)
            }
            sql += " ORDER BY r.endedAt DESC, r.id LIMIT ?"
            args.append(limit)
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args))
            return try rows.map { row in
                let id: String = row["id"]
                let seats = try Row.fetchAll(
                    db, sql: "SELECT * FROM seat WHERE recordID = ? ORDER BY seat", arguments: [id]
                ).map {
                    RecordSummary.Seat(
                        seat: $0["seat"], name: $0["name"], node: $0["node"], bot: $0["bot"], score: $0["score"],
                        won: $0["won"])
                }
                let forfeits = try Row.fetchAll(
                    db, sql: "SELECT * FROM forfeit WHERE recordID = ? ORDER BY seats, node", arguments: [id]
                ).map { f -> RecordSummary.Forfeit in
                    let seats: String = f["seats"]
                    return RecordSummary.Forfeit(
                        name: f["name"], node: f["node"], seats: seats.split(separator: ",").compactMap { Int($0) })
                }
                var summary = RecordSummary(
                    id: id, table: row["tableID"], game: row["game"], outcome: row["outcome"],
                    stopCode: row["stopCode"], seats: seats, moves: row["moveCount"], startedAt: row["startedAt"],
                    endedAt: row["endedAt"], mine: row["mine"], source: row["source"])
                summary.verified = row["verified"]
                summary.forfeited = forfeits.isEmpty ? nil : forfeits
                return summary
            }
        }
    }

    /// Leaderboards per game (finished games only; people by name, bots by kind, apart) and achievements.
    public func scores(game: String?, catalog: GameCatalog) throws -> ScoreBoard {
        try pool.read { db in
            ScoreBoard(
                games: try Self.leaderboards(db, game: game, catalog: catalog),
                achievements: try Self.achievements(db, game: game))
        }
    }

    /// One leaderboard per game that has records (or `game`'s alone), from the standings kept at insert.
    static func leaderboards(_ db: Database, game: String?, catalog: GameCatalog) throws -> [ScoreBoard.Game] {
        let gameFilter = game == nil ? "" : " AND r.game = ?"
        let gameArgs: StatementArguments = game.map { [$0] } ?? []
        let counts = try Row.fetchAll(
            db,
            sql: """
                SELECT r.game, SUM(r.verified AND r.outcome = 'finished') AS finished,
                       SUM(r.verified AND r.outcome != 'finished') AS other, SUM(NOT r.verified) AS unverified
                FROM record r WHERE 1\(gameFilter) GROUP BY r.game ORDER BY r.game
                """, arguments: gameArgs)
        return try counts.map { c in
            let name: String = c["game"]
            let entry = catalog[name]
            let lower = entry?.lowerScoreIsBetter ?? false
            let lines = try Row.fetchAll(
                db,
                sql: """
                    SELECT isBot, player, games, wins, total,
                           \(lower ? "minScore" : "maxScore") AS best, \(Self.personName) AS name
                    FROM standing WHERE game = ? ORDER BY isBot, wins DESC, games DESC, player
                    """, arguments: [name]
            ).map { row -> (Bool, ScoreBoard.Line) in
                (
                    row["isBot"],
                    ScoreBoard.Line(
                        player: row["name"] ?? row["player"], node: row["isBot"] ? nil : row["player"],
                        games: row["games"], wins: row["wins"], totalScore: row["total"], bestScore: row["best"])
                )
            }
            var board = ScoreBoard.Game(
                game: name, scoreName: entry?.scoreName ?? "score", lowerScoreIsBetter: lower,
                finished: c["finished"], stopped: c["other"], humans: lines.filter { !$0.0 }.map(\.1),
                bots: lines.filter { $0.0 }.map(\.1))
            board.unverified = c["unverified"]
            return board
        }
    }

    /// Who earned each achievement (of `game`, or of every game), people and bots apart.
    static func achievements(_ db: Database, game: String?) throws -> [ScoreBoard.Achievement] {
        var achievements: [ScoreBoard.Achievement] = []
        for a in Achievements.all where game == nil || game == a.game {
            // Ten wins is read from the standings; every other achievement is counted in `earned` at insert.
            let rows =
                a.code == "\(a.game)/ten-wins"
                ? try Row.fetchAll(
                    db,
                    sql: """
                        SELECT isBot, player, 1 AS times, \(Self.personName) AS name FROM standing
                        WHERE game = ? AND wins >= 10 ORDER BY isBot, player
                        """,
                    arguments: [a.game])
                : try Row.fetchAll(
                    db,
                    sql: """
                        SELECT isBot, player, times, \(Self.personName) AS name FROM earned
                        WHERE game = ? AND code = ? ORDER BY isBot, player
                        """,
                    arguments: [a.game, a.code])
            achievements += rows.map {
                var line = ScoreBoard.Achievement(
                    player: $0["name"] ?? $0["player"], bot: $0["isBot"], game: a.game, code: a.code,
                    title: a.title, times: $0["times"])
                line.node = $0["isBot"] ? nil : $0["player"]
                return line
            }
        }
        return achievements
    }

    /// A person's name in a row keyed by node id (`player`): the newest name its seats or forfeits give.
    static let personName = """
        CASE WHEN isBot THEN NULL ELSE COALESCE(
            (SELECT name FROM seat WHERE seat.node = player AND seat.bot IS NULL ORDER BY endedAt DESC LIMIT 1),
            (SELECT name FROM forfeit WHERE forfeit.node = player ORDER BY endedAt DESC LIMIT 1)) END
        """
}
