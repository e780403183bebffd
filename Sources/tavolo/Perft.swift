import ArgumentParser
import Foundation
import TavoloGames

struct Perft: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count the move sequences of a given length from a game's start position (engine check).",
        discussion: """
            Othello counts placements and forced passes as moves; a game that ends before the depth counts as one leaf. \
            Published counts: 1:4, 2:12, 3:56, 4:244, 5:1396, 6:8200, 7:55092, 8:390216, 9:3005288, \
            10:24571284.

            Example: tavolo perft othello --depth 9
            """
    )

    @Argument(help: "The game (only othello has a perft).")
    var game: String

    @Option(help: "Number of moves (0…20).")
    var depth: Int

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard game == "othello" else { throw ValidationError("perft is available for othello only, not '\(game)'") }
        guard (0...20).contains(depth) else { throw ValidationError("--depth must be between 0 and 20") }
    }

    func run() throws {
        let start = ContinuousClock.now
        let nodes = OthelloPerft.count(depth: depth)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(nodes) / seconds : 0
        if json {
            let object: [String: Any] = [
                "game": game, "depth": depth, "nodes": nodes, "elapsedSeconds": seconds, "nodesPerSecond": rate,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                "othello perft \(depth): \(nodes) nodes in \(String(format: "%.3f", seconds)) s "
                    + "(\(String(format: "%.0f", rate)) nodes/s)")
        }
    }
}
