/// The searching bot's engine: iterative-deepening principal-variation search with a transposition table, move
/// ordering (the table's move, two killers per ply, a history table, then fewest replies for the opponent), the
/// `OthelloEvaluation` at the leaves, and an exact endgame solver (`OthelloSearch+Endgame.swift`).
///
/// Its budget is a count of nodes, never a clock: a bot's move must be a function of the position alone, so a
/// table's restart, which replays its own bots' moves (`TableMachine+Restore`), and a test that plays the same
/// seed twice get the same game on any machine and under any load. `OthelloSearchBot`'s levels are calibrated
/// to those node counts (see `scripts/bench othello-vs-grhino` for the time per move they take).
///
/// One search per move: the tables start empty each time, so the chosen move depends on the position only.
/// A class over raw buffers: the hot loop must not pay for copy-on-write or exclusivity checks.
public final class OthelloSearch {
    public struct Limits: Sendable {
        /// Deepest midgame iteration.
        public var maxDepth: Int
        /// Nodes (midgame and endgame together) after which the search stops and plays its best move so far.
        public var nodes: Int
        /// Empty squares at or below which the search tries to solve the game exactly.
        public var exactEmpties: Int
        /// Evaluate with the trained pattern weights (`OthelloPatternWeights.trained`, when the build has them)
        /// rather than the hand-set `OthelloEvaluation`.
        public var trained: Bool

        public init(maxDepth: Int, nodes: Int, exactEmpties: Int, trained: Bool = true) {
            self.maxDepth = maxDepth
            self.nodes = nodes
            self.exactEmpties = exactEmpties
            self.trained = trained
        }
    }

    struct Entry {
        var own: UInt64 = 0
        var opp: UInt64 = 0
        var value: Int32 = 0
        var depth: Int8 = -1
        var bound: UInt8 = 0
        var move: UInt8 = 64
    }

    static let exactBound: UInt8 = 0
    static let lowerBound: UInt8 = 1
    static let upperBound: UInt8 = 2
    static let infinity = 1_000_000
    /// A finished game's value in midgame units: any win beats any evaluation, a bigger win beats a smaller.
    static let winValue = 100_000
    static let maxPly = 96
    static let maxMoves = 40  // the most placements an Othello position allows is 33

    let limits: Limits
    /// The leaves' evaluation: the trained weights, or nil for the hand-set terms.
    let weights: OthelloPatternWeights?
    let tableMask: Int
    let table: UnsafeMutablePointer<Entry>
    let endTableMask: Int
    let endTable: UnsafeMutablePointer<Entry>
    let history: UnsafeMutablePointer<Int32>
    let killers: UnsafeMutablePointer<UInt8>
    let moveBuffer: UnsafeMutablePointer<UInt8>
    let flipBuffer: UnsafeMutablePointer<UInt64>
    let scoreBuffer: UnsafeMutablePointer<Int32>
    var nodes = 0
    /// The node count at which the current phase of the search stops (the midgame part of a move that will also be
    /// solved exactly gets a share of `limits.nodes`).
    var nodeLimit: Int
    var aborted = false

    /// `weights` replaces the build's trained weights (a trainer's candidates) when `limits.trained` is set.
    public init(limits: Limits, weights: OthelloPatternWeights? = nil, tableBits: Int = 18, endTableBits: Int = 16) {
        self.limits = limits
        self.weights = limits.trained ? weights ?? OthelloPatternWeights.trained : nil
        nodeLimit = limits.nodes
        tableMask = (1 << tableBits) - 1
        table = .allocate(capacity: 1 << tableBits)
        table.initialize(repeating: Entry(), count: 1 << tableBits)
        endTableMask = (1 << endTableBits) - 1
        endTable = .allocate(capacity: 1 << endTableBits)
        endTable.initialize(repeating: Entry(), count: 1 << endTableBits)
        history = .allocate(capacity: 64)
        history.initialize(repeating: 0, count: 64)
        killers = .allocate(capacity: 2 * Self.maxPly)
        killers.initialize(repeating: 64, count: 2 * Self.maxPly)
        moveBuffer = .allocate(capacity: Self.maxPly * Self.maxMoves)
        flipBuffer = .allocate(capacity: Self.maxPly * Self.maxMoves)
        scoreBuffer = .allocate(capacity: Self.maxPly * Self.maxMoves)
    }

