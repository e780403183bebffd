/// Achievements, computed from the records each time `scores` asks (nothing stored: a record received later,
/// or a rebuilt database, gives the same list). Each is one SQL query over finished games of one game, giving
/// `player`, `isBot` and `times` per player who earned it (people by name, bots by kind, as the leaderboards).
struct Achievement: Sendable {
    let game: String
    let code: String
    let title: String
    /// Selects the seats that earned it.
    let cond: String
    var having: String = ""

    /// Seats of signed, finished games of the game (`?` is the game's name), people by node id (§11.7).
    var sql: String {
        """
        SELECT s.bot IS NOT NULL AS isBot, COALESCE(s.bot, s.node) AS player, COUNT(*) AS times
        FROM seat s JOIN record r ON r.id = s.recordID
        WHERE r.outcome = 'finished' AND r.verified AND r.game = ? AND (\(cond))
        GROUP BY isBot, player \(having) ORDER BY isBot, player
        """
    }

    /// The query migration v2 ran (every finished game, people by name), kept as it was: a migration never changes.
    var v2SQL: String {
        """
        SELECT s.bot IS NOT NULL AS isBot, COALESCE(s.bot, s.name) AS player, COUNT(*) AS times
        FROM seat s JOIN record r ON r.id = s.recordID
        WHERE r.outcome = 'finished' AND r.game = ? AND (\(cond))
        GROUP BY isBot, player \(having) ORDER BY isBot, player
        """
    }

    static func opponentWith(_ cond: String) -> String {
        "EXISTS (SELECT 1 FROM seat o WHERE o.recordID = s.recordID AND o.seat != s.seat AND (\(cond)))"
    }
}

enum Achievements {
    static let all: [Achievement] =
        ["spirits", "briscola", "othello"].flatMap { game in
            [
                Achievement(game: game, code: "\(game)/first-win", title: "first win", cond: "s.won"),
                Achievement(
                    game: game, code: "\(game)/ten-wins", title: "ten wins",
                    cond: "s.won", having: "HAVING COUNT(*) >= 10"),
            ]
        } + [
            Achievement(
                game: "spirits", code: "spirits/no-ghost", title: "a game without a single ghost",
                cond: "s.score = 0"),
            Achievement(
                game: "briscola", code: "briscola/over-ninety", title: "more than 90 of the 120 points",
                cond: "s.score > 90"),
            Achievement(
                // Only two sides can draw 60–60: with three players 60 is a win, with five a side's 60 is a loss or a
                // win by the bid (Protocol/games/briscola.md, Outcome).
                game: "briscola", code: "briscola/draw", title: "a 60–60 draw",
                cond: "s.score = 60 AND r.players IN (2, 4)"),
            Achievement(
                game: "othello", code: "othello/wipe-out", title: "a wipe-out: the opponent has no disc left",
                cond: "s.won AND " + Achievement.opponentWith("o.score = 0")),
            Achievement(
                game: "othello", code: "othello/landslide", title: "a win with 50 discs or more",
                cond: "s.won AND s.score >= 50"),
        ]
}
