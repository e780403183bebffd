import Foundation

/// What `tavolo history`, `scores` and `show` receive from a node's records (TavoloRecords): plain values, so
/// the client links no database.

/// One recorded game, as `history` lists it.
public struct RecordSummary: Codable, Sendable, Equatable {
    public struct Seat: Codable, Sendable, Equatable {
        public var seat: Int
        public var name: String
        public var node: String
        /// The bot kind; nil for a human.
        public var bot: String?
        public var score: Int?
        public var won: Bool

        public init(seat: Int, name: String, node: String, bot: String?, score: Int?, won: Bool) {
            self.seat = seat
            self.name = name
            self.node = node
            self.bot = bot
            self.score = score
            self.won = won
        }
    }

    /// A member that left the game during play (a forfeit, PROTOCOL.md §9.12): a bot played its seats on.
    public struct Forfeit: Codable, Sendable, Equatable {
        public var name: String
        public var node: String
        public var seats: [Int]

        public init(name: String, node: String, seats: [Int]) {
            self.name = name
            self.node = node
            self.seats = seats
        }
    }

    public var id: String
    public var table: String
    public var game: String
    /// `finished` or `stopped` (PROTOCOL.md §11.1).
    public var outcome: String
    public var stopCode: String?
    public var seats: [Seat]
    /// Members that left during play; absent when none did.
    public var forfeited: [Forfeit]?
    public var moves: Int
    public var startedAt: Int64?
    public var endedAt: Int64
    /// This node took part in the game (it owns a seat).
    public var mine: Bool
    /// `local` (played here), `import` (from games/*.json) or `peer` (received and verified).
    public var source: String
    /// Signed by every node that must sign it (PROTOCOL.md §11.7); false for a record from before signatures, or
    /// one still waiting for a member's signature: shown, never counted on a leaderboard.
    public var verified: Bool = true

    public init(
        id: String, table: String, game: String, outcome: String, stopCode: String?, seats: [Seat], moves: Int,
        startedAt: Int64?, endedAt: Int64, mine: Bool, source: String
    ) {
        self.id = id
        self.table = table
        self.game = game
        self.outcome = outcome
        self.stopCode = stopCode
        self.seats = seats
        self.moves = moves
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.mine = mine
        self.source = source
    }
}

/// The leaderboards of every game and the achievements earned.
public struct ScoreBoard: Codable, Sendable, Equatable {
    public struct Line: Codable, Sendable, Equatable {
        /// A person's node name (the newest its records give), or a bot kind.
        public var player: String
        /// A person's node id: people are counted by id, whose signature their games carry (§11.7); absent for a bot.
        public var node: String?
        public var games: Int
        public var wins: Int
        /// wins / games, rounded to 3 decimals.
        public var winRate: Double
        /// The game's own measure (ghosts, points, discs): total, best (lowest ghosts, most points or discs).
        public var totalScore: Int
        /// Absent when none of the player's games has a score of its own (it only ever left them, §11.6).
        public var bestScore: Int?

        public init(player: String, games: Int, wins: Int, totalScore: Int, bestScore: Int?) {
            self.player = player
            self.games = games
            self.wins = wins
            winRate = games == 0 ? 0 : (Double(wins) / Double(games) * 1000).rounded() / 1000
            self.totalScore = totalScore
            self.bestScore = bestScore
        }

        public init(player: String, node: String?, games: Int, wins: Int, totalScore: Int, bestScore: Int?) {
            self.init(player: player, games: games, wins: wins, totalScore: totalScore, bestScore: bestScore)
            self.node = node
        }
    }

    public struct Game: Codable, Sendable, Equatable {
        public var game: String
        public var scoreName: String
        public var lowerScoreIsBetter: Bool
        /// Finished signed games recorded (leaderboards count only these).
        public var finished: Int
        public var stopped: Int
        /// Records kept without every signature they need (§11.7): counted nowhere.
        public var unverified: Int = 0
        public var humans: [Line]
        public var bots: [Line]

        public init(
            game: String, scoreName: String, lowerScoreIsBetter: Bool, finished: Int, stopped: Int, humans: [Line],
            bots: [Line]
        ) {
            self.game = game
            self.scoreName = scoreName
            self.lowerScoreIsBetter = lowerScoreIsBetter
            self.finished = finished
            self.stopped = stopped
            self.humans = humans
            self.bots = bots
        }
    }

    public struct Achievement: Codable, Sendable, Equatable {
        public var player: String
        /// A person's node id (absent for a bot).
        public var node: String?
        public var bot: Bool
        public var game: String
        /// Stable code, e.g. `othello/wipe-out`.
        public var code: String
        public var title: String
        /// How many times it was earned.
        public var times: Int

        public init(player: String, bot: Bool, game: String, code: String, title: String, times: Int) {
            self.player = player
            self.bot = bot
            self.game = game
            self.code = code
            self.title = title
            self.times = times
        }
    }

    public var games: [Game]
    public var achievements: [Achievement]

    public init(games: [Game], achievements: [Achievement]) {
        self.games = games
        self.achievements = achievements
    }
}

/// A stored record with its body, for `tavolo show` (the client replays it with its own engines).
public struct StoredRecord: Codable, Sendable, Equatable {
    public var id: String
    /// The record body: canonical JSON text (PROTOCOL.md §11.1).
    public var body: String
    public var startedAt: Int64?
    public var endedAt: Int64
    public var mine: Bool

    public init(id: String, body: String, startedAt: Int64?, endedAt: Int64, mine: Bool) {
        self.id = id
        self.body = body
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.mine = mine
    }
}
