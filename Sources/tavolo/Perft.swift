import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

struct Perft: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count the move sequences of a given length from a game's start position (engine check).",
        discussion: """
            Any game: a game that ends before the depth counts as one sequence. Othello counts placements and \
            forced passes as moves and has a fast bitboard count; its published counts are 1:4, 2:12, 3:56, \
            4:244, 5:1396, 6:8200, 7:55092, 8:390216, 9:3005288, 10:24571284. Card games start from the deal \
            of --seed.

            Example: tavolo perft othello --depth 9
            """
    )

    @Argument(help: "The game: \(GameCatalog.standard.names.joined(separator: ", ")).")
    var game: String

    @Option(help: "Number of moves (0…20).")
    var depth: Int

    @Option(help: "Players (default: the game's smallest count).")
    var players: Int?

    @Option(help: "Seed of the start position (card games deal from it).")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard let entry = GameCatalog.standard[game] else {
            throw ValidationError(
                "unknown game '\(game)'; games: \(GameCatalog.standard.names.joined(separator: ", "))")
        }
        guard (0...20).contains(depth) else { throw ValidationError("--depth must be between 0 and 20") }
        if let players, !entry.playerCounts.contains(players) {
            throw ValidationError(
                "\(game) is played by \(entry.playerCounts.map(String.init).joined(separator: ", ")) players")
        }
    }

    func run() throws {
        guard let entry = GameCatalog.standard[game] else { throw ExitCode(2) }
        let seats = players ?? entry.playerCounts[0]
        let start = ContinuousClock.now
        let nodes: UInt64
        do { nodes = try entry.perft(players: seats, seed: seed, depth: depth) } catch {
            throw CleanExit.failure("\(error)")
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(nodes) / seconds : 0
        if json {
            struct Report: Encodable {
                var game: String, players: Int, seed: UInt64, depth: Int, nodes: UInt64
                var elapsedSeconds: Double, nodesPerSecond: Double
            }
            try printJSON(
                Report(
                    game: game, players: seats, seed: seed, depth: depth, nodes: nodes, elapsedSeconds: seconds,
                    nodesPerSecond: rate))
        } else {
            print(
                "\(game) perft \(depth): \(nodes) nodes in \(String(format: "%.3f", seconds)) s "
                    + "(\(String(format: "%.0f", rate)) nodes/s)")
        }
    }
}
