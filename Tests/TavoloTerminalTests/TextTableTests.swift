import TavoloTerminal
import XCTest

/// `tavolo peers` padded names to 16 columns: a longer name pushed its row's other columns out of line (issue 34).
final class TextTableTests: XCTestCase {
    func testColumnsStayAlignedForLongCells() {
        let lines = TextTable.lines(
            header: ["NAME", "ID", "STATE"],
            rows: [["alice", "1a2b3c4d", "connected"], ["a-rather-long-node-name-of-bob", "5e6f7a8b", "lost"]])
        XCTAssertEqual(
            lines,
            [
                "NAME                            ID        STATE",
                "alice                           1a2b3c4d  connected",
                "a-rather-long-node-name-of-bob  5e6f7a8b  lost",
            ])
    }
}
