import Foundation
import XCTest

/// `tavolo rules GAME` prints the rules embedded in the binary, identical to docs/rules/GAME.md.
final class RulesCommandTests: XCTestCase {
    func testRulesArePrintedFromTheBinary() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/rules")
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        for game in ["spirits", "briscola", "othello"] {
            let r = try XCTUnwrap(runCommand(tavolo, ["rules", game], environment: [:]))
            XCTAssertEqual(r.status, 0, r.output)
            let doc = try String(contentsOf: docs.appendingPathComponent("\(game).md"), encoding: .utf8)
            XCTAssertEqual(r.output, doc, game)
        }
    }

    func testAnUnknownGameIsOneLineAndExitCode2() throws {
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        let r = try XCTUnwrap(runCommand(tavolo, ["rules", "chess"], environment: [:]))
        XCTAssertEqual(r.status, 2, r.output)
        let lines = r.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.output)
        XCTAssertTrue(
            lines.first?.hasPrefix("tavolo: no rules for 'chess'; games: briscola, fifteen, othello, spirits") == true, r.output)
    }
}
