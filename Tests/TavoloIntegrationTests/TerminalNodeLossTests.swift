import Foundation
import TavoloTestSupport
import XCTest

/// Losing one's own node while playing in the terminal (issue 34: `tavolo play` used to exit with no message, the
/// shell's prompt landing on the status line).
extension TerminalPlayTests {
    func testTheOwnNodeDyingIsSaidPlainly() throws {
        let id = try startTable("othello", [(0, nil), (1, "greedy")])
        let term = try terminal(id, "ownloss")
        try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN") }
        harness.kill9(0)
        let out = try term.waitFor("tavolo play to exit") { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(out.contains("EXIT=1"), out)
        XCTAssertTrue(out.contains(" icanon") && !out.contains("-icanon"), "terminal restored: \(out)")
        // The terminal wraps the line wherever the width falls, mid-word too: compared without the white space.
        let said = out.filter { !$0.isWhitespace }
        XCTAssertTrue(said.contains("tavolo:yournodestopped"), out)
        XCTAssertTrue(said.contains("run`tavoloplay\(id)`tocomeback"), out)
        XCTAssertFalse(out.contains("▶ YOUR TURN"), "the table's screen is gone, not left under the prompt: \(out)")
    }
}
