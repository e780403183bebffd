import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloSimulation
import TavoloTable
import XCTest

/// The Fifteen-puzzle race between real `tavolod` processes (PROTOCOL.md §10): a real misbehaving node, and a
/// race whose datagrams are dropped on purpose.
extension TableIntegrationTests {
    func testACheatingRacersFalseMovesAndLyingVoteDoNotWin() throws {
        _ = try harness.startNode(extraArguments: ["--test-allow-injection"])
        _ = try harness.start(2)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let watchers = try (0...2).map {
            try Events(path: harness.nodes[$0].controlPath, kinds: [.rejected, .finished, .stopped])
        }
        defer { watchers.forEach { $0.close() } }
        // Node 0 cheats; its own bot is the slowest, so it is really last. Node 2's bot is the fastest.
        let id = try table(host: 1, game: "fifteen", seats: [(0, "reduce@3"), (1, "reduce@12"), (2, "reduce@16")])
        _ = try client(1).call(.start(table: id))
        try waitFor("the race is on") {
            try client(0).call(.state(table: id)).info.phase == .playing
        }
        func inject(_ m: TableMessage) throws { _ = try client(0).call(.inject(m)) }
        // A "solution" move made on a board that is not the shared scramble (a wrong seat hash), a move for
        // node 2's seat, and a vote that says node 0's seat finished first, sent before anybody finished.
        let notTheScramble = StateHash(canonical: Array("another board".utf8))
        try inject(.raceMove(table: id, seat: 0, number: 0, move: .string("up"), seatHash: notTheScramble))
        try inject(.raceMove(table: id, seat: 2, number: 0, move: .string("up"), seatHash: notTheScramble))
        try inject(.raceOrder(table: id, order: [0, 1, 2]))
        try waitFor("the race ends on every node", seconds: 120) {
            watchers.allSatisfy { w in w.all.contains { $0.kind == .finished || $0.kind == .stopped } }
        }
        for w in watchers.dropFirst() {
            let codes = w.all.filter { $0.kind == .rejected }.compactMap(\.code)
            XCTAssertTrue(codes.contains(MoveErrorCode.stale.rawValue), "the wrong-board move: \(codes)")
            XCTAssertTrue(codes.contains(MoveErrorCode.notYourTurn.rawValue), "the foreign move: \(codes)")
        }
        var rankings: [[Int]] = []
        for w in watchers {
            XCTAssertFalse(w.all.contains { $0.kind == .stopped }, "\(w.all.map { $0.message ?? "" })")
            guard case .finished(let result)? = w.all.first(where: { $0.kind == .finished })?.detail else {
                return XCTFail("no result")
            }
            rankings.append(result.ranking ?? [])
            XCTAssertEqual(result.winners, [2], "the fastest bot wins")
        }
        XCTAssertEqual(Set(rankings).count, 1, "every node agrees: \(rankings)")
        XCTAssertEqual(rankings.first?.first, 2)
        XCTAssertEqual(rankings.first?.last, 0, "the liar, really last, stays last")
    }

    func testARaceWithHalfItsDatagramsDroppedEndsExactlyAsWithNone() throws {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        var reports: [Simulation.Report] = []
        for drop in ["0", "0.5"] {
            let sim = try run(
                tavolo,
                [
                    "simulate", "--peers", "3", "--game", "fifteen", "--bot", "reduce", "--pace", "10", "--seed", "23",
                    "--drop-datagrams", drop, "--json",
                ])
            XCTAssertEqual(sim.status, 0, sim.stderr + sim.stdout)
            reports.append(try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8)))
        }
        let (clean, lossy) = (try XCTUnwrap(reports.first?.games.first), try XCTUnwrap(reports.last?.games.first))
        XCTAssertTrue(clean.agree && lossy.agree)
        XCTAssertEqual(lossy.jointSeed, clean.jointSeed, "the same seed gives the same scramble")
        XCTAssertEqual(Set(lossy.finalHashes.values), Set(clean.finalHashes.values))
        XCTAssertEqual(lossy.ranking, clean.ranking)
        XCTAssertEqual(lossy.ranking, [2, 1, 0], "seat 2 plays fastest")
        // The live boards did travel, and the hook did lose some of them.
        let live = try XCTUnwrap(lossy.live)
        XCTAssertEqual(live.count, 3)
        XCTAssertTrue(live.allSatisfy { $0.sent > 0 && $0.accepted > 0 }, "\(live)")
        let dropped = reports.last?.nodes.reduce(0) { $0 + ($1.datagramsDropped ?? 0) } ?? 0
        XCTAssertGreaterThan(dropped, 0)
    }
}
