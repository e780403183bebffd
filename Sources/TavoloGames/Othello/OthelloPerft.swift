/// Othello perft: the number of move sequences of a given length from a position, each move a placement
/// or a forced pass (the only legal move of a player who cannot place).
///
/// A game that ends before the requested length counts as one leaf: a finished position at depth d < D
/// contributes 1, as if it were at depth D. The first finished positions occur at depth 9, so depths 1–9
/// do not depend on this choice; the published depth-10 count (24,571,284) needs it (counting such games as 0
/// gives 24,571,056).
public enum OthelloPerft {
    /// Sequences of `depth` moves from the standard start (depth 0 counts the empty sequence: 1).
    public static func count(depth: Int) -> UInt64 {
        count(own: OthelloState.startBlack, opp: OthelloState.startWhite, depth: depth)
    }

    /// Sequences of `depth` moves from a position given as the discs of the side to move and of the other.
    public static func count(own: UInt64, opp: UInt64, depth: Int) -> UInt64 {
        guard depth > 0 else { return 1 }
        var moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 { return 1 }
            return depth == 1 ? 1 : count(own: opp, opp: own, depth: depth - 1)
        }
        if depth == 1 { return UInt64(moves.nonzeroBitCount) }
        var total: UInt64 = 0
        while moves != 0 {
            let sq = moves.trailingZeroBitCount
            moves &= moves - 1
            let f = OthelloBitboard.flips(own, opp, square: sq)
            total += count(own: opp & ~f, opp: own | f | (1 << UInt64(sq)), depth: depth - 1)
        }
        return total
    }
}
