/// Perft: the number of move sequences `depth` moves long from a state, counting a game that ends sooner as one
/// sequence. An engine check: move generation that is wrong anywhere in the tree changes the count.
public enum Perft {
    /// Counts by walking every legal move of the game (any game; games with a faster count register their own).
    public static func count<State: GameState>(_ state: State, depth: Int) -> UInt64 {
        guard depth > 0, !state.isTerminal else { return 1 }
        let moves = state.legalMoves()
        if depth == 1 { return UInt64(moves.count) }
        var total: UInt64 = 0
        for move in moves {
            var next = state
            guard (try? next.apply(move)) != nil else { continue }
            total += count(next, depth: depth - 1)
        }
        return total
    }
}
