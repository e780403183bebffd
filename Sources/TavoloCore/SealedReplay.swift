/// A sealed game replayed from its seed and its deals: one loop for the two that need it, a session rebuilt on a new
/// completion (`SealedGameSessionBox.sealedRebuild`, moves by `applySealed`) and an audit's replay with every hand
/// known (§14.10 step 5, moves by `apply`). They must install each deal at the same moment, or the hashes of a
/// rebuilt session and the audit's verdict would be about two different games.
public struct SealedReplay<State: SealedCardGame> {
    /// The game where the replay stopped: after every move, or just before the move it refused.
    public private(set) var state: State
    /// The index in `moves` of the move the rules refused, and why; nil when every move applied.
    public private(set) var refused: (index: Int, error: MoveError)?

    /// Replays `moves` from `seed`, dealing deal `d` from `deals[d − 1]` as soon as the game deals it. A deal not
    /// given keeps the seed's order (a session's placeholder until the members' shuffle is done) unless
    /// `requireEveryDeal` (an audit knows every deal): then it throws. `step` applies one move to the state.
    public init(
        players: Int, seed: UInt64, deals: [[Int]], moves: [State.Move], requireEveryDeal: Bool,
        step: (inout State, State.Move) throws(MoveError) -> Void
    ) throws(GameSetupError) {
        state = try State(players: players, seed: seed)
        refused = nil
        try Self.install(&state, deals: deals, required: requireEveryDeal)
        for (index, move) in moves.enumerated() {
            let deal = state.dealNumber
            // A refused move leaves the state as it was (`GameState.apply`).
            do { try step(&state, move) } catch {
                refused = (index, error)
                return
            }
            if state.dealNumber != deal { try Self.install(&state, deals: deals, required: requireEveryDeal) }
        }
    }

    /// Deals the current deal again from `deals`, if the game is still on and that deal is given.
    static func install(_ state: inout State, deals: [[Int]], required: Bool) throws(GameSetupError) {
        let d = state.dealNumber
        guard !state.isTerminal, d >= 1 else { return }
        guard d <= deals.count else {
            if required { throw GameSetupError("no sealed deal for deal \(d)") }
            return
        }
        try state.replaceSealedDeal(deals[d - 1])
    }
}
