import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import XCTest

/// Issue 30: a member may stop a table only with the codes the spec gives members at that stage (PROTOCOL.md
/// §9.5). Two real nodes at a game under way; node 1 (started with `--test-allow-injection`) sends `table.stop`
/// messages of its own: `table/member-left` and `seed/bad-commit` during play are refused and counted, and the game
/// goes on; `hash/mismatch`, a fault a member can see during play, stops it (so the test can see a stop).
final class StopCodeIntegrationTests: DaemonTestCase {
    func testDuringPlayAMemberCannotStopTheTableWithALeaveOrASeedCode() throws {
        try harness.startNode()
        try harness.startNode(extraArguments: ["--test-allow-injection"])
        try harness.eventually("a full mesh", seconds: 30) { harness.isFullMesh([0, 1]) }
        // Seat 0 is node 0's person, who never moves: the game waits on it, under way, for as long as the test needs.
        let info = try client(0).call(.host(game: "othello", players: 2))
        try harness.eventually("node 1 sees the table", seconds: 15) {
            ((try? client(1).call(.tables)) ?? []).contains { $0.id == info.id }
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(1).call(.join(table: info.id, game: nil, seat: 1, bot: "random"))
        try harness.eventually("both seats taken", seconds: 15) {
            ((try? client(0).call(.tables)) ?? []).first { $0.id == info.id }?.freeSeats.isEmpty
                == true
        }
        _ = try client(0).call(.start(table: info.id))
        func phase() -> TablePhase? { try? client(0).call(.state(table: info.id)).info.phase }
        try harness.eventually("the game is under way on node 0", seconds: 30) { phase() == .playing }
        let refusedBefore = try harness.status(0).tableMessagesRefused

        for code in [StopCode.memberLeft, .badCommit] {
            _ = try client(1).call(
                .inject(.stop(table: info.id, code: code, reason: "I'd rather not lose")))
        }
        try harness.eventually("node 0 refused and counted both", seconds: 15) {
            ((try? harness.status(0).tableMessagesRefused) ?? 0) >= refusedBefore + 2
        }
        XCTAssertEqual(phase(), .playing, "the game goes on")

        _ = try client(1).call(
            .inject(.stop(table: info.id, code: .hashMismatch, reason: "a fault it may report")))
        try harness.eventually("a code a member may send stops the table", seconds: 15) { phase() == .stopped }
    }
}
