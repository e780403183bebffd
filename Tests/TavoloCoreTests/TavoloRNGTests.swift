import TavoloCore
import XCTest

final class TavoloRNGTests: XCTestCase {
    /// The published first output of SplitMix64 from state 0 (Vigna's reference implementation).
    func testSplitMix64ReferenceValue() {
        var sm = SplitMix64(state: 0)
        XCTAssertEqual(sm.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(sm.next(), 0x6E78_9E6A_A1B9_65F4)
    }

    func testOutputsMatchVectors() throws {
        let cases = try XCTUnwrap(loadVector("rng.json")["cases"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 6)
        for c in cases {
            let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["seed"] as? String)))
            var rng = TavoloRNG(seed: seed)
            let expected = try XCTUnwrap(c["next"] as? [String]).compactMap(UInt64.init)
            XCTAssertEqual((0..<expected.count).map { _ in rng.next() }, expected, "seed \(seed)")

            let bounded = try XCTUnwrap(c["bounded"] as? [String: [String]])
            for (bound, values) in bounded {
                var b = TavoloRNG(seed: seed)
                let n = try XCTUnwrap(UInt64(bound))
                XCTAssertEqual(
                    values.map { _ in b.bounded(n) }, values.compactMap(UInt64.init), "seed \(seed) bound \(n)")
            }

            let stream = try XCTUnwrap(c["stream"] as? [String: Any])
            let streamID = try XCTUnwrap(UInt64(try XCTUnwrap(stream["stream"] as? String)))
            var s = TavoloRNG(seed: seed, stream: streamID)
            let streamExpected = try XCTUnwrap(stream["next"] as? [String]).compactMap(UInt64.init)
            XCTAssertEqual(streamExpected.map { _ in s.next() }, streamExpected, "seed \(seed) stream")
        }
    }

    func testShuffleMatchesVectors() throws {
        let cases = try XCTUnwrap(loadVector("shuffle.json")["cases"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 6)
        for c in cases {
            let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["seed"] as? String)))
            let expected = try XCTUnwrap(c["deck"] as? [Int])
            var deck = Array(0..<54)
            var rng = TavoloRNG(seed: seed)
            rng.shuffle(&deck)
            XCTAssertEqual(deck, expected, "seed \(seed)")
        }
    }

    func testBoundedStaysInRangeAndCoversIt() {
        var rng = TavoloRNG(seed: 3)
        for bound in [1, 2, 3, 6, 7, 54] {
            var seen = Set<Int>()
            for _ in 0..<2_000 {
                let v = rng.below(bound)
                XCTAssert((0..<bound).contains(v))
                seen.insert(v)
            }
            XCTAssertEqual(seen.count, bound, "bound \(bound) not covered")
        }
    }

    /// A coarse uniformity check: 60,000 draws in 6 buckets, each within 5% of 10,000.
    func testBoundedIsRoughlyUniform() {
        var rng = TavoloRNG(seed: 11)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<60_000 { counts[rng.below(6)] += 1 }
        for c in counts { XCTAssert((9_500...10_500).contains(c), "bucket \(c)") }
    }

    func testStreamsDiffer() {
        var a = TavoloRNG(seed: 5, stream: 1)
        var b = TavoloRNG(seed: 5, stream: 2)
        var c = TavoloRNG(seed: 5)
        XCTAssertNotEqual(a.next(), b.next())
        XCTAssertNotEqual(TavoloRNG(seed: 5, stream: 1), c)
        _ = c.next()
    }

    func testShuffleIsAPermutation() {
        var rng = TavoloRNG(seed: 99)
        var items = Array(0..<54)
        rng.shuffle(&items)
        XCTAssertEqual(items.sorted(), Array(0..<54))
        var empty: [Int] = []
        rng.shuffle(&empty)
        var one = [7]
        rng.shuffle(&one)
        XCTAssertEqual(one, [7])
    }
}
