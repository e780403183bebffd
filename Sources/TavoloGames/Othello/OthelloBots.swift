import TavoloCore

/// Takes the placement that flips the most discs; ties go to the lowest square (a1 = 0 … h8 = 63).
public struct OthelloGreedyBot: Bot {
    public init() {}
    public var kind: String { "greedy" }

    public mutating func chooseMove(in state: OthelloState, seat: Int) -> OthelloMove {
        // Othello hides nothing: the bots read the bitboards (the observation is for people and JSON).
        let (own, opp) = seat == 0 ? (state.black, state.white) : (state.white, state.black)
        var bits = OthelloBitboard.moves(own, opp)
        var best = OthelloMove.pass
        var bestCount = -1
        while bits != 0 {
            let sq = bits.trailingZeroBitCount
            bits &= bits - 1
            let n = OthelloBitboard.flips(own, opp, square: sq).nonzeroBitCount
            if n > bestCount, let m = OthelloMove(square: sq) {
                best = m
                bestCount = n
            }
        }
        return best
    }
}

/// Fixed-depth negamax with alpha-beta. Evaluation from the side to move: positional square weights
/// (corners good, squares next to empty corners bad) plus 8 per move of mobility difference; positions with
/// few empty squares are searched to the end and scored by disc difference. Moves are tried by weight,
/// then square. Among root moves within `margin` of the best value (exactly equal ones in an exact
/// endgame search) it picks one with its `botRNG` stream, so seeded games differ yet replay exactly.
public struct OthelloAlphaBetaBot: Bot {
    public var depth: Int
    /// Empty squares at or below which the bot searches to the end of the game.
    public var exactEmpties: Int
    /// How far below the best evaluation a root move may be and still be chosen.
    public var margin: Int
    public var rng: TavoloRNG

    public init(rng: TavoloRNG, depth: Int = 5, exactEmpties: Int = 10, margin: Int = 3) {
        self.rng = rng
        self.depth = depth
        self.exactEmpties = exactEmpties
        self.margin = margin
    }

    public var kind: String { "alphabeta" }

    static let weights: [Int] = [
        100, -20, 10, 5, 5, 10, -20, 100,
        -20, -50, -2, -2, -2, -2, -50, -20,
        10, -2, 1, 1, 1, 1, -2, 10,
        5, -2, 1, 0, 0, 1, -2, 5,
        5, -2, 1, 0, 0, 1, -2, 5,
        10, -2, 1, 1, 1, 1, -2, 10,
        -20, -50, -2, -2, -2, -2, -50, -20,
        100, -20, 10, 5, 5, 10, -20, 100,
    ]
    static let win = 1_000_000
    /// Squares in search order: best weight first, then ascending square.
    static let order: [Int] = (0..<64).sorted { (weights[$0], -$0) > (weights[$1], -$1) }

    public mutating func chooseMove(in state: OthelloState, seat: Int) -> OthelloMove {
        // Othello hides nothing: the bots read the bitboards (the observation is for people and JSON).
        let (own, opp) = seat == 0 ? (state.black, state.white) : (state.white, state.black)
        let moves = OthelloBitboard.moves(own, opp)
        guard moves != 0 else { return .pass }
        let empties = 64 - (own | opp).nonzeroBitCount
        let exact = empties <= exactEmpties
        let slack = exact ? 0 : margin
        // A root move scoring above `best - slack - 1` gets an exact value; lower ones only fail low.
        var best = Int.min + 1
        var scored: [(square: Int, value: Int)] = []
        for sq in Self.order where moves & (1 << UInt64(sq)) != 0 {
            let f = OthelloBitboard.flips(own, opp, square: sq)
            let bit: UInt64 = 1 << UInt64(sq)
            let alpha = best == Int.min + 1 ? Int.min + 1 : best - slack - 1
            let v = -Self.negamax(
                opp & ~f, own | f | bit, depth: exact ? 64 : depth - 1, alpha: Int.min + 1, beta: -alpha)
            scored.append((sq, v))
            best = max(best, v)
        }
        let candidates = scored.filter { $0.value >= best - slack }.map(\.square).sorted()
        let pick = candidates.count == 1 ? candidates[0] : candidates[rng.below(candidates.count)]
        return OthelloMove(square: pick) ?? .pass
    }

