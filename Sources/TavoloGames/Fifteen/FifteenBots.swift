import TavoloCore

/// A solver bot: plans a whole solution for its seat's board once, then plays it move by move (replanning if
/// the board is not where the plan expects). How fast it plays at a table is the table's pace (PROTOCOL.md
/// §10.5), not the bot's: the bot itself is pure.
public struct FifteenSolverBot<Size: FifteenSize>: Bot {
    public typealias State = FifteenState<Size>
    public enum Method: Sendable {
        /// Optimal IDA* when it answers within `nodeLimit` nodes (4×4), otherwise the reduction.
        case optimalFirst(nodeLimit: Int)
        /// Optimal IDA* with the 6-6-3 pattern databases (`FifteenPatternHeuristic.standard`, built at the
        /// first 4×4 solve) when it answers within `nodeLimit` nodes, otherwise the reduction.
        case patternDatabases(nodeLimit: Int)
        /// Row-by-row reduction only.
        case reduction
    }

    public let kind: String
    let method: Method
    var plan: [FifteenMove] = []
    var planFor: FifteenBoard?

    public init(kind: String, method: Method) {
        self.kind = kind
        self.method = method
    }

    /// A solution of `board` by `method`.
    public static func solve(_ board: FifteenBoard, method: Method) -> [FifteenMove]? {
        switch method {
        case .optimalFirst(let limit) where board.n <= 4:
            if let found = FifteenIDAStar.solve(board, nodeLimit: limit) { return found.moves }
        case .patternDatabases(let limit) where board.n == 4:
            if let found = FifteenPatternSearch.solve(board, nodeLimit: limit) { return found.moves }
        default: break
        }
        return FifteenReduction.solve(board)
    }

    public mutating func chooseMove(in state: State, seat: Int) -> FifteenMove {
        let board = state.boards[seat]
        if planFor != board || plan.isEmpty {
            plan = Self.solve(board, method: method) ?? []
        }
        guard let move = plan.first, board.canSlide(move) else {
            planFor = nil
            return .giveUp
        }
        plan.removeFirst()
        var after = board
        after.slide(move)
        planFor = after
        return move
    }
}

extension BotFactory {
    /// The race's bots for a board of `Size`.
    static func fifteenBots<Size: FifteenSize>(_ size: Size.Type) -> [BotFactory<FifteenState<Size>>]
    where State == FifteenState<Size> {
        [
            // A node plans inside its table machine: the search is capped so a bot never holds the node up.
            BotFactory(
                kind: "solver", summary: "optimal IDA* (Manhattan + linear conflict) on 4×4 when quick, else row by row"
            ) { _, _ in
                FifteenSolverBot<Size>(kind: "solver", method: .optimalFirst(nodeLimit: 10_000))
            },
            BotFactory(
                kind: "optimal",
                summary:
                    "optimal IDA* (6-6-3 pattern databases) on 4×4 however long it takes (for playouts and benches)"
            ) { _, _ in
                FifteenSolverBot<Size>(kind: "optimal", method: .patternDatabases(nodeLimit: .max))
            },
            BotFactory(kind: "reduce", summary: "fast row-by-row reduction, then the last 3×3 optimally") { _, _ in
                FifteenSolverBot<Size>(kind: "reduce", method: .reduction)
            },
            .random,
        ] + fifteenLevels(size)
    }

    /// The levels (`BotLevel`): a race is won by short solutions (a table sets the pace), so a level is how
    /// hard the bot looks for a short one. The IDA* budgets are in nodes, so every machine plays the same moves.
    static func fifteenLevels<Size: FifteenSize>(_ size: Size.Type) -> [BotFactory<FifteenState<Size>>]
    where State == FifteenState<Size> {
        func solver(_ level: BotLevel, nodes: Int, summary: String) -> BotFactory<FifteenState<Size>> {
            BotFactory<FifteenState<Size>>(kind: level.rawValue, summary: summary) { _, _ in
                FifteenSolverBot<Size>(kind: level.rawValue, method: .optimalFirst(nodeLimit: nodes))
            }
        }
        return [
            BotFactory<FifteenState<Size>>(kind: "easy", summary: "row by row, never optimal (instant)") { _, _ in
                FifteenSolverBot<Size>(kind: "easy", method: .reduction)
            },
            solver(
                .medium, nodes: 10_000,
                summary: "optimal on 4×4 when IDA* needs under 10k nodes, else row by row (~5 ms a solve)"),
            solver(
                .hard, nodes: 300_000,
                summary: "optimal on 4×4 when IDA* needs under 300k nodes, else row by row (~70 ms a solve)"),
            // 8M nodes is about a second here; the hardest of 1,000 race scrambles took 5.9M.
            BotFactory<FifteenState<Size>>(kind: "expert", summary: Self.fifteenExpertSummary) { _, _ in
                FifteenSolverBot<Size>(kind: "expert", method: .patternDatabases(nodeLimit: 8_000_000))
            },
        ]
    }

    /// Figures from `tavolo-bots-bench fifteen-speed` (release build, one core of the development machine).
    static var fifteenExpertSummary: String {
        "optimal on 4×4: IDA* with additive 6-6-3 pattern databases (11.5 MB, built in ~7.5 s at the first 4×4 solve "
            + "of a process) within 8M nodes, else row by row (median 6 ms a solve, rarely up to 1 s)"
    }
}
