import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

struct Playout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play games between bots with no network and report wins, scores and speed.",
        discussion: """
            Game i of the batch (counting from 0) is played with seed S+i, so `--games 1 --seed S` replays \
            exactly one game of a batch. The `transcript` is a SHA-256 over every final state hash in order: \
            the same arguments give the same transcript on any machine.

            Example: tavolo playout spirits --players 6 --games 2000 --seed 7 \
            --bots heuristic,random,random,random,random,random --json
            """
    )

    @Argument(help: "The game to play: \(gameHelp).")
    var game: String

    @Option(help: "Number of seats.")
    var players: Int?

    @Option(help: "Number of games to play.")
    var games: Int = 1

    @Option(help: "Seed of the first game (a 64-bit unsigned integer).")
    var seed: UInt64 = 1

    @Option(help: "Bot kind per seat, comma-separated (one name fills every seat).")
    var bots: String?

    @Flag(help: "Print the single game move by move (needs --games 1).")
    var transcript = false

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Do not print progress on stderr.")
    var quiet = false

    func validate() throws {
        guard let entry = GameCatalog.standard[game] else {
            throw ValidationError(
                "unknown game '\(game)'; games: \(GameCatalog.standard.names.joined(separator: ", "))")
        }
        if let players, !entry.playerCounts.contains(players) {
            let counts = entry.playerCounts.map(String.init).joined(separator: ", ")
            throw ValidationError("\(game) is played by \(counts) players, not \(players)")
        }
        guard games >= 1 else { throw ValidationError("--games must be at least 1") }
        if transcript && games != 1 { throw ValidationError("--transcript shows one game: use it with --games 1") }
        if transcript && json { throw ValidationError("choose --transcript or --json, not both") }
    }

    func run() throws {
        guard let entry = GameCatalog.standard[game] else { throw ExitCode(2) }
        let players = self.players ?? entry.playerCounts.first ?? 2
        var kinds = (bots ?? entry.defaultBot).split(separator: ",").map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        if kinds.count == 1 { kinds = Array(repeating: kinds[0], count: players) }
        do {
            if transcript {
                for line in try entry.transcript(players: players, seed: seed, bots: kinds) { print(line) }
                return
            }
            let request = PlayoutRequest(players: players, games: games, seed: seed, bots: kinds)
            let showProgress = !quiet && games >= 1000 && isatty(STDERR_FILENO) == 1
            let report = try entry.playout(request) { done in
                if showProgress { FileHandle.standardError.write(Data("\rplayed \(done)/\(request.games)".utf8)) }
            }
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if json { print(try PlayoutJSON(report).encoded()) } else { printTable(report) }
        } catch let error as PlayoutError {
            switch error {
            case .badRequest: throw ValidationError(error.description)
            case .engineFault:
                FileHandle.standardError.write(Data("tavolo: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    func printTable(_ r: PlayoutReport) {
        let score = "mean \(r.scoreName)"
        print("\(r.game): \(r.games) games, \(r.players) players, seed \(r.seed)")
        print("seat  bot          wins   win%   \(score)")
        for s in r.seats {
            let rate = 100 * Double(s.wins) / Double(r.games)
            print(
                pad(String(s.seat), 6) + pad(s.bot, 13) + pad(String(s.wins), 7) + pad(format(rate, 1), 7)
                    + format(s.meanScore, 2))
        }
        if r.bots.count > 1 {
            print("by bot kind:")
            for b in r.bots {
                print(
                    "  \(pad(b.bot, 12)) \(b.seats) seat(s), win rate \(format(100 * b.winRate, 1))%, \(score) \(format(b.meanScore, 2))"
                )
            }
        }
        if r.draws > 0 { print("draws: \(r.draws)") }
        print("moves per game: \(format(r.movesPerGame, 1))")
        print("games/s: \(format(r.gamesPerSecond, 0))  moves/s: \(format(r.movesPerSecond, 0))")
        if r.game.hasPrefix("fifteen") {
            // Every seat solves its own copy: a game of the race is `players` solves; mean moves is the length.
            let solves = Double(r.games * r.players)
            let lengths = r.seats.map { "\($0.bot) \(format($0.meanScore, 1))" }.joined(separator: ", ")
            print(
                "solution length (mean moves): \(lengths); time per solve: \(format(1000 * r.elapsedSeconds / solves, 2)) ms"
            )
        }
        if let h = r.finalHash { print("final hash: \(h)") }
        print("transcript: \(r.transcript)")
    }
}

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}
func format(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }

/// The `--json` shape of a playout: the score key is named after the game's score (`meanGhosts`, …).
struct PlayoutJSON {
    let report: PlayoutReport
    init(_ report: PlayoutReport) { self.report = report }

    func encoded() throws -> String {
        let r = report
        let meanKey = "mean" + r.scoreName.prefix(1).uppercased() + r.scoreName.dropFirst()
        var object: [String: Any] = [
            "game": r.game, "players": r.players, "games": r.games, "seed": r.seed, "transcript": r.transcript,
            "gamesPerSecond": r.gamesPerSecond, "movesPerSecond": r.movesPerSecond, "movesPerGame": r.movesPerGame,
            "totalMoves": r.totalMoves, "elapsedSeconds": r.elapsedSeconds, "draws": r.draws,
            "seats": r.seats.map {
                ["seat": $0.seat, "bot": $0.bot, "wins": $0.wins, meanKey: $0.meanScore] as [String: Any]
            },
            "bots": r.bots.map {
                ["bot": $0.bot, "seats": $0.seats, "wins": $0.wins, "winRate": $0.winRate, meanKey: $0.meanScore]
                    as [String: Any]
            },
        ]
        if let h = r.finalHash { object["finalHash"] = h.hex }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