    static func negamax(_ own: UInt64, _ opp: UInt64, depth: Int, alpha: Int, beta: Int) -> Int {
        let moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 {
                let diff = own.nonzeroBitCount - opp.nonzeroBitCount
                return diff > 0 ? win + diff : diff < 0 ? -win + diff : 0
            }
            return -negamax(opp, own, depth: depth - 1, alpha: -beta, beta: -alpha)
        }
        if depth <= 0 { return evaluate(own, opp, ownMoves: moves) }
        var alpha = alpha
        var best = Int.min + 1
        for sq in order where moves & (1 << UInt64(sq)) != 0 {
            let f = OthelloBitboard.flips(own, opp, square: sq)
            let bit: UInt64 = 1 << UInt64(sq)
            let v = -negamax(opp & ~f, own | f | bit, depth: depth - 1, alpha: -beta, beta: -alpha)
            if v > best { best = v }
            if v > alpha { alpha = v }
            if alpha >= beta { break }
        }
        return best
    }

    static func evaluate(_ own: UInt64, _ opp: UInt64, ownMoves: UInt64) -> Int {
        var score = 0
        var b = own
        while b != 0 {
            score += weights[b.trailingZeroBitCount]
            b &= b - 1
        }
        b = opp
        while b != 0 {
            score -= weights[b.trailingZeroBitCount]
            b &= b - 1
        }
        let mobility = ownMoves.nonzeroBitCount - OthelloBitboard.moves(opp, own).nonzeroBitCount
        return score + 8 * mobility
    }
}

extension BotFactory where State == OthelloState {
    static var othelloGreedy: BotFactory {
        BotFactory(kind: "greedy", summary: "flips the most discs; ties to the lowest square") { _, _ in
            OthelloGreedyBot()
        }
    }

    static var othelloAlphaBeta: BotFactory {
        BotFactory(
            kind: "alphabeta",
            summary: "alpha-beta to depth 5 on square weights and mobility; exact in the last 10 empties"
        ) { seed, seat in
            OthelloAlphaBetaBot(rng: botRNG(gameSeed: seed, seat: seat))
        }
    }

    static func othelloSearch(_ level: BotLevel, _ limits: OthelloSearch.Limits, summary: String) -> BotFactory {
        BotFactory(kind: level.rawValue, summary: summary) { _, _ in
            OthelloSearchBot(kind: level.rawValue, limits: limits)
        }
    }

    /// `1M`, `400k`: a node budget for people.
    static func nodeCount(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n / 1000)k" }

    /// Every Othello bot, weakest first, then the levels.
    public static var othelloBots: [BotFactory<OthelloState>] {
        let hard = OthelloSearchBot.hard
        let expert = OthelloSearchBot.expert
        return [
            .random,
            othelloGreedy,
            othelloAlphaBeta,
            othelloGreedy.level(.easy, summary: "greedy: flips the most discs, looks no further (instant)"),
            othelloAlphaBeta.level(
                .medium, summary: "alphabeta: 5 moves ahead on square weights, exact in the last 10 empties (a few ms)"),
            othelloSearch(
                .hard, hard,
                summary: "iterative deepening with a transposition table on trained pattern weights (edges, corners, "
                    + "rows, diagonals, mobility), \(nodeCount(hard.nodes)) nodes a move, exact from "
                    + "\(hard.exactEmpties) empties (at most ~0.3 s)"),
            othelloSearch(
                .expert, expert,
                summary: "the hard search with \(nodeCount(expert.nodes)) nodes a move, exact from "
                    + "\(expert.exactEmpties) empties (under 1 s)"),
        ]
    }
}
