import TavoloCore
import XCTest

@testable import TavoloGames

/// The pattern evaluation's features: read alike on every symmetric image, and its weights kept losslessly.
final class OthelloPatternTests: XCTestCase {
    /// Random positions reached by random play from the start.
    func positions(_ count: Int, seed: UInt64) -> [(UInt64, UInt64)] {
        var rng = TavoloRNG(seed: seed, stream: 1)
        var found: [(UInt64, UInt64)] = []
        while found.count < count {
            var own: UInt64 = 0x0000_0008_1000_0000
            var opp: UInt64 = 0x0000_0010_0800_0000
            for _ in 0..<(1 + rng.below(58)) {
                let moves = OthelloBitboard.moves(own, opp)
                if moves == 0 {
                    swap(&own, &opp)
                    continue
                }
                var m = moves
                for _ in 0..<rng.below(moves.nonzeroBitCount) { m &= m - 1 }
                let sq = m.trailingZeroBitCount
                let f = OthelloBitboard.flips(own, opp, square: sq)
                (own, opp) = (opp & ~f, own | f | (1 << UInt64(sq)))
            }
            found.append((own, opp))
        }
        return found
    }

    func testTheImagesAreTheEightSymmetriesOfTheBoard() {
        for square in 0..<64 {
            let (r, f) = (square / 8, square % 8)
            let images = OthelloPatterns.images(1 << UInt64(square))
            let squares = [
                images.0, images.1, images.2, images.3, images.4, images.5, images.6, images.7,
            ].map { $0.trailingZeroBitCount }
            let expected = [
                (r, f), (7 - r, f), (r, 7 - f), (7 - r, 7 - f), (f, r), (7 - f, r), (f, 7 - r), (7 - f, 7 - r),
            ].map { $0.0 * 8 + $0.1 }
            XCTAssertEqual(squares, expected, "square \(OthelloBitboard.name(square))")
        }
    }

    func testEachPatternReadsItsSquaresInOrder() {
        let squares: [[String]] = [
            ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "g2"],
            ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
            ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"], ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"],
            ["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"], ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"],
            ["b1", "c2", "d3", "e4", "f5", "g6", "h7"], ["c1", "d2", "e3", "f4", "g5", "h6"],
            ["d1", "e2", "f3", "g4", "h5"], ["e1", "f2", "g3", "h4"],
        ]
        XCTAssertEqual(squares.map(\.count), OthelloPatterns.sizes)
        for (p, names) in squares.enumerated() {
            for (i, name) in names.enumerated() {
                let b: UInt64 = 1 << UInt64(OthelloBitboard.square(named: name)!)
                XCTAssertEqual(OthelloPatterns.bits(b, p), 1 << i, "pattern \(p), \(name)")
            }
            // No other square reaches the pattern.
            let inside = Set(names.map { OthelloBitboard.square(named: $0)! })
            for sq in 0..<64 where !inside.contains(sq) {
                XCTAssertEqual(OthelloPatterns.bits(1 << UInt64(sq), p), 0, "pattern \(p), square \(sq)")
            }
        }
    }

    /// A position and its mirror images have the same features, so any weights evaluate them alike.
    func testSymmetricPositionsHaveTheSameFeatures() {
        for (own, opp) in positions(50, seed: 3) {
            let features = OthelloPatterns.features(own, opp).sorted()
            XCTAssertEqual(features.count, 8 * OthelloPatterns.count)
            XCTAssertTrue(features.allSatisfy { $0 >= 0 && Int($0) < OthelloPatterns.weightsPerStage })
            let o = OthelloPatterns.images(own)
            let x = OthelloPatterns.images(opp)
            XCTAssertEqual(OthelloPatterns.features(o.3, x.3).sorted(), features)
            XCTAssertEqual(OthelloPatterns.features(o.6, x.6).sorted(), features)
        }
    }

    /// The evaluation's unrolled sum reads the same weights as the trainer's features.
    func testTheUnrolledSumIsTheFeaturesSum() {
        var rng = TavoloRNG(seed: 4, stream: 3)
        let w = (0..<OthelloPatterns.weightsPerStage).map { _ in Int16(rng.below(2001) - 1000) }
        XCTAssertEqual(
            OthelloPatterns.offsets,
            [0, 59_049, 78_732, 85_293, 91_854, 98_415, 104_976, 107_163, 107_892, 108_135, 108_216])
        for (own, opp) in positions(200, seed: 5) {
            let expected = OthelloPatterns.features(own, opp).reduce(0) { $0 + Int(w[Int($1)]) }
            XCTAssertEqual(w.withUnsafeBufferPointer { OthelloPatterns.sum(own, opp, $0.baseAddress!) }, expected)
        }
    }

    func testTheWeightsEncodingRoundTrips() {
        var rng = TavoloRNG(seed: 9, stream: 2)
        let count = OthelloPatternWeights.stages * OthelloPatternWeights.perStage
        var values = [Int16](repeating: 0, count: count)
        for _ in 0..<50_000 { values[rng.below(count)] = Int16(rng.below(65_536) - 32_768) }
        values[count - 1] = -1
        let bytes = OthelloPatternWeights.encode(values)
        XCTAssertEqual(OthelloPatternWeights.decode(bytes, count: count), values)
        XCTAssertNil(OthelloPatternWeights.decode(bytes + [0x80], count: count), "a varint cut short")
        XCTAssertNil(OthelloPatternWeights.decode(bytes, count: count - 1), "more weights than the table holds")
        // Base64 as Foundation writes it.
        XCTAssertEqual(OthelloPatternWeights.base64Bytes("AAEC/w=="), [0, 1, 2, 255])
        XCTAssertNil(OthelloPatternWeights.base64Bytes("AA E"))
    }
}
