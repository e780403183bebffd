import Foundation
import XCTest

@testable import TavoloControl

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

    /// The page marks names with its own copy of the rule (Sources/TavoloWeb/Assets/js/names.js): its table of
    /// look-alike letters must be this one, or a name marked in `tavolo chat` would pass unmarked on the page.
    func testThePagesLookAlikeTableIsTheCLIs() throws {
        let js = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/TavoloWeb/Assets/js/names.js")
        let text = try String(contentsOf: js, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "export const LOOK_ALIKES = {"))
        let end = try XCTUnwrap(text.range(of: "};", range: start.upperBound..<text.endIndex))
        var table: [Character: Character] = [:]
        let pair = try NSRegularExpression(pattern: #""(.)": "(.)""#)
        let body = String(text[start.upperBound..<end.lowerBound])
        for m in pair.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
            let from = try XCTUnwrap(Range(m.range(at: 1), in: body))
            let to = try XCTUnwrap(Range(m.range(at: 2), in: body))
            table[Character(String(body[from]))] = Character(String(body[to]))
        }
        XCTAssertEqual(table, PeerNameDisplay.lookAlikes)
    }
}
