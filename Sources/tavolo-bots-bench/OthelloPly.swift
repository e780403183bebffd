import TavoloCore
import TavoloGames

/// The two steps every self-play loop of the trainer and the match repeats, on raw bitboards.
enum OthelloPly {
    /// A placement among `moves` (non-empty), uniformly at random.
    static func randomSquare(_ moves: UInt64, _ rng: inout TavoloRNG) -> Int {
        var m = moves
        for _ in 0..<rng.below(moves.nonzeroBitCount) { m &= m - 1 }
        return m.trailingZeroBitCount
    }

    /// The position after the side with `own` places on `square` (legal), from the other side's view.
    static func place(_ own: UInt64, _ opp: UInt64, _ square: Int) -> (own: UInt64, opp: UInt64) {
        let f = OthelloBitboard.flips(own, opp, square: square)
        return (opp & ~f, own | f | (1 << UInt64(square)))
    }
}
