import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Issue 37's card-game goals: the searching Spirits! level against five heuristic seats, the searching Briscola
/// level against the strong bot in both seat orders. Games through the engines in one process, seeded; each bot
/// decides from its seat's observation as at a table.
struct CardSearchMatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card-search",
        abstract: "Spirits! and Briscola searching levels against the heuristic and strong bots: win rates, CPU/move.")

    @Option(help: "Games per match (Spirits!: the bot takes each seat in turn; Briscola: each deal in both orders).")
    var games = 2000

    @Option(help: "Seed of the first deal.")
    var seed: UInt64 = 1

    @Option(help: "Games played at once, each on its own thread; the figures do not depend on it.")
    var jobs = 1

    @Option(help: "Which matches: spirits, briscola or both.")
    var game = "both"

    @Option(help: "Spirits!: the bot kind to measure.")
    var spiritsBot = "expert"

    @Option(help: "Spirits!: instead, a search bot with this many play-outs per move (for tuning).")
    var spiritsPlayouts: Int?

    @Option(help: "Spirits!: the tuning bot plays out to the end of the game, not of the round.")
    var spiritsToGameEnd = false

    @Option(help: "Briscola: the bot kind to measure.")
    var briscolaBot = "expert"

    @Option(help: "Briscola: the opponent's kind.")
    var briscolaOpponent = "strong"

    @Option(help: "Briscola: instead, the strong bot with this many worlds (for tuning).")
    var briscolaWorlds: Int?

    @Option(help: "Briscola: instead, the expert bot with its exact ending from this pile size on (for tuning).")
    var briscolaEndgamePile: Int?

    @Option(help: "Briscola tuning: the expert's win bonus.")
    var briscolaWinBonus = 120

    @Option(help: "Briscola tuning: the expert solves play-outs exactly once the pile is empty (0 or 1).")
    var briscolaExactAfterPile = 1

    @Option(help: "Briscola tuning: weight of a world where the opponent's lead is not the emulator's.")
    var briscolaOffLead = 0.3

    func validate() throws {
        guard games > 0 else { throw ValidationError("--games must be positive") }
        guard jobs > 0 else { throw ValidationError("--jobs must be positive") }
        guard ["spirits", "briscola", "both"].contains(game) else {
            throw ValidationError("--game is spirits, briscola or both")
        }
    }

    func run() throws {
        if game != "briscola" { try spirits() }
        if game != "spirits" { try briscola() }
    }

    func spirits() throws {
        let all = [BotFactory<SpiritsState>.spiritsRandom, .spiritsHeuristic] + BotFactory.spiritsLevels
        var bot = try factory(spiritsBot, in: all)
        if let n = spiritsPlayouts {
            let toRoundEnd = !spiritsToGameEnd
            bot = BotFactory(kind: "search/\(n)\(toRoundEnd ? "" : "/game")", summary: "") { seed, seat in
                SpiritsSearchBot(rng: botRNG(gameSeed: seed, seat: seat), playouts: n, toRoundEnd: toRoundEnd)
            }
        }
        let opponent = try factory("heuristic", in: all)
        let label = "spirits 6p: \(bot.kind) vs 5 heuristic"
        say("\(label): \(games) games from seed \(seed), the bot in seat g mod 6 of game g, deal seed + g / 6")
        let (first, measured) = (seed, bot)
        let results = try playGames(games, jobs: jobs) { g in
            let seat = g % 6
            let gameSeed = first &+ UInt64(g / 6)
            let seats = (0..<6).map { $0 == seat ? measured : opponent }
            return try Self.play(SpiritsState(players: 6, seed: gameSeed), seats, gameSeed, measured: seat)
        }
        MatchTally(results).report(label, fairShare: 1.0 / 6)
    }

    func briscola() throws {
        let all = BotFactory.briscolaLevels(BotFactory.briscolaBots)
        var bot = try factory(briscolaBot, in: all)
        if let w = briscolaWorlds {
            bot = BotFactory(kind: "strong/\(w)", summary: "") { seed, seat in
                BriscolaStrongBot(rng: botRNG(gameSeed: seed, seat: seat), worlds: w, kind: "strong/\(w)")
            }
        }
        if let pile = briscolaEndgamePile {
            let w = briscolaWorlds ?? BriscolaStrongBot.searchWorlds
            let (bonus, exact, off) = (briscolaWinBonus, briscolaExactAfterPile, briscolaOffLead)
            bot = BotFactory(kind: "expert/\(w)/\(pile)/\(bonus)/\(exact)/\(off)", summary: "") { seed, seat in
                var b = BriscolaExpertBot(rng: botRNG(gameSeed: seed, seat: seat), worlds: w, endgamePile: pile)
                b.winBonus = bonus
                b.exactAfterPile = exact != 0
                b.offLeadWeight = off
                return b
            }
        }
        let opponent = try factory(briscolaOpponent, in: all)
        let label = "briscola 2p: \(bot.kind) vs \(opponent.kind)"
        say("\(label): \(games) games from seed \(seed), each deal (seed + g / 2) in both seat orders")
        let (first, measured) = (seed, bot)
        let results = try playGames(games, jobs: jobs) { g in
            let seat = g % 2
            let gameSeed = first &+ UInt64(g / 2)
            let seats = seat == 0 ? [measured, opponent] : [opponent, measured]
            return try Self.play(BriscolaState(players: 2, seed: gameSeed), seats, gameSeed, measured: seat)
        }
        MatchTally(results).report(label, fairShare: 0.5)
    }

    func factory<S>(_ kind: String, in all: [BotFactory<S>]) throws -> BotFactory<S> {
        guard let f = all.first(where: { $0.kind == kind }) else {
            throw ValidationError("no bot \(kind); kinds: \(all.map(\.kind).joined(separator: ", "))")
        }
        return f
    }

    /// Plays one game to its end: its outcome for seat `measured`, and the CPU time of each of that seat's moves.
    static func play<S: GameState>(
        _ start: S, _ factories: [BotFactory<S>], _ gameSeed: UInt64, measured: Int
    ) throws -> MatchTally.Game {
        var state = start
        var bots = factories.enumerated().map { seat, f in f.make(gameSeed, seat) }
        var moveSeconds: [Double] = []
        while case .seat(let seat) = state.turn {
            let t0 = threadCPUSeconds()
            let move = bots[seat].chooseMove(in: state, seat: seat)
            if seat == measured { moveSeconds.append(threadCPUSeconds() - t0) }
            try state.apply(move)
        }
        guard let outcome = state.outcome else { throw ValidationError("a game ended without an outcome") }
        return MatchTally.Game(outcome: outcome, seat: measured, moveSeconds: moveSeconds)
    }
}

