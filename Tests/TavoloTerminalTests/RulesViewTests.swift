import TavoloTerminal
import XCTest

final class RulesViewTests: XCTestCase {
    func testParagraphsAndListItemsAreReflowedToTheWidth() {
        let lines = RulesView.lines(game: "spirits", width: 60).map(\.text)
        XCTAssertEqual(lines.first, "Spirits!")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 60 }, lines.joined(separator: "\n"))
        XCTAssertTrue(
            lines.contains("After Reiner Knizia's card game. 2 to 6 players. Ghosts are"), lines.joined(separator: "\n")
        )
        let item = lines.firstIndex { $0.hasPrefix("3. The player who opens a challenge") }
        XCTAssertNotNil(item, lines.joined(separator: "\n"))
        if let i = item { XCTAssertTrue(lines[i + 1].hasPrefix("   "), "a list item hangs: \(lines[i + 1])") }
        XCTAssertFalse(lines.joined().contains("**"))
        let cards = lines.firstIndex { $0.hasPrefix("54 ghost cards") }
        if let i = cards { XCTAssertFalse(lines[i + 1].hasPrefix(" "), "a paragraph does not hang: \(lines[i + 1])") }
    }

    func testEveryGameHasRulesAndAnUnknownOneSaysSo() {
        for game in ["spirits", "briscola", "othello"] {
            let lines = RulesView.lines(game: game, width: 80)
            XCTAssertGreaterThan(lines.count, 10)
            // The game's bots follow its rules, levels first.
            let bots = lines.firstIndex { $0.text == "Bots" }
            XCTAssertNotNil(bots, game)
            if let i = bots { XCTAssertTrue(lines[(i + 1)...].contains { $0.text.hasPrefix("- easy: ") }, game) }
        }
        XCTAssertEqual(RulesView.lines(game: "chess", width: 80).map(\.text), ["No rules are known for chess."])
    }
}
