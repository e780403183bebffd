import TavoloCore
import TavoloGames
import TavoloTerminal
import XCTest

/// A small terminal (issue 34): the quit question was cut at 80 columns (`· oth`), and the hand and the person's
/// moves, at the bottom of the board, were the first lines a short screen lost.
final class SmallTerminalTests: XCTestCase {
    func c(_ s: String) throws -> SpiritsCard { try XCTUnwrap(SpiritsCard(s)) }

    func spirits() throws -> TableSnapshot {
        let state = try SpiritsState(
            testPlayers: 3,
            hands: [
                [c("R1"), c("Y2"), c("B3"), c("P3"), c("P3")], [c("O1"), c("O2"), c("G1"), c("G3")],
                [c("B1"), c("B2"), c("Y1"), c("Y3"), c("R2")],
            ],
            pile: [c("G2"), c("R3")], drawPile: [c("O3"), c("P1")], turn: 0, ghosts: [1, 0, 2], roundGhosts: [0, 0, 1])
        return Fixtures.snapshot(state, recent: ["1. seat 2: G2", "2. seat 0: R3"])
    }

    func testTheQuitQuestionIsWholeAt80Columns() throws {
        var ui = PlayController()
        let s = try spirits()
        _ = ui.handle(.character("q"), s)
        for width in [80, 60, 40] {
            let prompt = try XCTUnwrap(TableScreen(width: width, height: 24).lines(s, ui).last)
            XCTAssertLessThan(prompt.width, width, prompt.text)
            XCTAssertTrue(prompt.text.hasSuffix("stay"), "cut at \(width) columns: \(prompt.text)")
            XCTAssertTrue(prompt.text.contains("l: leave") && prompt.text.contains("d: detach"), prompt.text)
        }
    }

    func testAShortScreenKeepsTheHandAndTheMovesToTheLast() throws {
        let s = try spirits()
        let full = Fixtures.text(s, width: 80, height: 40)
        let hand = try XCTUnwrap(full.split(separator: "\n").first { $0.hasPrefix("Your hand") }, full)
        let moves = try XCTUnwrap(full.split(separator: "\n").first { $0.hasPrefix("Your moves") }, full)
        for height in [20, 14, 10, 8] {
            let lines = TableScreen(width: 80, height: height).lines(s, PlayController())
            let text = ScreenRenderer.plainText(lines)
            XCTAssertLessThanOrEqual(lines.count, height, text)
            XCTAssertTrue(text.contains(hand) && text.contains(moves), "\(height) lines:\n\(text)")
            XCTAssertTrue(text.contains("▶ YOUR TURN"), "\(height) lines:\n\(text)")
        }
        // The history goes first, then the seats.
        let short = Fixtures.text(s, width: 80, height: 10)
        XCTAssertFalse(short.contains("Latest moves"), short)
        XCTAssertFalse(short.contains("seat 2  bob"), short)
    }
}