/// Results of one match from the measured bot's side: a shared win counts as its share.
struct MatchTally {
    /// One game as the measured seat saw it.
    struct Game: Sendable {
        var outcome: GameOutcome
        var seat: Int
        var moveSeconds: [Double]
    }

    var shares: [Double] = []
    var draws = 0
    var moveSeconds: [Double] = []

    init(_ games: [Game]) {
        for game in games {
            add(outcome: game.outcome, seat: game.seat)
            moveSeconds += game.moveSeconds
        }
    }

    mutating func add(outcome: GameOutcome, seat: Int) {
        if outcome.winners.isEmpty { draws += 1 }
        shares.append(outcome.winners.contains(seat) ? 1.0 / Double(outcome.winners.count) : 0)
    }

    /// Win rate with its 95% confidence interval (normal approximation over the games), and CPU per move.
    func report(_ label: String, fairShare: Double) {
        let n = Double(shares.count)
        let mean = shares.reduce(0, +) / n
        let variance = shares.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / max(1, n - 1)
        let half = 1.96 * (variance / n).squareRoot()
        let sorted = moveSeconds.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        let meanMove = sorted.reduce(0, +) / Double(max(1, sorted.count))
        say(
            "  \(label): "
                + String(
                    format:
                        "win rate %.1f%% (95%% CI %.1f-%.1f%%; fair share %.1f%%), draws %d, %d games; CPU per move median %.1f ms, mean %.1f ms, max %.1f ms (%d moves)",
                    100 * mean, 100 * (mean - half), 100 * (mean + half), 100 * fairShare, draws, shares.count,
                    1000 * median, 1000 * meanMove, 1000 * (sorted.last ?? 0), sorted.count))
    }
}
