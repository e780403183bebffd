import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable
import TavoloTestSupport
import XCTest

/// Where a restart crosses a race or a table of one node's own bots (PROTOCOL.md §9.9, §10.6), with real `tavolod`
/// processes killed with `kill -9` and started again with their state directory.
extension ResilienceIntegrationTests {
    /// A racer killed mid-race restarts at its last journaled move of its seat, the race finishes, every node
    /// agrees on the final state and the ranking, both write the same record, and `tavolo show` replays it.
    func testARacerKilledAndRestartedFinishesTheRace() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let id = try startTable(host: 0, game: "fifteen", seats: [(0, "reduce@8"), (1, "reduce@8")])
        try waitFor("node 1's seat has moved") { (try state(1, id).moveNumber ?? 0) >= 12 }
        harness.kill9(1)
        let journaled = try gameLog(1, id).moves.filter { $0.seat == 1 }.map(\.number)
        XCTAssertFalse(journaled.isEmpty, "the racer's moves are in its journal")
        XCTAssertEqual(journaled, Array(0..<journaled.count), "each seat's moves journaled in order")
        try waitFor("node 0 pauses") { try state(0, id).info.phase == .paused }
        try harness.restart(1)
        let states = try finishedHashes([0, 1], id, seconds: 120)
        XCTAssertEqual(Set(states.map { $0.winners ?? [] }).count, 1, "one winner: \(states.map(\.winners))")
        // Seat 1's sequence has no gap and no repeat in the restarted node's log.
        let seat1 = try gameLog(1, id).moves.filter { $0.seat == 1 }.map(\.number)
        XCTAssertEqual(seat1, Array(0..<seat1.count))
        XCTAssertGreaterThan(seat1.count, journaled.count)
        var ids: [[String]] = []
        try waitFor("both nodes recorded the race") {
            ids = try (0...1).map { i in
                try client(i).call(.history(game: "fifteen", player: nil)).map(\.id)
            }
            return ids.allSatisfy { !$0.isEmpty }
        }
        XCTAssertEqual(ids[0], ids[1], "the same record at both nodes")
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let shown = try runProcess(tavolo, ["show", id.rawValue, "--control", harness.nodes[0].controlPath])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("reaches the recorded final hash"), shown.stdout)
    }

    /// `tavolo host spirits --seat --bots --start`, then `kill -9` and a restart: nobody else is at the table, so it
    /// plays on at once and the user's move goes through (it used to stay paused for good).
    func testAnOwnBotOnlyTableResumesAfterARestart() throws {
        try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) { (try? harness.status(0)) != nil }
        let info = try client(0).call(.host(game: "spirits", players: 3))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(0).call(.fill(table: info.id, bot: "random"))
        _ = try client(0).call(.start(table: info.id))
        try playHumanMove(0, info.id)
        try waitFor("the move is journaled") { try gameLog(0, info.id).moves.count >= 1 }
        harness.kill9(0)
        try harness.restart(0)
        try waitFor("the restored table plays on") { try state(0, info.id).info.phase == .playing }
        let before = try state(0, info.id).moveNumber ?? 0
        let played = try playHumanMove(0, info.id)
        XCTAssertGreaterThanOrEqual(played, before)
    }
}
