import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// The trained evaluation against the hand-set one, the same search and node budget on both sides: pairs of games
/// from seeded random openings, each opening played with both colours.
struct OthelloEvalMatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "othello-eval-match",
        abstract: "The trained Othello evaluation against the hand-set one at one node budget.")

    @Option(help: "Pairs of games (each opening with both colours).") var pairs = 50
    @Option(help: "Seed of the first opening.") var seed: UInt64 = 1
    @Option(help: "Nodes a move for both sides.") var nodes = 200_000
    @Option(help: "Nodes a move for the hand-set side, if not --nodes (to compare at equal time).")
    var handSetNodes: Int?
    @Option(help: "Empty squares from which both sides solve exactly.") var exactEmpties = 14
    @Option(help: "Random plies of each opening.") var opening = 6
    @Option(help: "Weights to try, as othello-fit wrote them (default: this build's).") var weights: String?

    mutating func run() throws {
        guard pairs > 0, nodes > 0, (0...30).contains(exactEmpties), (0...20).contains(opening) else {
            throw ValidationError("--pairs > 0, --nodes > 0, --exact-empties 0…30, --opening 0…20")
        }
        let candidate = try weights.map(OthelloWeightsSource.read) ?? OthelloPatternWeights.trained
        guard let candidate else { throw ValidationError("this build has no trained weights: name a --weights file") }
        self.candidate = candidate
        let trained = OthelloSearch.Limits(maxDepth: 30, nodes: nodes, exactEmpties: exactEmpties, trained: true)
        let handSet = OthelloSearch.Limits(
            maxDepth: 30, nodes: handSetNodes ?? nodes, exactEmpties: exactEmpties, trained: false)
        var (won, drawn, lost, margin) = (0, 0, 0, 0)
        for p in 0..<pairs {
            for trainedIsBlack in [true, false] {
                let diff = play(
                    seed: seed &+ UInt64(p), black: trainedIsBlack ? trained : handSet,
                    white: trainedIsBlack ? handSet : trained)
                let forTrained = trainedIsBlack ? diff : -diff
                margin += forTrained
                if forTrained > 0 { won += 1 } else if forTrained == 0 { drawn += 1 } else { lost += 1 }
            }
            let games = 2 * (p + 1)
            print(
                String(
                    format:
                        "othello-eval-match: %d games: trained %d won, %d drawn, %d lost (%.1f%%), mean margin %+.1f",
                    games, won, drawn, lost, 100 * (Double(won) + Double(drawn) / 2) / Double(games),
                    Double(margin) / Double(games)))
        }
    }

    var candidate: OthelloPatternWeights?

    enum CodingKeys: String, CodingKey { case pairs, seed, nodes, handSetNodes, exactEmpties, opening, weights }

    /// Black's final disc difference in one game from the seeded random opening.
    func play(seed: UInt64, black: OthelloSearch.Limits, white: OthelloSearch.Limits) -> Int {
        var rng = TavoloRNG(seed: seed, stream: 0xE7A1)
        var own: UInt64 = 0x0000_0008_1000_0000
        var opp: UInt64 = 0x0000_0010_0800_0000
        var blackToMove = true
        var ply = 0
        while true {
            let moves = OthelloBitboard.moves(own, opp)
            if moves == 0 {
                if OthelloBitboard.moves(opp, own) == 0 { break }
                swap(&own, &opp)
                blackToMove.toggle()
                continue
            }
            var square: Int
            if ply < opening {
                square = OthelloPly.randomSquare(moves, &rng)
            } else {
                square = OthelloSearch(limits: blackToMove ? black : white, weights: candidate).choose(own, opp).square
            }
            (own, opp) = OthelloPly.place(own, opp, square)
            blackToMove.toggle()
            ply += 1
        }
        let diff = own.nonzeroBitCount - opp.nonzeroBitCount
        return blackToMove ? diff : -diff
    }
}