    deinit {
        table.deallocate()
        endTable.deallocate()
        history.deallocate()
        killers.deallocate()
        moveBuffer.deallocate()
        flipBuffer.deallocate()
        scoreBuffer.deallocate()
    }

    /// Where a position lives in a table of `mask + 1` entries.
    @inline(__always)
    static func slot(_ own: UInt64, _ opp: UInt64, _ mask: Int) -> Int {
        let h = (own &* 0x9E37_79B9_7F4A_7C15) ^ (opp &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: (h ^ (h >> 29)) & UInt64(mask))
    }

    /// The value of a finished game for the side with `own`.
    @inline(__always)
    static func finalValue(_ own: UInt64, _ opp: UInt64) -> Int {
        let diff = own.nonzeroBitCount - opp.nonzeroBitCount
        return diff > 0 ? winValue + diff : diff < 0 ? -winValue + diff : 0
    }

    /// Static preference for trying a square early (corners first, X squares last), used after the other keys.
    static let squarePrior: [Int32] = [
        40, -8, 8, 4, 4, 8, -8, 40,
        -8, -24, 0, 0, 0, 0, -24, -8,
        8, 0, 2, 2, 2, 2, 0, 8,
        4, 0, 2, 0, 0, 2, 0, 4,
        4, 0, 2, 0, 0, 2, 0, 4,
        8, 0, 2, 2, 2, 2, 0, 8,
        -8, -24, 0, 0, 0, 0, -24, -8,
        40, -8, 8, 4, 4, 8, -8, 40,
    ]

    /// Fills this ply's move buffers with the placements in `moves`, each with its flips and ordering score,
    /// and returns how many there are.
    @inline(__always)
    func generate(_ own: UInt64, _ opp: UInt64, moves: UInt64, ply: Int, ttMove: Int, depth: Int) -> Int {
        let base = ply * Self.maxMoves
        var bits = moves
        var n = 0
        let killer0 = Int(killers[2 * ply])
        let killer1 = Int(killers[2 * ply + 1])
        while bits != 0 {
            let sq = bits.trailingZeroBitCount
            bits &= bits - 1
            let f = OthelloBitboard.flips(own, opp, square: sq)
            var score: Int32
            if sq == ttMove {
                score = 1 << 30
            } else if sq == killer0 {
                score = 1 << 29
            } else if sq == killer1 {
                score = 1 << 28
            } else {
                score = history[sq] &+ Self.squarePrior[sq] &* 16
                if depth >= 3 {
                    // Fewest replies first: the cheapest predictor of a good move in Othello.
                    let replies = OthelloBitboard.moves(opp & ~f, own | f | (1 << UInt64(sq))).nonzeroBitCount
                    score &-= Int32(replies) &* 512
                }
            }
            moveBuffer[base + n] = UInt8(sq)
            flipBuffer[base + n] = f
            scoreBuffer[base + n] = score
            n += 1
        }
        return n
    }

    /// Moves the best-scored of the moves `i..<n` of this ply to index `i`.
    @inline(__always)
    func pickNext(ply: Int, from i: Int, count n: Int) {
        let base = ply * Self.maxMoves
        var best = i
        var j = i + 1
        while j < n {
            if scoreBuffer[base + j] > scoreBuffer[base + best] { best = j }
            j += 1
        }
        if best != i {
            swap(&moveBuffer[base + i], &moveBuffer[base + best])
            swap(&flipBuffer[base + i], &flipBuffer[base + best])
            swap(&scoreBuffer[base + i], &scoreBuffer[base + best])
        }
    }

