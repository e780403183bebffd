/// The root of a search: iterative deepening, then (with few empties) the exact solve.
extension OthelloSearch {
    /// What one search decided.
    public struct Choice: Sendable {
        /// The square to play (0 = a1 … 63 = h8).
        public var square: Int
        /// Its value: midgame units, or the exact final disc difference when `exact`.
        public var value: Int
        /// The deepest midgame iteration completed (0 when the move was forced).
        public var depth: Int
        /// Whether the game was solved exactly.
        public var exact: Bool
        /// Nodes searched.
        public var nodes: Int
    }

    /// Share of the node budget the midgame search may use before an exact solve.
    static let midgameShareBeforeSolving = 4
    static let fullWindow = (alpha: -infinity, beta: infinity)
    /// Exact values are disc differences: a window just wider than ±64.
    static let exactWindow = (alpha: -65, beta: 65)
    /// Win, draw or loss only: a null window around a draw prunes far more than the exact margin.
    static let outcomeWindow = (alpha: -1, beta: 1)

    /// The move for (`own` to move, `opp`), which must have a placement.
    public func choose(_ own: UInt64, _ opp: UInt64) -> Choice {
        let moves = OthelloBitboard.moves(own, opp)
        let n = generate(own, opp, moves: moves, ply: 0, ttMove: 64, depth: 3)
        for i in 0..<n { pickNext(ply: 0, from: i, count: n) }
        var order = (0..<n).map { (square: Int(moveBuffer[$0]), flips: flipBuffer[$0]) }
        var choice = Choice(square: order[0].square, value: 0, depth: 0, exact: false, nodes: 0)
        guard n > 1 else { return choice }

        let empties = 64 - (own | opp).nonzeroBitCount
        let solving = empties <= limits.exactEmpties
        nodeLimit = solving ? limits.nodes / Self.midgameShareBeforeSolving : limits.nodes
        for depth in 1...max(1, min(limits.maxDepth, empties)) {
            let result = searchRoot(own, opp, order: &order, depth: depth, exact: false, window: Self.fullWindow)
            if let square = result.square {
                choice.square = square
                choice.value = result.value
            }
            guard result.complete else { break }
            choice.depth = depth
            // An iteration costs several times the one before: one that cannot finish is not started.
            if nodes * 4 > nodeLimit || abs(result.value) >= Self.winValue { break }
        }
        if solving {
            nodeLimit = limits.nodes
            aborted = false
            // First whether the game is won, drawn or lost (and a move that keeps it so), then, with the nodes left,
            // the exact margin: a move proven better than the first is at least as good for the outcome too.
            let outcome = searchRoot(own, opp, order: &order, depth: empties, exact: true, window: Self.outcomeWindow)
            if outcome.complete, let square = outcome.square {
                choice.square = square
                choice.value = outcome.value
                let margin = searchRoot(own, opp, order: &order, depth: empties, exact: true, window: Self.exactWindow)
                if let square = margin.square {
                    choice.square = square
                    choice.value = margin.value
                    choice.exact = margin.complete
                }
            }
        }
        choice.nodes = nodes
        return choice
    }

    /// One pass over the root moves, best first; moves the best to the front of `order`. `square` is the best move
    /// (nil if not even the first finished), `complete` whether every move was searched.
    func searchRoot(
        _ own: UInt64, _ opp: UInt64, order: inout [(square: Int, flips: UInt64)], depth: Int, exact: Bool,
        window: (alpha: Int, beta: Int)
    ) -> (square: Int?, value: Int, complete: Bool) {
        var alpha = window.alpha
        let beta = window.beta
        var best = -Self.infinity
        var bestIndex: Int?
        for (i, move) in order.enumerated() {
            let childOwn = opp & ~move.flips
            let childOpp = own | move.flips | (1 << UInt64(move.square))
            var v = child(childOwn, childOpp, depth: depth - 1, alpha: i == 0 ? -beta : -alpha - 1, beta: -alpha, exact)
            if i > 0 && v > alpha && !aborted {
                v = child(childOwn, childOpp, depth: depth - 1, alpha: -beta, beta: -alpha, exact)
            }
            if aborted {
                // A later move that finished above the first is better than it at this depth: keep it.
                return (bestIndex.map { order[$0].square }, best, false)
            }
            if v > best {
                best = v
                bestIndex = i
                alpha = max(alpha, v)
                // A move that reaches the window's top settles the question asked (a won game, say).
                if alpha >= beta { break }
            }
        }
        guard let bestIndex else { return (nil, best, false) }
        order.insert(order.remove(at: bestIndex), at: 0)
        return (order[0].square, best, true)
    }

    @inline(__always)
    private func child(_ own: UInt64, _ opp: UInt64, depth: Int, alpha: Int, beta: Int, _ exact: Bool) -> Int {
        exact
            ? -solve(own, opp, alpha: alpha, beta: beta, ply: 1)
            : -search(own, opp, depth: depth, alpha: alpha, beta: beta, ply: 1)
    }
}
