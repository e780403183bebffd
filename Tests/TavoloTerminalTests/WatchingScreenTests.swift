import TavoloTerminal
import XCTest

/// Watching a table without a seat (issue 34): someone else's table said "Nobody to play" under way, and promised
/// moves that never came (no move reaches a node away from the table).
final class WatchingScreenTests: XCTestCase {
    func watched(outsider: Bool, turn: Int?, recent: [String] = []) -> TableSnapshot {
        var s = TableSnapshot(
            tableID: "t1", game: "othello", phase: .playing,
            seats: Fixtures.seats(2, mine: [], bots: [0: "greedy", 1: "greedy"]), turn: turn, moveNumber: recent.count,
            mySeat: nil, observation: nil, recentMoves: recent)
        s.isOutsider = outsider
        return s
    }

    func testATableAwayFromThisNodeSaysWhatReachesIt() {
        let text = Fixtures.text(watched(outsider: true, turn: nil))
        XCTAssertFalse(text.contains("Nobody to play"), text)
        XCTAssertTrue(text.contains("Under way among its members: their moves reach only their nodes"), text)
        XCTAssertTrue(
            text.contains("You are not at this table: only its seats, its phase and its end reach your node."), text)
    }

    func testATableThisNodesBotsPlayShowsTheMovesAsTheyCome() {
        let text = Fixtures.text(watched(outsider: false, turn: 1, recent: ["1. seat 0: d3"]))
        XCTAssertTrue(text.contains("Waiting for seat 1 — bot (greedy) for bob to play"), text)
        XCTAssertTrue(text.contains("the moves show below as they are played"), text)
        XCTAssertTrue(text.contains("Latest moves\n  1. seat 0: d3"), text)
    }
}
