import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Training positions for the pattern evaluation: self-play games of a small search from random openings, each
/// ending solved exactly, every position labelled with that exact result from its mover's side.
struct OthelloTrainGames: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "othello-train-games",
        abstract: "Self-play Othello positions labelled with their game's exactly solved result (for othello-fit).")

    @Option(help: "Games to play.") var games = 1000
    @Option(help: "Seed of the first game (game g uses seed + g).") var seed: UInt64 = 1
    @Option(help: "Empty squares at which the game is solved exactly.") var solveAt = 13
    @Option(help: "Nodes a move for the self-play search.") var nodes = 3000
    @Option(help: "Where the positions go (17 bytes each: own, opp, label).") var output: String
    @Flag(help: "Self-play with the hand-set evaluation, not the trained weights of this build.") var handSet = false

    func run() throws {
        guard games > 0, (8...22).contains(solveAt), nodes > 0 else {
            throw ValidationError("--games > 0, --solve-at 8…22, --nodes > 0")
        }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        guard let out = FileHandle(forWritingAtPath: output) else { throw ValidationError("cannot write \(output)") }
        defer { try? out.close() }
        let start = Date()
        var written = 0
        for g in 0..<games {
            let positions = playGame(seed: seed &+ UInt64(g))
            var data = Data(capacity: positions.count * 17)
            for p in positions {
                withUnsafeBytes(of: p.own.littleEndian) { data.append(contentsOf: $0) }
                withUnsafeBytes(of: p.opp.littleEndian) { data.append(contentsOf: $0) }
                data.append(UInt8(bitPattern: Int8(p.label)))
            }
            out.write(data)
            written += positions.count
            if (g + 1) % 200 == 0 || g + 1 == games {
                let s = Date().timeIntervalSince(start)
                FileHandle.standardError.write(
                    Data(
                        String(
                            format: "othello-train-games: %d/%d games, %d positions, %.0f s\n", g + 1, games,
                            written, s
                        ).utf8))
            }
        }
    }

    struct Position {
        var own: UInt64
        var opp: UInt64
        var label: Int
    }

    /// One game: a random opening of 2–12 plies, then the search (one move in ten random) down to `solveAt`
    /// empties, then perfect play to the end. Labels: the solved result, from each position's mover.
    func playGame(seed: UInt64) -> [Position] {
        var rng = TavoloRNG(seed: seed, stream: 0x7EA1)
        var own: UInt64 = 0x0000_0008_1000_0000  // black to move: d5, e4
        var opp: UInt64 = 0x0000_0010_0800_0000  // white: d4, e5
        var blackToMove = true
        var seen: [(own: UInt64, opp: UInt64, black: Bool)] = []
        let opening = 2 + rng.below(11)
        let limits = OthelloSearch.Limits(maxDepth: 8, nodes: nodes, exactEmpties: 0, trained: !handSet)
        let solver = OthelloSearch.Limits(maxDepth: 1, nodes: Int.max / 4, exactEmpties: 64, trained: !handSet)
        var ply = 0
        var blacksResult: Int?
        while true {
            let moves = OthelloBitboard.moves(own, opp)
            if moves == 0 {
                if OthelloBitboard.moves(opp, own) == 0 {
                    let final = own.nonzeroBitCount - opp.nonzeroBitCount
                    if blacksResult == nil { blacksResult = blackToMove ? final : -final }
                    break
                }
                swap(&own, &opp)
                blackToMove.toggle()
                continue
            }
            let empties = 64 - (own | opp).nonzeroBitCount
            seen.append((own, opp, blackToMove))
            var square: Int
            if empties <= solveAt {
                let choice = OthelloSearch(limits: solver).choose(own, opp)
                // A forced move is not searched (its value is not computed): the next choice's solve counts.
                if blacksResult == nil && moves.nonzeroBitCount > 1 {
                    blacksResult = blackToMove ? choice.value : -choice.value
                }
                square = choice.square
            } else if ply < opening || rng.below(10) == 0 {
                square = OthelloPly.randomSquare(moves, &rng)
            } else {
                square = OthelloSearch(limits: limits).choose(own, opp).square
            }
            (own, opp) = OthelloPly.place(own, opp, square)
            blackToMove.toggle()
            ply += 1
        }
        guard let blacksResult else { return [] }
        return seen.map { Position(own: $0.own, opp: $0.opp, label: $0.black ? blacksResult : -blacksResult) }
    }
}
