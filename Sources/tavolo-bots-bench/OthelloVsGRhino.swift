import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Tavolo's Othello bots against GRhino (Debian's `grhino`, GTP front end `gtp-rhino`), a program nobody here wrote.
/// Games go in pairs: both games of a pair start from the same random opening (2–4 moves drawn from the pair's
/// seed) with the colours swapped, so neither side gains from a lucky opening; GRhino's own opening book adds
/// its variety on top. Every GRhino move is checked by Tavolo's engine (a disagreement is reported and ends the
/// game).
struct OthelloVsGRhino: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "othello-vs-grhino",
        abstract: "Play an Othello bot against gtp-rhino at a level and print the table.")

    @Option(
        name: .customLong("match"),
        help: ArgumentHelp("A bot kind against a GRhino level, BOT:LEVEL (repeatable).", valueName: "bot:level"))
    var matches: [String] = ["hard:3", "expert:5"]

    @Option(help: "Games per match (rounded up to an even number: colours alternate over pairs).")
    var games = 40

    @Option(help: "First opening seed; pair i uses seed + i.")
    var seed: UInt64 = 1

    @Option(help: "The GTP engine.")
    var engine = "/usr/games/gtp-rhino"

    @Flag(help: "One line per game on stderr.")
    var verbose = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        for m in matches { _ = try parse(m) }
        guard games > 0 else { throw ValidationError("--games must be at least 1") }
        guard FileManager.default.isExecutableFile(atPath: engine) else {
            throw ValidationError("\(engine) not found (apt-get install grhino)")
        }
    }

    func parse(_ match: String) throws -> (bot: String, level: Int) {
        let parts = match.split(separator: ":")
        let kinds = BotFactory<OthelloState>.othelloBots.map(\.kind)
        guard parts.count == 2, let level = Int(parts[1]), (1...5).contains(level), kinds.contains(String(parts[0]))
        else {
            throw ValidationError(
                "bad --match '\(match)': give BOT:LEVEL, BOT one of \(kinds.joined(separator: ", ")), LEVEL 1-5")
        }
        return (String(parts[0]), level)
    }

    func run() throws {
        var rows: [MatchRow] = []
        if !json {
            say(
                "othello vs GRhino (\(engine)), \(games + games % 2) games a match, colours alternated, seeded openings"
            )
            say(MatchRow.header)
        }
        for m in matches {
            let (bot, level) = try parse(m)
            var row = MatchRow(bot: bot, level: level)
            for g in 0..<(games + games % 2) {
                let game = try playGame(bot: bot, level: level, pair: g / 2, ourSeat: g % 2)
                row.add(game)
                if verbose {
                    let line =
                        "\(bot) vs level \(level) game \(g + 1): \(bot) \(g % 2 == 0 ? "black" : "white"), "
                        + "disc difference \(game.discDifference), max \(String(format: "%.3f", game.maxSeconds)) s\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
            if !json {
                print(row.line)
            }
            rows.append(row)
        }
        if json {
            let data = try JSONSerialization.data(
                withJSONObject: ["matches": rows.map(\.dictionary)], options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// One game: our bot at `ourSeat` (0 black), GRhino the other colour, from the opening of pair `pair`.
    func playGame(bot: String, level: Int, pair: Int, ourSeat: Int) throws -> GameResult {
        let rhino = try GTPEngine(path: engine, arguments: ["-l", String(level)])
        try rhino.send("boardsize 8")
        try rhino.send("clear_board")
        let gameSeed = seed &+ UInt64(pair)
        var state = try OthelloState(players: 2, seed: gameSeed)
        var openingRNG = TavoloRNG(seed: gameSeed, stream: 0x0BE0)
        for _ in 0..<(2 + openingRNG.below(3)) {
            let moves = state.legalMoves()
            let move = moves[openingRNG.below(moves.count)]
            try rhino.send("play \(colour(state.toMove)) \(move)")
            try state.apply(move)
        }
        guard let factory = BotFactory<OthelloState>.othelloBots.first(where: { $0.kind == bot }) else {
            throw ValidationError("no bot \(bot)")
        }
        var ours = factory.make(gameSeed, ourSeat)
        var result = GameResult()
        while case .seat(let seat) = state.turn {
            let move: OthelloMove
            if seat == ourSeat {
                let start = DispatchTime.now().uptimeNanoseconds
                let cpuStart = threadCPUSeconds()
                move = ours.chooseMove(in: state, seat: seat)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let cpu = threadCPUSeconds() - cpuStart
                // GRhino passes for a side without a placement by itself and refuses `play COLOUR pass`.
                if !move.isPass {
                    result.noteMove(seconds, cpu: cpu)
                    try rhino.send("play \(colour(seat)) \(move)")
                }
            } else {
                let answer = try rhino.send("genmove \(colour(seat))")
                guard let m = OthelloMove(name: answer) else {
                    throw GTPEngine.Failure(description: "GRhino answered '\(answer)', not a move")
                }
                move = m
            }
            do { try state.apply(move) } catch {
                throw GTPEngine.Failure(description: "rules disagreement: \(move) by seat \(seat): \(error)")
            }
            result.moves += 1
        }
        let discs = state.discs
        result.discDifference = discs[ourSeat] - discs[1 - ourSeat]
        return result
    }

    func colour(_ seat: Int) -> String { seat == 0 ? "black" : "white" }
}

/// One game's figures, from our bot's side.
struct GameResult {
    var discDifference = 0
    var moves = 0
    var thinkingMoves = 0
    var totalSeconds = 0.0
    var maxSeconds = 0.0
    var totalCPU = 0.0
    var maxCPU = 0.0

    mutating func noteMove(_ seconds: Double, cpu: Double) {
        thinkingMoves += 1
        totalSeconds += seconds
        maxSeconds = max(maxSeconds, seconds)
        totalCPU += cpu
        maxCPU = max(maxCPU, cpu)
    }
}

/// A match's line of the table.
struct MatchRow {
    let bot: String
    let level: Int
    var games = 0
    var wins = 0
    var draws = 0
    var losses = 0
    var discSum = 0
    var thinkingMoves = 0
    var totalSeconds = 0.0
    var maxSeconds = 0.0
    var totalCPU = 0.0
    var maxCPU = 0.0

    mutating func add(_ g: GameResult) {
        games += 1
        if g.discDifference > 0 { wins += 1 } else if g.discDifference < 0 { losses += 1 } else { draws += 1 }
        discSum += g.discDifference
        thinkingMoves += g.thinkingMoves
        totalSeconds += g.totalSeconds
        maxSeconds = max(maxSeconds, g.maxSeconds)
        totalCPU += g.totalCPU
        maxCPU = max(maxCPU, g.maxCPU)
    }

    var winRate: Double { games == 0 ? 0 : Double(wins) / Double(games) }
    var meanDiscDifference: Double { games == 0 ? 0 : Double(discSum) / Double(games) }
    var meanSeconds: Double { thinkingMoves == 0 ? 0 : totalSeconds / Double(thinkingMoves) }
    var meanCPU: Double { thinkingMoves == 0 ? 0 : totalCPU / Double(thinkingMoves) }

    static let header =
        "  bot     GRhino   games   W   D   L   win %  mean discs   s/move mean  max   CPU s/move mean  max"

    var line: String {
        "  " + bot.padding(toLength: 7, withPad: " ", startingAt: 0)
            + String(
                format: " level %d  %5d %3d %3d %3d  %5.1f%%  %+10.1f   %11.3f %5.3f  %15.3f %5.3f", level, games,
                wins, draws, losses, 100 * winRate, meanDiscDifference, meanSeconds, maxSeconds, meanCPU, maxCPU)
    }

    var dictionary: [String: Any] {
        [
            "bot": bot, "level": level, "games": games, "wins": wins, "draws": draws, "losses": losses,
            "winRate": winRate, "meanDiscDifference": meanDiscDifference, "meanSecondsPerMove": meanSeconds,
            "maxSecondsPerMove": maxSeconds, "meanCPUSecondsPerMove": meanCPU, "maxCPUSecondsPerMove": maxCPU,
        ]
    }
}

/// CPU time of the calling thread: the bot's own cost, whatever else the machine is running.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// A line on standard output at once (print's buffer would hold it back behind a long match).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
