import TavoloCore

/// The searching Othello bot (`hard`, `expert`): `OthelloSearch` within a node budget, a fresh search per move.
/// It draws no randomness: its move is a function of the position (seeded variety comes from the other seats and,
/// in `scripts/bench othello-vs-grhino`, from randomised openings).
public struct OthelloSearchBot: Bot {
    public let kind: String
    public let limits: OthelloSearch.Limits

    public init(kind: String, limits: OthelloSearch.Limits) {
        self.kind = kind
        self.limits = limits
    }

    public mutating func chooseMove(in state: OthelloState, seat: Int) -> OthelloMove {
        // Othello hides nothing: the bots read the bitboards (the observation is for people and JSON).
        let (own, opp) = seat == 0 ? (state.black, state.white) : (state.white, state.black)
        guard OthelloBitboard.moves(own, opp) != 0 else { return .pass }
        return OthelloMove(square: OthelloSearch(limits: limits).choose(own, opp).square) ?? .pass
    }

    /// `hard`: about a third of `expert`'s nodes, exact from 18 empties (at most ~0.4 s of CPU a move).
    public static let hard = OthelloSearch.Limits(maxDepth: 16, nodes: 700_000, exactEmpties: 18)
    /// `expert`: the budget that keeps a move about a second of CPU at most on the development machine (the trained
    /// evaluation searches ~2.8M nodes/s there, the hand-set one ~4.1M), exact from 20 empties.
    public static let expert = OthelloSearch.Limits(maxDepth: 24, nodes: 2_000_000, exactEmpties: 20)
}
