import TavoloCore
import XCTest

@testable import TavoloGames

/// The canonical encoding rebuilt by hand from Protocol/games/othello.md.
final class OthelloCanonicalTests: XCTestCase {
    func testOthelloLayoutMatchesTheDocument() throws {
        let s = try OthelloState(players: 2, seed: 5)
        XCTAssertEqual(s.canonicalBytes.hexString, "0000000810000000" + "0000001008000000" + "00" + "00000000")
        var t = s
        try t.apply(OthelloMove(name: "d3") ?? .pass)
        XCTAssertEqual(t.canonicalBytes, bigEndian(t.black) + bigEndian(t.white) + [1] + bigEndian(UInt32(1)))
    }
}