    /// Negamax value of (`own` to move, `opp`) searched `depth` plies, within (`alpha`, `beta`).
    func search(_ own: UInt64, _ opp: UInt64, depth: Int, alpha: Int, beta: Int, ply: Int) -> Int {
        nodes &+= 1
        if nodes > nodeLimit {
            aborted = true
            return 0
        }
        let moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 { return Self.finalValue(own, opp) }
            // A pass costs no depth: the other side has a move, so this cannot repeat.
            return -search(opp, own, depth: depth, alpha: -beta, beta: -alpha, ply: min(ply + 1, Self.maxPly - 1))
        }
        if depth <= 0 {
            let oppMoves = OthelloBitboard.moves(opp, own)
            if let weights { return weights.evaluate(own, opp, ownMoves: moves, oppMoves: oppMoves) }
            return OthelloEvaluation.evaluate(own, opp, ownMoves: moves, oppMoves: oppMoves)
        }
        var alpha = alpha
        var beta = beta
        let slot = Self.slot(own, opp, tableMask)
        let (ttMove, known) = Self.probe(table[slot], own, opp, depth: depth, alpha: &alpha, beta: &beta)
        if let known { return known }
        let originalAlpha = alpha
        let n = generate(own, opp, moves: moves, ply: ply, ttMove: ttMove, depth: depth)
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
                v = -search(childOwn, childOpp, depth: depth - 1, alpha: -beta, beta: -alpha, ply: ply + 1)
            } else {
                v = -search(childOwn, childOpp, depth: depth - 1, alpha: -alpha - 1, beta: -alpha, ply: ply + 1)
                if v > alpha && v < beta && !aborted {
                    v = -search(childOwn, childOpp, depth: depth - 1, alpha: -beta, beta: -alpha, ply: ply + 1)
                }
            }
            if aborted { return 0 }
            if v > best {
                best = v
                bestMove = sq
                if v > alpha {
                    alpha = v
                    if alpha >= beta {
                        noteCutoff(square: sq, ply: ply, depth: depth)
                        break
                    }
                }
            }
        }
        table[slot] = Entry(
            own: own, opp: opp, value: Int32(best), depth: Int8(min(depth, 100)),
            bound: Self.bound(of: best, alpha: originalAlpha, beta: beta), move: UInt8(bestMove))
        return best
    }

    /// What a table entry says of (`own`, `opp`) searched `depth` plies: its best move (64 if none), and either a
    /// value that settles the search or the window narrowed by its bound.
    @inline(__always)
    static func probe(
        _ entry: Entry, _ own: UInt64, _ opp: UInt64, depth: Int, alpha: inout Int, beta: inout Int
    ) -> (move: Int, value: Int?) {
        guard entry.own == own && entry.opp == opp else { return (64, nil) }
        let move = Int(entry.move)
        guard Int(entry.depth) >= depth else { return (move, nil) }
        let v = Int(entry.value)
        switch entry.bound {
        case exactBound: return (move, v)
        case lowerBound: alpha = max(alpha, v)
        default: beta = min(beta, v)
        }
        return (move, alpha >= beta ? v : nil)
    }

    /// The bound a searched value `best` is, given the window (`alpha`, `beta`) it was searched in.
    @inline(__always)
    static func bound(of best: Int, alpha: Int, beta: Int) -> UInt8 {
        best <= alpha ? upperBound : best >= beta ? lowerBound : exactBound
    }

    /// A move that refuted the position: remembered as a killer of its ply and in the history table.
    @inline(__always)
    func noteCutoff(square: Int, ply: Int, depth: Int) {
        if Int(killers[2 * ply]) != square {
            killers[2 * ply + 1] = killers[2 * ply]
            killers[2 * ply] = UInt8(square)
        }
        history[square] = min(history[square] &+ Int32(depth * depth), 1 << 20)
    }
}
