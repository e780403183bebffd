import TavoloControl
import XCTest

/// Names that look alike are shown with their node ids beside them (PROTOCOL.md §4.1); others as they are.
final class PeerNameDisplayTests: XCTestCase {
    func testLookAlikeNamesOfTwoNodesCarryTheirIds() {
        let a = String(repeating: "a", count: 32)
        let b = String(repeating: "b", count: 32)
        let c = String(repeating: "c", count: 32)
        // Cyrillic а, a zero for an o, full-width letters, other case: each looks like the Latin name.
        for (theirs, mine) in [("аnn", "ann"), ("b0b", "bob"), ("ＡＮＮ", "ann"), ("Bob", "bob"), ("rnike", "mike")] {
            XCTAssertEqual(PeerNameDisplay.skeleton(theirs), PeerNameDisplay.skeleton(mine), theirs)
            XCTAssertEqual(
                PeerNameDisplay.names([(mine, a), (theirs, b), ("zoe", c)]),
                ["\(mine) (id aaaaaaaa)", "\(theirs) (id bbbbbbbb)", "zoe"])
        }
        XCTAssertEqual(PeerNameDisplay.names([("ann", a), ("ann", a), ("random", nil)]), ["ann", "ann", "random"])
        XCTAssertNotEqual(PeerNameDisplay.skeleton("ann"), PeerNameDisplay.skeleton("anna"))
    }
}
