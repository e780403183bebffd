/// The trained Othello evaluation: per stage of the game (by empty squares), one weight per pattern configuration
/// (`OthelloPatterns`) plus a few whole-board terms, summed from the side to move, in hundredths of a disc: an
/// estimate of the final disc difference under good play. The weights come from `tavolo-bots-bench othello-train`
/// (self-play games whose endings were solved exactly, fitted by least squares) and are kept in
/// `OthelloPatternWeights+Trained.swift`; integers only, so every machine evaluates alike.
public struct OthelloPatternWeights: Sendable {
    /// Empty squares per stage: stage `s` holds positions with `s × stageWidth …` empties.
    public static let stageWidth = 5
    public static let stages = 61 / stageWidth + 1
    /// Whole-board terms after the patterns: the side to move's bias, mobility, potential mobility.
    public static let extras = 3
    public static var perStage: Int { OthelloPatterns.weightsPerStage + extras }

    /// `stages × perStage` weights, hundredths of a disc.
    public var values: [Int16]

    public init(values: [Int16]) {
        precondition(values.count == Self.stages * Self.perStage, "wrong number of Othello weights")
        self.values = values
    }

    @inline(__always)
    public static func stage(empties: Int) -> Int { min(max(empties, 0), 60) / stageWidth }

    /// The whole-board terms of a position, in the order of the extras.
    @inline(__always)
    public static func extraFeatures(_ own: UInt64, _ opp: UInt64, ownMoves: UInt64, oppMoves: UInt64) -> (
        Int, Int, Int
    ) {
        let empty = ~(own | opp)
        let mobility = ownMoves.nonzeroBitCount - oppMoves.nonzeroBitCount
        let potential =
            (OthelloEvaluation.neighbours(opp) & empty).nonzeroBitCount
            - (OthelloEvaluation.neighbours(own) & empty).nonzeroBitCount
        return (1, mobility, potential)
    }

    /// The evaluation of (`own` to move, `opp`).
    @inline(__always)
    public func evaluate(_ own: UInt64, _ opp: UInt64, ownMoves: UInt64, oppMoves: UInt64) -> Int {
        let empties = 64 - (own | opp).nonzeroBitCount
        let base = Self.stage(empties: empties) * Self.perStage
        return values.withUnsafeBufferPointer { w in
            // swift-format-ignore: NeverForceUnwrap
            var sum = OthelloPatterns.sum(own, opp, w.baseAddress! + base)
            let e = Self.extraFeatures(own, opp, ownMoves: ownMoves, oppMoves: oppMoves)
            let x = base + OthelloPatterns.weightsPerStage
            sum += Int(w[x]) * e.0 + Int(w[x + 1]) * e.1 + Int(w[x + 2]) * e.2
            return sum
        }
    }
}
