import Foundation
import TavoloGames
import TavoloTestSupport
import XCTest

/// `tavolo rules GAME` prints the rules embedded in the binary, identical to docs/rules/GAME.md, then the game's bots.
final class RulesCommandTests: XCTestCase {
    func testRulesArePrintedFromTheBinary() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/rules")
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        for game in ["spirits", "briscola", "othello", "fifteen"] {
            let r = try runProcess(tavolo, ["rules", game], environment: [:])
            XCTAssertEqual(r.status, 0, r.combined)
            let doc = try String(contentsOf: docs.appendingPathComponent("\(game).md"), encoding: .utf8)
            let bots = try XCTUnwrap(GameRules.botsSection(for: game))
            XCTAssertEqual(r.combined, doc + "\n" + bots + "\n", game)
            for level in ["easy", "medium", "hard", "expert"] { XCTAssertTrue(bots.contains("- `\(level)`: "), game) }
        }
    }

    func testAnUnknownGameIsOneLineAndExitCode2() throws {
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        let r = try runProcess(tavolo, ["rules", "chess"], environment: [:])
        XCTAssertEqual(r.status, 2, r.combined)
        let lines = r.combined.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.combined)
        XCTAssertTrue(
            lines.first?.hasPrefix("tavolo: no rules for 'chess'; games: briscola, fifteen, othello, spirits") == true,
            r.combined)
    }
}
