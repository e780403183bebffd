import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// Sealed tables (PROTOCOL.md §14) between real `tavolod` processes: the members shuffle and open every card over
/// the mesh, every node checks every card played, and each ends with the audit's verdict. Then a node started with
/// `--test-sealed-cheat` tells each lie of the issue, and every honest node catches it and names it.
final class SealedIntegrationTests: DaemonTestCase {
    /// Hosts a sealed table of `game` on node 0 with one bot seat per entry of `owners` (node indexes), starts it, and
    /// returns each node's end: its `finished` or `stopped` event.
    /// Node 0 hosts with the control op and `sealed: true`, or with `host` when given; it is watched too when it holds
    /// no seat.
    func playSealed(
        _ game: String, owners: [Int], bot: String, host: (() throws -> TableInfo)? = nil
    ) throws -> [TableEvent] {
        let nodes = Array(Set(owners + [0])).sorted()
        let watchers = try nodes.map {
            try TableIntegrationTests.Events(path: harness.nodes[$0].controlPath, kinds: [.finished, .stopped])
        }
        defer { watchers.forEach { $0.close() } }
        let info = try host?() ?? client(0).call(.host(game: game, players: owners.count, sealed: true))
        XCTAssertEqual(info.sealed, true)
        try eventuallySync("every node sees \(info.id)", within: 15) {
            try nodes.allSatisfy { n in try client(n).call(.tables).contains { $0.id == info.id } }
        }
        for (seat, node) in owners.enumerated() {
            _ = try client(node).call(.join(table: info.id, game: nil, seat: seat, bot: bot))
        }
        try eventuallySync("seats taken", within: 15) {
            try client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(0).call(.start(table: info.id))
        try eventuallySync("every node ends the sealed game", within: 120) {
            watchers.allSatisfy { w in w.all.contains { $0.kind == .finished || $0.kind == .stopped } }
        }
        return try watchers.map { w in try XCTUnwrap(w.all.first { $0.kind == .finished || $0.kind == .stopped }) }
    }

    /// Every node stopped, and a new harness for the next case of the same test.
    func freshHarness() throws {
        harness.stopAll()
        harness = try DaemonHarness(heartbeatInterval: heartbeat.interval, heartbeatTimeout: heartbeat.timeout)
    }

    /// Three nodes, node 1 telling `lie`.
    func startWithCheat(_ lie: String) throws {
        _ = try harness.startNode()
        _ = try harness.startNode(extraArguments: ["--test-sealed-cheat", lie])
        _ = try harness.startNode()
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
    }

    func testSealedBriscolaAndSpiritsBetweenThreeNodesEndDeckVerified() throws {
        _ = try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        var tables: Set<String> = []
        for (game, owners, bot) in [("briscola", [0, 1, 2], "strong"), ("spirits", [0, 1, 2, 0], "heuristic")] {
            let ends = try playSealed(game, owners: owners, bot: bot)
            XCTAssertEqual(ends.count, 3)
            tables.insert(ends[0].table.rawValue)
            for e in ends {
                let r = try XCTUnwrap(e.result, "\(game): \(e.kind) \(e.code ?? "") \(e.message ?? "")")
                XCTAssertEqual(r.sealed, "verified", "\(game): \(r)")
                XCTAssertNil(r.cheaters)
                XCTAssertEqual(r.finalHash, ends[0].result?.finalHash, "\(game): the nodes ended on different states")
            }
        }
        // Each game's record (§14.12): one per table, signed by every member and checked by each, at every node.
        try eventuallySync("every node holds both sealed records, verified", within: 60) {
            try (0..<3).allSatisfy { i in
                let held = try client(i).call(.history(game: nil, player: nil)).filter { tables.contains($0.table) }
                return held.count == 2 && held.allSatisfy(\.verified)
            }
        }
        // `tavolo show` deals each sealed record again from its secrets and walks it to the members' final hash.
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        for table in tables.sorted() {
            let shown = try runProcess(tavolo, ["show", table, "--control", harness.nodes[1].controlPath])
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertTrue(shown.stdout.contains("sealed deck"), shown.stdout)
            XCTAssertTrue(shown.stdout.contains("reaches the recorded final hash"), shown.stdout)
            XCTAssertFalse(shown.stdout.contains("DOES NOT"), shown.stdout)
        }
    }

    /// `tavolo host briscola` deals sealed by default, and its host needs no seat: it follows the game as an observer
    /// (§14.1), checks every card played, and ends on the members' state with the same verdict.
    func testTavoloHostDealsSealedAndASeatlessHostFollowsToTheVerifiedEnd() throws {
        _ = try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let ends = try playSealed("briscola", owners: [1, 2, 1], bot: "strong") {
            let hosted = try runProcess(
                tavolo,
                ["host", "briscola", "--players", "3", "--json", "--control", self.harness.nodes[0].controlPath])
            XCTAssertEqual(hosted.status, 0, hosted.stderr)
            return try JSONDecoder().decode(TableInfo.self, from: Data(hosted.stdout.utf8))
        }
        XCTAssertEqual(ends.count, 3)
        for e in ends {
            let r = try XCTUnwrap(e.result, "\(e.kind) \(e.code ?? "") \(e.message ?? "")")
            XCTAssertEqual(r.sealed, "verified", "\(r)")
            XCTAssertEqual(r.finalHash, ends[0].result?.finalHash, "the host ended on another state")
        }
        let open = try runProcess(
            tavolo,
            ["host", "briscola", "--players", "2", "--open", "--json", "--control", harness.nodes[0].controlPath])
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertNil(try JSONDecoder().decode(TableInfo.self, from: Data(open.stdout.utf8)).sealed, "--open")
    }

    /// A node that tries every share it holds on every card of another seat opens none, and the game is verified.
    func testANodeThatPeeksOpensNoCardOfAnotherSeat() throws {
        try startWithCheat("peek")
        for e in try playSealed("briscola", owners: [0, 1, 2], bot: "random") {
            XCTAssertEqual(e.result?.sealed, "verified", "\(e.kind) \(e.message ?? "")")
        }
        let log = try String(contentsOfFile: harness.nodes[1].logPath, encoding: .utf8)
        let line = try XCTUnwrap(log.split(separator: "\n").first { $0.contains("peek: tried") }, harness.logTail(1))
        XCTAssertTrue(line.hasSuffix("opened 0"), String(line))
        XCTAssertFalse(line.contains("tried 0 "), String(line))
    }

    /// Lies seen live stop the table at every honest node, naming the liar.
    func testAFalseShareAndAWrongCardAreCaughtLiveAndNamed() throws {
        for (lie, code) in [("false-share", "sealed/bad-share"), ("wrong-card", "sealed/wrong-card")] {
            try startWithCheat(lie)
            let ends = try playSealed("briscola", owners: [0, 1, 2], bot: "random")
            for i in [0, 2] {
                XCTAssertEqual(ends[i].kind, .stopped, "\(lie): node \(i) \(ends[i].message ?? "")")
                XCTAssertEqual(ends[i].code, code, "\(lie): node \(i)")
                XCTAssertTrue(
                    ends[i].message?.contains(harness.nodes[1].name) == true,
                    "\(lie): node \(i): \(ends[i].message ?? "")")
            }
            try freshHarness()
        }
    }

    /// Lies nobody can see live are named by the audit: the game ends, "cheated", and the liar is named everywhere.
    func testAFalseShuffleAndAFalseFleeAreNamedByTheAudit() throws {
        for (lie, game, bot) in [("false-shuffle", "briscola", "strong"), ("false-flee", "spirits", "heuristic")] {
            try startWithCheat(lie)
            let ends = try playSealed(game, owners: [0, 1, 2], bot: bot)
            // Node 1, the liar, trusts what it made itself; the honest nodes name it.
            for (i, e) in ends.enumerated() where i != 1 {
                let r = try XCTUnwrap(e.result, "\(lie): node \(i) \(e.kind) \(e.message ?? "")")
                XCTAssertEqual(r.sealed, "cheated", "\(lie): node \(i)")
                XCTAssertEqual(r.cheaters, [harness.nodes[1].name], "\(lie): node \(i)")
            }
            try freshHarness()
        }
    }
}
