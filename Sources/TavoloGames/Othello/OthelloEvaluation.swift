/// The searching bot's static evaluation of an Othello position, from the side to move, in hundredths of a disc
/// (roughly). Terms, each own minus opponent's:
///
/// - **mobility**: legal placements now (the most telling midgame feature: a player short of moves must give
///   up corners);
/// - **potential mobility**: empty squares next to the other colour's discs (where moves may appear), which is
///   also "fewer frontier discs";
/// - **corners**, and **X / C squares** (the diagonal and edge neighbours of a corner) while that corner is
///   empty: they hand the corner over;
/// - **stable edge discs**: discs on an edge anchored to an own corner, or on a full edge, can never flip;
/// - **parity**: with an odd number of empties the side to move should get the last move of the game;
/// - **discs**, counted only in the last part of the game.
///
/// Weights move linearly from the opening (60 empties) to the end (0 empties). The numbers are hand-set and then
/// checked against GRhino (`scripts/bench othello-vs-grhino`), not trained. The searching bots play on the trained
/// `OthelloPatternWeights` (which won 87% against this evaluation at equal time); this one is the search's fallback
/// for a build without weights and the self-play of `scripts/train-othello`.
public enum OthelloEvaluation {
    static let corners: UInt64 = 0x8100_0000_0000_0081
    static let xSquares: UInt64 = 0x0042_0000_0000_4200
    static let cSquares: UInt64 = 0x4281_0000_0000_8142
    static let rank1: UInt64 = 0xFF
    static let rank8: UInt64 = 0xFF00_0000_0000_0000
    static let fileA: UInt64 = 0x0101_0101_0101_0101
    static let fileH: UInt64 = 0x8080_8080_8080_8080
    static let edges: UInt64 = rank1 | rank8 | fileA | fileH

    /// Each corner with its X square and its two C squares.
    static let cornerRegions: [(corner: UInt64, x: UInt64, c: UInt64)] = [
        (1 << 0, 1 << 9, 1 << 1 | 1 << 8),
        (1 << 7, 1 << 14, 1 << 6 | 1 << 15),
        (1 << 56, 1 << 49, 1 << 57 | 1 << 48),
        (1 << 63, 1 << 54, 1 << 62 | 1 << 55),
    ]

    /// Weights of one phase; the evaluation blends the opening and the ending sets by empties.
    struct Weights {
        var mobility: Int
        var potentialMobility: Int
        var corner: Int
        var xSquare: Int
        var cSquare: Int
        var stableEdge: Int
        var parity: Int
        var disc: Int
    }

    static let opening = Weights(
        mobility: 80, potentialMobility: 25, corner: 700, xSquare: -250, cSquare: -60, stableEdge: 60, parity: 0,
        disc: -4)
    static let ending = Weights(
        mobility: 60, potentialMobility: 10, corner: 500, xSquare: -120, cSquare: -40, stableEdge: 90, parity: 60,
        disc: 30)

    /// The evaluation of (`own` to move, `opp`), given the placements of each side.
    @inline(__always)
    static func evaluate(_ own: UInt64, _ opp: UInt64, ownMoves: UInt64, oppMoves: UInt64) -> Int {
        let occupied = own | opp
        let empty = ~occupied
        let empties = empty.nonzeroBitCount
        let a = opening
        let b = ending
        // Blend: at 60 empties all opening, at 0 all ending (integer arithmetic, deterministic everywhere).
        let t = max(0, min(60, empties))
        @inline(__always) func w(_ x: Int, _ y: Int) -> Int { (x * t + y * (60 - t)) / 60 }

        var score = 0
        let mobility = ownMoves.nonzeroBitCount - oppMoves.nonzeroBitCount
        score += w(a.mobility, b.mobility) * mobility
        let ownPotential = (neighbours(opp) & empty).nonzeroBitCount
        let oppPotential = (neighbours(own) & empty).nonzeroBitCount
        score += w(a.potentialMobility, b.potentialMobility) * (ownPotential - oppPotential)
        score += w(a.corner, b.corner) * ((own & corners).nonzeroBitCount - (opp & corners).nonzeroBitCount)

        var xDiff = 0
        var cDiff = 0
        for region in cornerRegions where occupied & region.corner == 0 {
            xDiff += (own & region.x).nonzeroBitCount - (opp & region.x).nonzeroBitCount
            cDiff += (own & region.c).nonzeroBitCount - (opp & region.c).nonzeroBitCount
        }
        score += w(a.xSquare, b.xSquare) * xDiff + w(a.cSquare, b.cSquare) * cDiff

        let stable = stableEdgeDiscs(own, occupied).nonzeroBitCount - stableEdgeDiscs(opp, occupied).nonzeroBitCount
        score += w(a.stableEdge, b.stableEdge) * stable
        if empties & 1 == 1 { score += w(a.parity, b.parity) }
        score += w(a.disc, b.disc) * (own.nonzeroBitCount - opp.nonzeroBitCount)
        return score
    }

    /// Squares next to any disc of `b` (the 8 neighbours, off-board ones dropped).
    @inline(__always)
    static func neighbours(_ b: UInt64) -> UInt64 {
        var n: UInt64 = 0
        for d in 0..<8 { n |= OthelloBitboard.shift(b, d) }
        return n
    }

    /// Discs of `discs` on an edge that can never flip: the whole of an edge that is full, and runs along an edge
    /// that start at an own corner (a disc on an edge can only be flipped along that edge).
    @inline(__always)
    static func stableEdgeDiscs(_ discs: UInt64, _ occupied: UInt64) -> UInt64 {
        var stable: UInt64 = 0
        if occupied & rank1 == rank1 { stable |= discs & rank1 }
        if occupied & rank8 == rank8 { stable |= discs & rank8 }
        if occupied & fileA == fileA { stable |= discs & fileA }
        if occupied & fileH == fileH { stable |= discs & fileH }
        var anchored = discs & corners
        guard anchored != 0 else { return stable }
        let horizontal = rank1 | rank8
        let vertical = fileA | fileH
        // Grow from the corners along the edges, one square per step (an edge has 8 squares).
        for _ in 0..<7 {
            let along =
                ((anchored << 1) & OthelloBitboard.notFileA | (anchored >> 1) & OthelloBitboard.notFileH) & horizontal
                | ((anchored << 8) | (anchored >> 8)) & vertical
            let next = anchored | (along & discs)
            if next == anchored { break }
            anchored = next
        }
        return stable | anchored
    }
}
