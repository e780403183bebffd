import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Time and nodes per move of the searching Othello levels over positions from seeded games (the figures behind
/// the node budgets of `hard` and `expert`).
struct OthelloSpeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "othello-speed", abstract: "Time and nodes per move of the hard and expert Othello searches.")

    @Option(help: "Seeded self-play games whose positions are searched.")
    var games = 4
    @Flag(help: "Search with the hand-set evaluation, not the trained weights.") var handSet = false

    func run() throws {
        print("othello search speed over \(games) self-play games of hard (every position searched by each level)")
        for (name, limits) in [("hard", OthelloSearchBot.hard), ("expert", OthelloSearchBot.expert)] {
            var times: [Double] = []
            var nodes = 0
            var worst = (seconds: 0.0, empties: 0)
            var solves = (tried: 0, exact: 0)
            var limits = limits
            limits.trained = !handSet
            for g in 0..<games {
                for (own, opp) in try positions(seed: UInt64(g + 1)) {
                    let start = threadCPUSeconds()
                    let choice = OthelloSearch(limits: limits).choose(own, opp)
                    let seconds = threadCPUSeconds() - start
                    times.append(seconds)
                    nodes += choice.nodes
                    if 64 - (own | opp).nonzeroBitCount <= limits.exactEmpties {
                        solves.tried += 1
                        if choice.exact { solves.exact += 1 }
                    }
                    if seconds > worst.seconds { worst = (seconds, 64 - (own | opp).nonzeroBitCount) }
                }
            }
            let total = times.reduce(0, +)
            print(
                "  " + name.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + String(
                        format: " %4d moves  CPU mean %.3f s  max %.3f s (at %d empties)  %.2fM nodes/s", times.count,
                        total / Double(times.count), worst.seconds, worst.empties, Double(nodes) / total / 1e6))
        }
    }

    /// The positions with a choice to make in a game of `hard` against itself from a seeded 4-move opening.
    func positions(seed: UInt64) throws -> [(UInt64, UInt64)] {
        var state = try OthelloState(players: 2, seed: seed)
        var rng = TavoloRNG(seed: seed, stream: 0x0BE0)
        for _ in 0..<4 { let m = state.legalMoves(); try state.apply(m[rng.below(m.count)]) }
        var bot = OthelloSearchBot(kind: "hard", limits: OthelloSearchBot.hard)
        var found: [(UInt64, UInt64)] = []
        while case .seat(let seat) = state.turn {
            let (own, opp) = seat == 0 ? (state.black, state.white) : (state.white, state.black)
            if OthelloBitboard.moves(own, opp).nonzeroBitCount > 1 { found.append((own, opp)) }
            try state.apply(bot.chooseMove(in: state, seat: seat))
        }
        return found
    }
}
