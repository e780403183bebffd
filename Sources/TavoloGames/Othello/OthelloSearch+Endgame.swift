/// The exact endgame solver: the final disc difference (own − opponent's, empty squares counted for nobody, as
/// the game scores) under perfect play from both sides. Principal-variation search with its own transposition
/// table and "fastest first" ordering (the move that leaves the opponent fewest replies) down to a few empties,
/// then a plain loop over the empty squares, where ordering costs more than it saves.
extension OthelloSearch {
    /// Empties at or below which the solver stops ordering moves and using its table.
    static let shallowEmpties = 6

    /// The exact value of (`own` to move, `opp`) within (`alpha`, `beta`); meaningless if `aborted` is set.
    func solve(_ own: UInt64, _ opp: UInt64, alpha: Int, beta: Int, ply: Int) -> Int {
        let empties = 64 - (own | opp).nonzeroBitCount
        if empties <= Self.shallowEmpties { return solveShallow(own, opp, alpha: alpha, beta: beta, passed: false) }
        nodes &+= 1
        if nodes > nodeLimit {
            aborted = true
            return 0
        }
        let moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 { return own.nonzeroBitCount - opp.nonzeroBitCount }
            return -solve(opp, own, alpha: -beta, beta: -alpha, ply: min(ply + 1, Self.maxPly - 1))
        }
        var alpha = alpha
        var beta = beta
        let slot = Self.slot(own, opp, endTableMask)
        // Depth 0: every entry of this table is exact play to the end.
        let (ttMove, known) = Self.probe(endTable[slot], own, opp, depth: 0, alpha: &alpha, beta: &beta)
        if let known { return known }
        let originalAlpha = alpha
        // Depth 3 asks `generate` for fastest-first ordering; killers and history mean little this deep.
        let n = generate(own, opp, moves: moves, ply: ply, ttMove: ttMove, depth: 3)
        let base = ply * Self.maxMoves
        var best = -Self.infinity
        var bestMove = 64
        for i in 0..<n {
            pickNext(ply: ply, from: i, count: n)
            let sq = Int(moveBuffer[base + i])
            let f = flipBuffer[base + i]
            let childOwn = opp & ~f
            let childOpp = own | f | (1 << UInt64(sq))
            var v: Int
            if i == 0 {
                v = -solve(childOwn, childOpp, alpha: -beta, beta: -alpha, ply: ply + 1)
            } else {
                v = -solve(childOwn, childOpp, alpha: -alpha - 1, beta: -alpha, ply: ply + 1)
                if v > alpha && v < beta && !aborted {
                    v = -solve(childOwn, childOpp, alpha: -beta, beta: -alpha, ply: ply + 1)
                }
            }
            if aborted { return 0 }
            if v > best {
                best = v
                bestMove = sq
                if v > alpha {
                    alpha = v
                    if alpha >= beta { break }
                }
            }
        }
        let bound = Self.bound(of: best, alpha: originalAlpha, beta: beta)
        endTable[slot] = Entry(own: own, opp: opp, value: Int32(best), depth: 0, bound: bound, move: UInt8(bestMove))
        return best
    }

    /// The solver for the last few empties: every empty square in turn, no table, no ordering.
    func solveShallow(_ own: UInt64, _ opp: UInt64, alpha: Int, beta: Int, passed: Bool) -> Int {
        nodes &+= 1
        var alpha = alpha
        var best = -Self.infinity
        var empty = ~(own | opp)
        while empty != 0 {
            let sq = empty.trailingZeroBitCount
            empty &= empty - 1
            let f = OthelloBitboard.flips(own, opp, square: sq)
            if f == 0 { continue }
            let v = -solveShallow(opp & ~f, own | f | (1 << UInt64(sq)), alpha: -beta, beta: -alpha, passed: false)
            if v > best {
                best = v
                if v > alpha {
                    alpha = v
                    if alpha >= beta { return best }
                }
            }
        }
        if best != -Self.infinity { return best }
        if passed { return own.nonzeroBitCount - opp.nonzeroBitCount }
        return -solveShallow(opp, own, alpha: -beta, beta: -alpha, passed: true)
    }
}
