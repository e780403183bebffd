import Foundation
import TavoloTable
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
        // The words the page and `tavolo watch` use too (TableNotices.ownNodeStopped), then this command's way back.
        XCTAssertTrue(said.contains("tavolo:" + TableNotices.ownNodeStopped.filter { !$0.isWhitespace }), out)
        XCTAssertTrue(said.contains("starttavolodagain,thenrun`tavoloplay\(id)`tocomeback"), out)
        XCTAssertFalse(out.contains("▶ YOUR TURN"), "the table's screen is gone, not left under the prompt: \(out)")
    }

    /// `tavolo watch` says its node's end in the same words, with its own way back (it printed the client's error).
    func testWatchSaysTheOwnNodeStoppedInTheSameWords() throws {
        let watch = try WatchProcess(
            tavolo, ["watch", "--all", "--control", harness.nodes[0].controlPath], errorsApart: true)
        defer { watch.stop() }
        _ = try watch.waitUntilSubscribed(harness, offering: client(1))
        harness.kill9(0)
        try harness.eventually("tavolo watch to exit", seconds: 15) { !watch.isRunning }
        let said = watch.errors
        XCTAssertEqual(watch.terminationStatus, 1, said)
        XCTAssertTrue(said.hasPrefix("tavolo: \(TableNotices.ownNodeStopped), then run `tavolo watch` again ("), said)
        XCTAssertEqual(said.filter { $0 == "\n" }.count, 1, "one line: \(said)")
    }
}
